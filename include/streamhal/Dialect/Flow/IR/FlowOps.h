//===- FlowOps.h - flow dialect operations ----------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_FLOW_IR_FLOWOPS_H
#define STREAMHAL_DIALECT_FLOW_IR_FLOWOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "streamhal/Dialect/Flow/IR/FlowDialect.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"

#define GET_OP_CLASSES
#include "streamhal/Dialect/Flow/IR/FlowOps.h.inc"

namespace streamhal::flow {

/// Returns the dynamic dims of a tensor value: from the shape-aware op that
/// defines it, or for a stream fragment block argument from the fragment's
/// operand dims. Static tensors have none. Fails when the dims cannot be
/// found (the value comes from an op that does not carry them).
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
findDynamicDims(mlir::Value value);

/// Returns the value a stream fragment captured for `value`: for a block
/// argument of a fragment body, the fragment operand it stands for
/// (recursively, for nested captures); any other value is returned as is.
mlir::Value getCapturedValue(mlir::Value value);

/// Returns the constant integer `value` stands for, looking through fragment
/// block arguments to the captured operand (so a constant passed into a
/// fragment is known inside it). std::nullopt when it is not a constant.
std::optional<int64_t> getConstantIntThroughCaptures(mlir::Value value);

/// The name of the discardable `flow.wave` attribute: the wave of an op of a
/// scheduled fragment body (--flow-schedule-fragments).
llvm::StringRef getWaveAttrName();
/// The wave of an op of a scheduled body: its `flow.wave` integer when that
/// is a non-negative 64-bit value, else std::nullopt.
std::optional<int64_t> getWave(mlir::Operation *op);
/// Sets the wave of an op of a fragment body.
void setWave(mlir::Operation *op, int64_t wave);

/// The unit attribute copy on write (flow::materializeCopyOnWrite, the
/// `--flow-materialize-copy-on-write` pass) sets on the module it ran on:
/// every copy value semantics needs is explicit, so the lowering may write in
/// place wherever the IR ties. The fragment lowering refuses a module
/// without it (docs/design.md, "Using the pattern API").
inline constexpr llvm::StringLiteral kCopyOnWriteAttrName =
    "flow.copy_on_write";

} // namespace streamhal::flow

#endif // STREAMHAL_DIALECT_FLOW_IR_FLOWOPS_H
