//===- Transients.h - The transient-memory calling convention --*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The attributes that mark a function's transient slab and, with external
// transients, the argument the caller passes it in and the query that sizes
// it (docs/lowering.md, "Transients per function"). The lowering writes
// them; the executor reads them to supply the buffer.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_TRANSIENTS_H
#define STREAMHAL_DIALECT_HAL_IR_TRANSIENTS_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/ADT/StringRef.h"

namespace streamhal::hal {

/// Unit attribute on the `hal.allocator.allocate` of a block's one transient
/// slab (`--hal-plan-function-transients`).
inline constexpr llvm::StringLiteral kFunctionTransientsAttrName =
    "hal.ex.function_transients";

/// Unit argument attribute on the trailing `!hal.buffer` argument through
/// which the caller provides a public function's transient memory.
inline constexpr llvm::StringLiteral kTransientsArgAttrName =
    "hal.ex.transients";

/// Function attribute naming (flat symbol reference) the query that returns
/// how many bytes that argument needs, given the other arguments.
inline constexpr llvm::StringLiteral kTransientSizeAttrName =
    "hal.ex.transient_size";

/// The suffix of the query's name: `@f` gets `@f_transient_size`.
inline constexpr llvm::StringLiteral kTransientSizeSuffix = "_transient_size";

/// Whether `allocation` has the memory type and usage of the slabs and
/// device-only values the conversion allocates (DeviceLocal, usage
/// Dispatch|Transfer): the memory a transient plan may place.
inline bool isDeviceOnlyTransient(AllocatorAllocateOp allocation) {
  return allocation.getMemoryTypes() == MemoryType::DeviceLocal &&
         allocation.getBufferUsage() ==
             (BufferUsage::Dispatch | BufferUsage::Transfer);
}

/// Whether the last argument of `function` is its caller-owned transient
/// buffer.
inline bool takesCallerTransients(mlir::FunctionOpInterface function) {
  unsigned count = function.getNumArguments();
  return count && function.getArgAttr(count - 1, kTransientsArgAttrName);
}

} // namespace streamhal::hal

#endif // STREAMHAL_DIALECT_HAL_IR_TRANSIENTS_H
