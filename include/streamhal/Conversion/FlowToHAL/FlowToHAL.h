//===- FlowToHAL.h - flow to hal conversion entry points --------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The public entry points of the lowering for downstream compilers: the type
// converter, the patterns, the legality rules and the fragment precondition
// check.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_CONVERSION_FLOWTOHAL_FLOWTOHAL_H
#define STREAMHAL_CONVERSION_FLOWTOHAL_FLOWTOHAL_H

#include "mlir/Transforms/DialectConversion.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/HAL/Transforms/PlaceBarriers.h"
#include "llvm/Support/CommandLine.h"
#include <optional>

namespace streamhal {
namespace flow {
class ExStreamFragmentOp;
} // namespace flow
class FragmentAnalysisCache;
class HostReadability;

/// Converts every ranked tensor type to `!hal.buffer`; other types are kept.
class FlowToHALTypeConverter : public mlir::TypeConverter {
public:
  explicit FlowToHALTypeConverter(mlir::MLIRContext *context);
};

/// Whether a slice or clone may become a view of its source's storage.
enum class CopyPolicy {
  /// Every slice and clone is a copy (the baseline).
  Always,
  /// A contiguous slice or a clone is a view of its source's storage
  /// whenever that is sound (docs/lowering.md, "Views instead of copies").
  Elide,
};

/// The command-line spellings of CopyPolicy, shared by the pass and the
/// pipeline options.
inline llvm::cl::ValuesClass getCopyPolicyValues() {
  return llvm::cl::values(
      clEnumValN(CopyPolicy::Always, "always",
                 "every slice and clone is a copy"),
      clEnumValN(CopyPolicy::Elide, "elide",
                 "a contiguous slice or a clone is a view of its source "
                 "whenever that is sound"));
}

/// Counters the fragment lowering adds to, for pass statistics.
struct FlowToHALStatistics {
  uint64_t fragments = 0;
  uint64_t transientSlices = 0;
  uint64_t commands = 0;
  uint64_t barriers = 0;
  uint64_t views = 0;
};

/// Options of the lowering that later policies vary.
struct FlowToHALOptions {
  /// Memory type of every buffer allocated for a fragment result (usage
  /// `All`). Unset: decided from use: `DeviceLocal` with usage
  /// `Dispatch|Transfer` for a result `hostReadability` proves device-only,
  /// `DeviceLocal|HostVisible` with usage `All` for every other.
  std::optional<hal::MemoryType> outputMemoryType;
  /// Where barriers go between the recorded commands.
  BarrierPolicy barriers = BarrierPolicy::Hazard;
  /// Whether slices and clones may be views instead of copies.
  CopyPolicy copies = CopyPolicy::Elide;
  /// Optional counters; must outlive the conversion.
  FlowToHALStatistics *statistics = nullptr;
  /// Optional facts from checkFlowToHALLowerable, reused by the fragment
  /// pattern so that each fragment is analysed once; must outlive the
  /// conversion. Without it the pattern analyses each fragment itself.
  FragmentAnalysisCache *analyses = nullptr;
  /// Optional: which fragment results the host may read, computed on the
  /// module before the conversion; must outlive it. Without it every output
  /// is host-visible.
  const HostReadability *hostReadability = nullptr;
};

/// Adds the patterns lowering flow ops, tensor-typed globals, function
/// boundaries and `hal.tensor.cast` to HAL.
void populateFlowToHALPatterns(mlir::MLIRContext *context,
                               mlir::TypeConverter &typeConverter,
                               mlir::RewritePatternSet &patterns,
                               const FlowToHALOptions &options = {});

/// Marks flow ops, tensor-typed util/func ops and hal.tensor.cast illegal.
void populateFlowToHALLegality(mlir::ConversionTarget &target,
                               mlir::TypeConverter &typeConverter);

/// Checks that a whole module can be lowered, reporting every problem (in
/// fragments and around them) as a located diagnostic, before anything is
/// rewritten. Call it before applying the patterns: a pattern that meets a
/// fragment it cannot lower only reports a match failure. With `analyses`,
/// the facts computed for each fragment are kept for the patterns.
mlir::LogicalResult
checkFlowToHALLowerable(mlir::ModuleOp module,
                        FragmentAnalysisCache *analyses = nullptr);

/// Checks one fragment, reporting every problem as a located diagnostic.
mlir::LogicalResult
checkStreamFragmentLowerable(flow::ExStreamFragmentOp op,
                             FragmentAnalysisCache *analyses = nullptr);

/// Facts computed once per fragment by the check and reused by the fragment
/// pattern (its alias classes and their storage kinds). Owned by the caller
/// of the conversion.
class FragmentAnalysisCache {
public:
  FragmentAnalysisCache();
  ~FragmentAnalysisCache();
  FragmentAnalysisCache(const FragmentAnalysisCache &) = delete;
  FragmentAnalysisCache &operator=(const FragmentAnalysisCache &) = delete;

  /// What is known of one fragment that passed the check.
  struct Entry;
  /// Returns the entry of a fragment that passed the check, or null.
  const Entry *lookup(mlir::Operation *fragment) const;
  /// Records the entry of a fragment that passed the check.
  void insert(mlir::Operation *fragment, std::unique_ptr<Entry> entry);

private:
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<Entry>> entries;
};

} // namespace streamhal

#endif // STREAMHAL_CONVERSION_FLOWTOHAL_FLOWTOHAL_H
