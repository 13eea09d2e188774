//===- ReadOnlyClones.h - returned clones no one writes ---------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A fragment that returns a value and a clone of it (or a clone of one of
// its operands) hands its caller two equal values. When nothing after the
// fragment writes either one, the two may share one storage, as a value
// returned twice does: the clone copies bytes no one can tell apart (IREE
// elides such read-only clones across calls).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_READONLYCLONES_H
#define STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_READONLYCLONES_H

#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace streamhal::flow {

/// Replaces by its source each clone in `fragment` whose only use is the
/// fragment's return and whose source the fragment also returns, or is a
/// block argument whose operand no result is tied to, when `onlyReads`
/// holds for every later use of the results (and of that operand) in the
/// fragment's block; a use nested in another op's region is never read
/// only. Returns how many clones it replaced.
unsigned
shareReadOnlyClones(ExStreamFragmentOp fragment,
                    llvm::function_ref<bool(mlir::OpOperand &)> onlyReads);

} // namespace streamhal::flow

#endif // STREAMHAL_LIB_DIALECT_FLOW_TRANSFORMS_READONLYCLONES_H
