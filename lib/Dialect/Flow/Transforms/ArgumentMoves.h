//===- ArgumentMoves.h - arguments a private callee takes over --*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A function only called from inside the module may write an argument in
// place: every caller copies what it keeps (copy on write at calls). Such a
// function therefore takes over an argument it clones and then writes
// (IREE's argument moves): the fragment result computed in the clone is
// tied to the argument, and the clone becomes a copy onto itself.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_ARGUMENTMOVES_H
#define STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_ARGUMENTMOVES_H

#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace streamhal::flow {

/// The functions of `module` no caller outside it can reach: private ones,
/// with a body, whose every symbol use is the callee of a direct
/// `func.call`.
llvm::DenseSet<mlir::Operation *> getModuleOnlyFunctions(mlir::ModuleOp module);

/// One untied fragment result to tie to the argument whose clone it is
/// computed in.
struct ArgumentMove {
  /// The fragment result.
  unsigned result;
  /// The operand, as an index into the fragment's arguments.
  unsigned operand;
  /// The function argument that operand is.
  unsigned functionArgument;
  /// Clones between the argument's clone and the result, each of a value
  /// dead right after it: replaced by their sources, so that the result's
  /// storage is the argument's clone's.
  llvm::SmallVector<mlir::Operation *> redundantClones;
};

/// The argument moves of `fragment`, in a function whose entry block is
/// `functionEntry`: untied results whose alias class holds a clone of an
/// operand that is an argument of the function (of a static shape, the
/// result's type), directly or through clones of values dead right after
/// them, holds no block argument and is returned once, where
/// `mayOverwrite(operand number)` says the function no longer needs the
/// operand. At most one move per operand.
llvm::SmallVector<ArgumentMove>
findArgumentMoves(ExStreamFragmentOp fragment, mlir::Block &functionEntry,
                  llvm::function_ref<bool(unsigned)> mayOverwrite);

} // namespace streamhal::flow

#endif // STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_ARGUMENTMOVES_H
