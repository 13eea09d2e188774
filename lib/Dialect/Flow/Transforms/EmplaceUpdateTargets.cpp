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
// concatenation often makes its target (a splat) after the pieces; moving
// the splat in front of the first piece lets every piece be computed in
// place, as IREE's EmplaceAllocations does. A splat reads only scalars, so
// moving it changes no value.
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
  // Splats move only towards the front: visit a snapshot.
  SmallVector<TensorSplatOp> splats(body.getOps<TensorSplatOp>());
  for (TensorSplatOp splat : splats) {
    // The chain of updates into the splat: each writes the previous result.
    Operation *earliestPiece = nullptr;
    Value target = splat.getResult();
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
    if (!earliestPiece || !earliestPiece->isBeforeInBlock(splat))
      continue;
    // Every operand of the splat (its value, its dims) must be available
    // in front of the first piece; constants made later move along.
    SmallVector<Operation *> constants;
    bool available = llvm::all_of(splat->getOperands(), [&](Value operand) {
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
               << "update target made first: " << splat.getLoc() << "\n");
    for (Operation *constant : constants)
      constant->moveBefore(earliestPiece);
    splat->moveBefore(earliestPiece);
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
