//===- PlaceBarriers.cpp - execution barriers in command buffers ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For one command order, a barrier right before each command that conflicts
// with the batch since the last barrier is the fewest barriers the access
// model allows: moving any of them later would put a conflicting pair into
// one batch. How close that is to what the device needs depends only on how
// precise the model is, which is why the pipeline places barriers after the
// packs are materialized (docs/concurrency.md).
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Transforms/PlaceBarriers.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "hal-place-barriers"

namespace streamhal::hal {
#define GEN_PASS_DEF_PLACEBARRIERSPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal {

/// Returns true when `op` is a command of `commandBuffer` (the operand every
/// command buffer op takes first).
static bool isCommandOf(Operation *op, Value commandBuffer) {
  return isBufferCommand(op) && op->getNumOperands() > 0 &&
         op->getOperand(0) == commandBuffer;
}

/// The accesses of the commands of `commandBuffer` in `op` (itself or
/// nested); std::nullopt when there are none.
static std::optional<SmallVector<BufferAccess>>
getAccessesOf(Operation *op, Value commandBuffer, BufferResolver &resolver) {
  std::optional<SmallVector<BufferAccess>> accesses;
  op->walk([&](Operation *nested) {
    if (!isCommandOf(nested, commandBuffer))
      return;
    if (!accesses)
      accesses.emplace();
    llvm::append_range(*accesses, resolver.getAccesses(nested));
  });
  return accesses;
}

static bool isBarrierOf(Operation *op, Value commandBuffer) {
  auto barrier = dyn_cast<hal::CommandBufferExecutionBarrierOp>(op);
  return barrier && barrier.getCommandBuffer() == commandBuffer;
}

unsigned placeBarriers(hal::CommandBufferBeginOp begin, BarrierPolicy policy,
                       RewriterBase &rewriter, BufferResolver *sharedResolver) {
  if (policy == BarrierPolicy::None)
    return 0;
  BufferResolver ownResolver;
  BufferResolver &resolver = sharedResolver ? *sharedResolver : ownResolver;
  Value commandBuffer = begin.getCommandBuffer();
  MLIRContext *context = rewriter.getContext();
  unsigned placed = 0;
  auto createBarrier = [&]() {
    hal::CommandBufferExecutionBarrierOp::create(
        rewriter, begin.getLoc(), commandBuffer,
        hal::ExecutionStageAttr::get(context,
                                     hal::ExecutionStage::CommandRetire |
                                         hal::ExecutionStage::Dispatch),
        hal::ExecutionStageAttr::get(context,
                                     hal::ExecutionStage::CommandIssue |
                                         hal::ExecutionStage::Dispatch),
        hal::ExecutionBarrierFlagAttr::get(context,
                                           hal::ExecutionBarrierFlag::None));
    ++placed;
  };
  OpBuilder::InsertionGuard guard(rewriter);

  // Accesses of the commands since the last barrier.
  AccessBatch pending;
  // Full: the last command, while no barrier follows it yet.
  Operation *unfenced = nullptr;
  for (Operation *op = begin->getNextNode(); op; op = op->getNextNode()) {
    auto end = dyn_cast<hal::CommandBufferEndOp>(op);
    if (end && end.getCommandBuffer() == commandBuffer)
      break;
    if (isBarrierOf(op, commandBuffer)) {
      pending.clear();
      unfenced = nullptr;
      continue;
    }
    std::optional<SmallVector<BufferAccess>> accesses =
        getAccessesOf(op, commandBuffer, resolver);
    if (!accesses)
      continue;
    if (policy == BarrierPolicy::Full) {
      if (unfenced) {
        rewriter.setInsertionPointAfter(unfenced);
        createBarrier();
      }
      unfenced = op;
      continue;
    }
    const BufferAccess *conflict = nullptr;
    for (const BufferAccess &access : *accesses)
      if ((conflict = pending.findConflict(access))) {
        LLVM_DEBUG(llvm::dbgs()
                   << "barrier before " << op->getName() << " at "
                   << op->getLoc() << ": it "
                   << (access.writes ? "writes" : "reads") << " bytes that "
                   << conflict->command->getName() << " at "
                   << conflict->command->getLoc() << " "
                   << (conflict->writes ? "writes" : "reads")
                   << " in the same batch\n");
        break;
      }
    if (conflict) {
      rewriter.setInsertionPoint(op);
      createBarrier();
      pending.clear();
    }
    for (const BufferAccess &access : *accesses)
      pending.add(access);
  }
  if (unfenced) {
    rewriter.setInsertionPointAfter(unfenced);
    createBarrier();
  }
  return placed;
}

unsigned placeBarriers(Operation *scope, BarrierPolicy policy,
                       RewriterBase &rewriter) {
  SmallVector<hal::CommandBufferBeginOp> begins;
  scope->walk(
      [&](hal::CommandBufferBeginOp begin) { begins.push_back(begin); });
  unsigned placed = 0;
  BufferResolver resolver;
  for (hal::CommandBufferBeginOp begin : begins)
    placed += placeBarriers(begin, policy, rewriter, &resolver);
  return placed;
}

namespace hal {
namespace {

struct PlaceBarriersPass
    : public impl::PlaceBarriersPassBase<PlaceBarriersPass> {
  using Base::Base;

  void runOnOperation() override {
    // `none` parses (so that every pipeline built from C++ options prints
    // as text that parses again) but is refused: the pass would leave every
    // command buffer racing, silently.
    if (policy == BarrierPolicy::None) {
      getOperation()->emitError()
          << "hal-place-barriers needs a policy that places barriers (full "
             "or hazard); to place none, leave the pass out";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    numBarriers += placeBarriers(getOperation(), policy, rewriter);
  }
};

} // namespace
} // namespace hal
} // namespace streamhal
