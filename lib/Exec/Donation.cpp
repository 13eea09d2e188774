//===- Donation.cpp - which arguments a function may overwrite ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The executor's own reading of the calling convention, independent of the
// lowering: a function may write into an argument's storage only where the
// program ties a result to it. Used to check that a lowering leaves every
// other argument's bytes as the caller passed them.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "streamhal/Exec/Executor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace streamhal::exec {
namespace {

/// Follows ties and casts back to the value whose storage `value` is.
Value findStorageRoot(Value value) {
  for (unsigned steps = 0; steps < 1u << 20; ++steps) {
    auto result = dyn_cast<OpResult>(value);
    if (!result)
      return value;
    Operation *owner = result.getOwner();
    if (isa<hal::TensorCastOp>(owner)) {
      value = owner->getOperand(0);
      continue;
    }
    auto tied = dyn_cast<util::TiedOpInterface>(owner);
    if (!tied)
      return value;
    std::optional<unsigned> operand =
        tied.getTiedResultOperandIndex(result.getResultNumber());
    if (!operand || *operand >= owner->getNumOperands())
      return value;
    value = owner->getOperand(*operand);
  }
  return value;
}

llvm::BitVector findDonated(func::FuncOp function,
                            DenseMap<Operation *, llvm::BitVector> &memo,
                            DenseSet<Operation *> &visiting) {
  if (auto it = memo.find(function); it != memo.end())
    return it->second;
  llvm::BitVector donated(function.getNumArguments());
  if (function.isExternal() || !visiting.insert(function).second)
    return donated;
  auto donate = [&](Value value) {
    if (auto argument = dyn_cast<BlockArgument>(findStorageRoot(value)))
      if (argument.getOwner() == &function.getBody().front())
        donated.set(argument.getArgNumber());
  };
  auto module = function->getParentOfType<ModuleOp>();
  function.walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = module ? module.lookupSymbol<func::FuncOp>(call.getCallee())
                           : func::FuncOp();
      if (!callee)
        return;
      llvm::BitVector calleeDonated = findDonated(callee, memo, visiting);
      for (unsigned index : calleeDonated.set_bits())
        if (index < call->getNumOperands())
          donate(call->getOperand(index));
      return;
    }
    // Only ties of ops directly in the function: a fragment body's ties
    // name the fragment's own block arguments.
    if (op->getParentOp() != function.getOperation() ||
        isa<flow::TensorReshapeOp, hal::TensorCastOp>(op))
      return;
    auto tied = dyn_cast<util::TiedOpInterface>(op);
    if (!tied)
      return;
    for (unsigned result = 0, e = op->getNumResults(); result < e; ++result)
      if (std::optional<unsigned> operand =
              tied.getTiedResultOperandIndex(result))
        if (*operand < op->getNumOperands())
          donate(op->getOperand(*operand));
  });
  visiting.erase(function);
  memo[function] = donated;
  return donated;
}

} // namespace

llvm::BitVector findDonatedArguments(func::FuncOp function) {
  DenseMap<Operation *, llvm::BitVector> memo;
  DenseSet<Operation *> visiting;
  return findDonated(function, memo, visiting);
}

} // namespace streamhal::exec
