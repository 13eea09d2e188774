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

#include "mlir/Pass/AnalysisManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "llvm/Support/CommandLine.h"
#include <memory>
#include <optional>

namespace streamhal {
class OperandStorage;
namespace flow {
class ExStreamFragmentOp;
} // namespace flow
class FragmentPlan;
class FragmentPlanCache;
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
  uint64_t views = 0;
};

/// Options of the lowering that later policies vary.
struct FlowToHALOptions {
  /// Memory type of every buffer allocated for a fragment result (usage
  /// `All`). Unset: decided from use: `DeviceLocal` with usage
  /// `Dispatch|Transfer` for a result `hostReadability` proves device-only,
  /// `DeviceLocal|HostVisible` with usage `All` for every other.
  std::optional<hal::MemoryType> outputMemoryType;
  /// Whether slices and clones may be views instead of copies.
  CopyPolicy copies = CopyPolicy::Elide;
  /// Optional counters; must outlive the conversion.
  FlowToHALStatistics *statistics = nullptr;
  /// Optional plans from checkFlowToHALLowerable, read by the fragment
  /// pattern so that each fragment is checked and planned once; must outlive
  /// the conversion, and must be made after the last transform of the
  /// fragments (copy on write, emplacement): a plan describes the fragment
  /// as the check saw it. With plans, a fragment whose plan is missing or
  /// stale (its body or attributes changed since) is an error at the
  /// fragment, and the conversion fails; a cache made with another `copies`
  /// than these options' is an error too. Without plans, the pattern plans
  /// each fragment itself, silently (it declines when the fragment cannot
  /// be lowered).
  const FragmentPlanCache *plans = nullptr;
  /// Optional: which fragment results the host may read, computed on the
  /// module before the conversion; must outlive it. Without it every output
  /// is host-visible.
  const HostReadability *hostReadability = nullptr;
};

/// Adds the patterns lowering flow ops, tensor-typed globals, function
/// boundaries and `hal.tensor.cast` to HAL. They convert and decide nothing
/// else: run copy on write (`flow::materializeCopyOnWrite`) and, for fewer
/// copies, `flow::emplaceUpdateTargets` before them, and
/// `hal-place-barriers` after them, since each fragment's command buffer is
/// recorded without barriers; `streamhal::buildConvertFlowToHALPipeline`
/// (streamhal/Registration/Pipelines.h) composes every step.
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
/// fragment it cannot lower only reports a match failure. With `plans`, the
/// plan made for each fragment is kept for the patterns. With `analyses`
/// (the module's analysis manager, inside a pass) the operand storage, alias
/// classes, liveness intervals and box plans are the manager's analyses, and
/// the plans refer to them until the manager invalidates them.
mlir::LogicalResult
checkFlowToHALLowerable(mlir::ModuleOp module,
                        FragmentPlanCache *plans = nullptr,
                        mlir::AnalysisManager *analyses = nullptr);

/// Checks one fragment, reporting every problem as a located diagnostic;
/// keeps its plan in `plans` when it can be lowered. Checking many fragments
/// of one unchanged module, pass one `storage` (the operand storage of each
/// is then traced through the others once). `analyses` is the manager of
/// an ancestor of `op`, as for checkFlowToHALLowerable.
mlir::LogicalResult
checkStreamFragmentLowerable(flow::ExStreamFragmentOp op,
                             FragmentPlanCache *plans = nullptr,
                             OperandStorage *storage = nullptr,
                             mlir::AnalysisManager *analyses = nullptr);

/// The plan of every fragment that passed the check (its resolutions, box
/// plans, alias classes, liveness, storage kinds and views), made once and
/// read by the fragment pattern. Owned by the caller of the conversion.
class FragmentPlanCache {
public:
  /// Plans decide views with `copies` (FlowToHALOptions::copies must match).
  explicit FragmentPlanCache(CopyPolicy copies = CopyPolicy::Elide);
  ~FragmentPlanCache();
  FragmentPlanCache(const FragmentPlanCache &) = delete;
  FragmentPlanCache &operator=(const FragmentPlanCache &) = delete;

  CopyPolicy getCopyPolicy() const { return copies; }
  /// Returns the plan of a fragment that passed the check, or null; sets
  /// `stale` (when given) if there is one but the fragment changed after it
  /// was made (then null is returned).
  const FragmentPlan *lookup(mlir::Operation *fragment,
                             bool *stale = nullptr) const;
  /// Records the plan of a fragment that passed the check, with a stamp of
  /// the fragment as it is now.
  void insert(mlir::Operation *fragment, std::unique_ptr<FragmentPlan> plan);

  /// A stamp of what a plan depends on in the fragment itself: every op of
  /// its body (operands, attributes, properties, result types) and its own
  /// attributes and properties (ties). Not its operands: the conversion
  /// replaces those while it runs.
  static llvm::hash_code stampFragment(mlir::Operation *fragment);

private:
  struct Entry {
    llvm::hash_code stamp;
    std::unique_ptr<FragmentPlan> plan;
  };
  CopyPolicy copies;
  llvm::DenseMap<mlir::Operation *, Entry> plans;
};

} // namespace streamhal

#endif // STREAMHAL_CONVERSION_FLOWTOHAL_FLOWTOHAL_H
