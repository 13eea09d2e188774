//===- OperandStorage.h - which fragment operands share storage -*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The calling convention (docs/lowering.md, "Value semantics") makes two
// distinct tensor arguments of a function distinct buffers. Two operands of
// a fragment are then one buffer only when the program shows it: the same
// value passed twice, values that one earlier fragment returns from one
// storage (or from one of its operands), casts of one value, or arguments
// that a call in the module passes one value for.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_ANALYSIS_OPERANDSTORAGE_H
#define STREAMHAL_ANALYSIS_OPERANDSTORAGE_H

#include "mlir/Pass/AnalysisManager.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace streamhal {

/// groupOperandStorage for every fragment of a module at the cost of one:
/// each value's trace, each fragment's alias classes and each function's
/// callers are found once, instead of once per fragment that reaches them
/// (a function of N fragments in a chain made that quadratic). Valid while
/// the fragments and calls it has traced are not changed.
class OperandStorage {
public:
  OperandStorage();
  /// The scope is not walked up front.
  explicit OperandStorage(mlir::Operation *scope);
  /// The form `getAnalysis<OperandStorage>()` builds: the alias classes of
  /// the fragments it traces through are `ValueAliasing` analyses of the same
  /// manager (`scope` must be an ancestor of every fragment queried).
  OperandStorage(mlir::Operation *scope, mlir::AnalysisManager &analyses);
  ~OperandStorage();
  OperandStorage(OperandStorage &&);
  OperandStorage &operator=(OperandStorage &&);

  /// Traces refer to the alias classes of the fragments they crossed.
  bool isInvalidated(const mlir::AnalysisManager::PreservedAnalyses &kept) {
    return !kept.isPreserved<OperandStorage>() ||
           !kept.isPreserved<ValueAliasing>();
  }

  /// groupOperandStorage of `fragment`.
  llvm::SmallVector<unsigned> groupOperands(flow::ExStreamFragmentOp fragment);

private:
  struct TraceResult;
  class Tracer;
  std::unique_ptr<Tracer> tracer;
};

/// Groups the operands of `fragment` by the buffer they may be: operands
/// with the same group number may share bytes, operands with different ones
/// never do. Returns one group per entry of `fragment.getArguments()`
/// (non-tensor operands get groups of their own). Values whose storage the
/// analysis cannot trace (call results, globals, constants, anything else)
/// all fall into one group, which is conservative.
llvm::SmallVector<unsigned>
groupOperandStorage(flow::ExStreamFragmentOp fragment);

} // namespace streamhal

#endif // STREAMHAL_ANALYSIS_OPERANDSTORAGE_H
