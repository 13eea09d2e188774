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

namespace streamhal {
namespace flow {
class ExStreamFragmentOp;
} // namespace flow

/// Converts every ranked tensor type to `!hal.buffer`; other types are kept.
class FlowToHALTypeConverter : public mlir::TypeConverter {
public:
  explicit FlowToHALTypeConverter(mlir::MLIRContext *context);
};

/// Where the recorder puts execution barriers.
enum class BarrierPolicy {
  /// A full barrier after every command (the baseline).
  Full,
  /// A full barrier right before a command that conflicts with a command
  /// recorded since the last barrier, and nowhere else (docs/concurrency.md).
  Hazard,
};

/// Counters the fragment lowering adds to, for pass statistics.
struct FlowToHALStatistics {
  uint64_t fragments = 0;
  uint64_t transientSlices = 0;
  uint64_t commands = 0;
  uint64_t barriers = 0;
};

/// Options of the lowering that later policies vary.
struct FlowToHALOptions {
  /// Memory type of the buffers allocated for fragment results.
  hal::MemoryType outputMemoryType =
      hal::MemoryType::DeviceLocal | hal::MemoryType::HostVisible;
  /// Where barriers go between the recorded commands.
  BarrierPolicy barriers = BarrierPolicy::Hazard;
  /// Optional counters; must outlive the conversion.
  FlowToHALStatistics *statistics = nullptr;
  /// Set when checkStreamFragmentLowerable already passed on every fragment
  /// (the pass does this); the pattern then skips its own check.
  bool fragmentsChecked = false;
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

/// Checks that a fragment can be lowered, reporting every problem as a
/// located diagnostic. The pattern calls it too; a pass calls it first so
/// that a bad fragment fails the pass before anything is rewritten.
mlir::LogicalResult checkStreamFragmentLowerable(flow::ExStreamFragmentOp op);

} // namespace streamhal

#endif // STREAMHAL_CONVERSION_FLOWTOHAL_FLOWTOHAL_H
