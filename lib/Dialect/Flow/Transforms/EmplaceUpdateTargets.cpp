//===- EmplaceUpdateTargets.cpp - make concatenation targets first --------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A value updated into a target can be computed in the target's box only
// when the target is initialized first (StorageViews, "update sinks"). A
// concatenation often makes its target (a splat) after the pieces, and copy
// on write puts the clone an update writes right before the update, after
// the value; moving the splat or clone in front of the first piece lets
// every piece be computed in place, as IREE's EmplaceAllocations does. A
// splat reads only scalars, and a clone reads a value that is immutable
// from its definition on (copy on write keeps its bytes until its last
// read), so moving either towards the front changes no value.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Analysis/LivenessIntervals.h"
#include "streamhal/Dialect/Flow/Transforms/CopyOnWrite.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "flow-emplace-update-targets"

namespace streamhal::flow {
#define GEN_PASS_DEF_EMPLACEUPDATETARGETSPASS
#include "streamhal/Dialect/Flow/Transforms/Passes.h.inc"
} // namespace streamhal::flow

using namespace mlir;

namespace streamhal::flow {

unsigned emplaceUpdateTargets(ExStreamFragmentOp fragment) {
  if (fragment.getBody().empty())
    return 0;
  Block &body = fragment.getBody().front();
  // A scheduled body keeps its waves: moving an op would break their order.
  if (llvm::any_of(body,
                   [](Operation &op) { return op.hasAttr(getWaveAttrName()); }))
    return 0;
  unsigned moved = 0;
  // Targets move only towards the front: visit a snapshot.
  SmallVector<Operation *> targets;
  for (Operation &op : body)
    if (isa<TensorSplatOp, TensorCloneOp>(op))
      targets.push_back(&op);
  for (Operation *made : targets) {
    // The chain of updates into the target: each writes the previous result.
    Operation *earliestPiece = nullptr;
    Value target = made->getResult(0);
    while (target.hasOneUse()) {
      auto update = dyn_cast<TensorUpdateOp>(*target.getUsers().begin());
      if (!update || update.getTarget() != target)
        break;
      if (Operation *piece = update.getUpdate().getDefiningOp())
        if (piece->getBlock() == &body &&
            (!earliestPiece || piece->isBeforeInBlock(earliestPiece)))
          earliestPiece = piece;
      target = update.getResult();
    }
    if (!earliestPiece || !earliestPiece->isBeforeInBlock(made))
      continue;
    // Every operand of the target (a splat's value, a clone's source, the
    // dims) must be available in front of the first piece; constants made
    // later move along.
    SmallVector<Operation *> constants;
    bool available = llvm::all_of(made->getOperands(), [&](Value operand) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != &body ||
          def->isBeforeInBlock(earliestPiece))
        return true;
      if (!def->hasTrait<OpTrait::ConstantLike>() || def->getNumOperands())
        return false;
      constants.push_back(def);
      return true;
    });
    if (!available)
      continue;
    LLVM_DEBUG(llvm::dbgs()
               << "update target made first: " << made->getLoc() << "\n");
    for (Operation *constant : constants)
      constant->moveBefore(earliestPiece);
    made->moveBefore(earliestPiece);
    ++moved;
  }
  return moved;
}

namespace {
struct EmplaceUpdateTargetsPass
    : public impl::EmplaceUpdateTargetsPassBase<EmplaceUpdateTargetsPass> {
  using Base::Base;
  void runOnOperation() override {
    unsigned moved = 0;
    getOperation()->walk([&](ExStreamFragmentOp fragment) {
      moved += emplaceUpdateTargets(fragment);
    });
    if (!moved)
      markAllAnalysesPreserved();
  }
};
} // namespace

} // namespace streamhal::flow
