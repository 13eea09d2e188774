//===- TransientSlabs.h - Moving a function's slab to its caller -*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What hal-plan-function-transients (a private callee's slab planned into
// its caller's) and hal-external-transients (a public function's slab owned
// by the runtime) share: finding a function's slab, the ops that size it
// from the arguments, turning it into a trailing argument, and the call
// graph.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_DIALECT_HAL_TRANSFORMS_TRANSIENTSLABS_H
#define STREAMHAL_LIB_DIALECT_HAL_TRANSFORMS_TRANSIENTSLABS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace streamhal {

/// The function slab (`hal.ex.function_transients`) of the entry block of
/// `function`, if any.
hal::AllocatorAllocateOp findFunctionSlab(mlir::func::FuncOp function);

/// The ops that compute `size` from the arguments of `function`, in block
/// order. Fails when one has effects or regions, lies in another block or
/// reads another block's argument; with `emitErrors` it then reports an
/// error at the function with a note at the culprit.
mlir::FailureOr<llvm::SmallVector<mlir::Operation *>>
findSizeComputation(mlir::func::FuncOp function, mlir::Value size,
                    bool emitErrors);

/// Makes `function` take the memory of `slab` as a trailing `!hal.buffer`
/// argument marked `hal.ex.transients`, and erases the allocation.
mlir::LogicalResult takeSlabAsArgument(mlir::func::FuncOp function,
                                       hal::AllocatorAllocateOp slab);

/// Appends to `call`'s operands a fresh device-only buffer of `bytes`
/// (a value available before the call), allocated right before it.
void passFreshTransients(mlir::func::CallOp call, mlir::Value bytes);

/// Makes private `callee` take its slab from each of `calls` (all its
/// uses): each call passes a fresh allocation of the slab's size, computed
/// before the call from its operands, which the caller's own plan then
/// places in its slab. Returns false, changing nothing, when `callee` has
/// no slab in its entry block or the arguments do not decide its size.
bool lendSlabToCallers(mlir::func::FuncOp callee,
                       llvm::ArrayRef<mlir::func::CallOp> calls);

/// The functions and initializers of `module`, every callee before its
/// callers; `recursive` gets the functions on a cycle of calls.
llvm::SmallVector<mlir::Operation *>
orderCalleesFirst(mlir::ModuleOp module,
                  llvm::DenseSet<mlir::Operation *> &recursive);

/// The calls of each function of `module` by name, or std::nullopt for a
/// function also referenced otherwise (its address taken by a symbol
/// reference): one walk of the module.
llvm::DenseMap<mlir::StringAttr,
               std::optional<llvm::SmallVector<mlir::func::CallOp>>>
collectCalls(mlir::ModuleOp module);

} // namespace streamhal

#endif // STREAMHAL_LIB_DIALECT_HAL_TRANSFORMS_TRANSIENTSLABS_H
