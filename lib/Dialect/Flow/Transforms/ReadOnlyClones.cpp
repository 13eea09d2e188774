//===- ReadOnlyClones.cpp - returned clones no one writes -----------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ReadOnlyClones.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "flow-copy-on-write"

using namespace mlir;

namespace streamhal::flow {

/// True when every use of `value` after `fragment` is read only.
static bool isReadOnlyAfter(Value value, ExStreamFragmentOp fragment,
                            function_ref<bool(OpOperand &)> onlyReads) {
  Block *block = fragment->getBlock();
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user == fragment.getOperation())
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor)
      return false;
    if (ancestor->isBeforeInBlock(fragment))
      continue;
    if (ancestor != user || !onlyReads(use))
      return false;
  }
  return true;
}

unsigned shareReadOnlyClones(ExStreamFragmentOp fragment,
                             function_ref<bool(OpOperand &)> onlyReads) {
  if (fragment.getBody().empty())
    return 0;
  Block &body = fragment.getBody().front();
  auto terminator = dyn_cast<ReturnOp>(body.getTerminator());
  if (!terminator)
    return 0;
  // The first result returning each value.
  DenseMap<Value, unsigned> resultOf;
  for (auto [index, returned] : llvm::enumerate(terminator.getOperands()))
    resultOf.try_emplace(returned, index);
  unsigned shared = 0;
  for (OpOperand &returned : terminator->getOpOperands()) {
    auto clone = returned.get().getDefiningOp<TensorCloneOp>();
    if (!clone || !clone->hasOneUse())
      continue;
    Value source = clone->getOperand(0);
    Value result = fragment->getResult(returned.getOperandNumber());
    // The other value the caller gets: a result or the operand itself.
    Value other;
    if (auto it = resultOf.find(source); it != resultOf.end()) {
      other = fragment->getResult(it->second);
    } else if (auto argument = dyn_cast<BlockArgument>(source);
               argument && argument.getOwner() == &body) {
      unsigned position =
          fragment.getArgumentsBeginIndex() + argument.getArgNumber();
      bool written =
          llvm::any_of(llvm::seq(fragment->getNumResults()), [&](unsigned i) {
            return fragment.getTiedResultOperandIndex(i) == position;
          });
      if (written)
        continue;
      other = fragment->getOperand(position);
    } else {
      continue;
    }
    if (!isReadOnlyAfter(result, fragment, onlyReads) ||
        !isReadOnlyAfter(other, fragment, onlyReads))
      continue;
    LLVM_DEBUG(llvm::dbgs() << "read-only clone shares its source's storage: "
                            << clone.getLoc() << "\n");
    returned.set(source);
    clone->erase();
    ++shared;
  }
  return shared;
}

} // namespace streamhal::flow
