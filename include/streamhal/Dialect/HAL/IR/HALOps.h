//===- HALOps.h - hal dialect operations ------------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_HALOPS_H
#define STREAMHAL_DIALECT_HAL_IR_HALOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"

#define GET_OP_CLASSES
#include "streamhal/Dialect/HAL/IR/HALOps.h.inc"

namespace streamhal::hal {

/// The alignments every slab of a module honours: offsets and sizes are
/// rounded up to them.
struct SlabAlignments {
  int64_t offset = 16;
  int64_t range = 16;
};

/// Returns the strictest `min_buffer_offset_alignment` and
/// `min_buffer_range_alignment` of the `#hal.buffer_constraints` among the
/// `hal.device.targets` of the module around `op`, or the defaults (16, 16)
/// when no target gives constraints.
SlabAlignments getSlabAlignments(mlir::Operation *op);

/// What a materialized `hal.allocator.pack` proved about the bytes of one of
/// its dynamic-size slices, kept as the `hal.pack_lane` attribute of a
/// `hal.buffer.subspan` that lies inside the slice (docs/concurrency.md):
/// the slice sits in lane `lane` of pack `pack` (lanes of one pack never
/// share a byte) at an offset of at least `minOffset` (past every
/// constant-size slice). Once the offsets are index math this is what keeps
/// slices that are live together apart for the access model.
struct PackLane {
  /// Unique per materialized pack in a module.
  int64_t pack = 0;
  int64_t lane = 0;
  int64_t minOffset = 0;

  static constexpr llvm::StringLiteral kAttrName = "hal.pack_lane";

  /// Reads the attribute of `subspan`; std::nullopt when it is missing or
  /// malformed (it is a discardable attribute: anything may be there).
  static std::optional<PackLane> get(BufferSubspanOp subspan);
  void set(BufferSubspanOp subspan) const;
};

} // namespace streamhal::hal

#endif // STREAMHAL_DIALECT_HAL_IR_HALOPS_H
