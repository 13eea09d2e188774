//===- HALQueueOps.cpp - hal fences and queue submission ------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers of the timeline ops (docs/async.md): a fence is a one-shot
// signal, so it has exactly one signaller at most, a join is signalled by its
// parts only, and a submission never waits on its own signal.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace streamhal::hal;

//===----------------------------------------------------------------------===//
// hal.fence.create
//===----------------------------------------------------------------------===//

LogicalResult FenceCreateOp::verify() {
  // One-shot: a second signaller would signal a fence that is already
  // signalled (or race with the first).
  unsigned signallers = 0;
  for (OpOperand &use : getResult().getUses()) {
    OpOperand *signal =
        llvm::TypeSwitch<Operation *, OpOperand *>(use.getOwner())
            .Case<DeviceQueueExecuteOp, DeviceQueueExecuteIndirectOp,
                  DeviceQueueAllocaOp, DeviceQueueDeallocaOp>(
                [](auto queueOp) { return &queueOp.getSignalFenceMutable(); })
            .Default([](Operation *) { return nullptr; });
    if (&use == signal)
      ++signallers;
  }
  if (signallers > 1)
    return emitOpError() << "is signalled by " << signallers
                         << " submissions; a fence is signalled once";
  return success();
}

//===----------------------------------------------------------------------===//
// hal.device.queue.execute
//===----------------------------------------------------------------------===//

/// The rules every queue operation shares: it cannot wait on its own
/// signal, and a join is signalled by its parts only.
static LogicalResult verifyQueueFences(Operation *op, ValueRange waits,
                                       Value signal) {
  if (llvm::is_contained(waits, signal))
    return op->emitOpError() << "waits on the fence it signals; it would "
                                "never start";
  if (signal.getDefiningOp<FenceJoinOp>())
    return op->emitOpError() << "signals a joined fence; a join is signalled "
                                "by the fences it joins";
  return success();
}

LogicalResult DeviceQueueExecuteOp::verify() {
  if (failed(verifyQueueFences(*this, getWaitFences(), getSignalFence())))
    return failure();
  llvm::SmallPtrSet<Value, 4> seen;
  for (auto [index, commandBuffer] : llvm::enumerate(getCommandBuffers())) {
    if (!seen.insert(commandBuffer).second)
      return emitOpError() << "submits command buffer " << index
                           << " twice; a one-shot command buffer runs once";
    if (commandBuffer.getDefiningOp<DeviceMemoizeOp>())
      return emitOpError() << "submits command buffer " << index
                           << ", a memoized one, without its bindings; "
                              "submit it with "
                              "hal.device.queue.execute.indirect";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// hal.device.queue.alloca / hal.device.queue.dealloca
//===----------------------------------------------------------------------===//

LogicalResult DeviceQueueAllocaOp::verify() {
  return verifyQueueFences(*this, getWaitFences(), getSignalFence());
}

LogicalResult DeviceQueueDeallocaOp::verify() {
  if (failed(verifyQueueFences(*this, getWaitFences(), getSignalFence())))
    return failure();
  // Only what the timeline allocated is released on it.
  if (!getBuffer().getDefiningOp<DeviceQueueAllocaOp>())
    return emitOpError() << "releases a buffer that hal.device.queue.alloca "
                            "did not allocate";
  return success();
}

//===----------------------------------------------------------------------===//
// hal.device.memoize / hal.device.queue.execute.indirect
//===----------------------------------------------------------------------===//

/// Ops a memoized recording may hold: what a device records once and
/// replays without the host (commands, the variant choice, layouts and
/// constants). Host arithmetic on a uniform would have to run per replay.
static bool isReplayableOp(Operation *op) {
  if (isa<arith::ConstantOp, DeviceSwitchOp, ReturnOp,
          ExecutableLayoutLookupOp>(op))
    return true;
  return op->getDialect() && op->getDialect()->getNamespace() == "hal" &&
         op->getName().stripDialect().starts_with("command_buffer.");
}

LogicalResult DeviceMemoizeOp::verify() {
  for (int64_t slotClass : getSlotClasses())
    if (slotClass < 0)
      return emitOpError() << "has a negative slot alias class";
  return success();
}

LogicalResult DeviceMemoizeOp::verifyRegions() {
  Block &body = getBody().front();
  size_t slots = getSlotClasses().size();
  if (body.getNumArguments() < 1 + slots ||
      !isa<DeviceType>(body.getArgument(0).getType()))
    return emitOpError() << "body must take the device and then " << slots
                         << " !hal.buffer slot arguments";
  for (BlockArgument slot : getSlotArguments())
    if (!isa<BufferType>(slot.getType()))
      return emitOpError() << "slot argument " << slot.getArgNumber() - 1
                           << " is not a !hal.buffer";
  for (BlockArgument uniform : getUniformArguments())
    if (!uniform.getType().isIndex() && !uniform.getType().isInteger(32))
      return emitOpError() << "uniform argument "
                           << uniform.getArgNumber() - 1 - slots
                           << " is neither index nor i32";
  auto terminator = dyn_cast<ReturnOp>(body.getTerminator());
  if (!terminator || terminator.getValues().size() != 1 ||
      !isa<CommandBufferType>(terminator.getValues()[0].getType()))
    return emitOpError() << "body must return one command buffer";
  auto create =
      terminator.getValues()[0].getDefiningOp<CommandBufferCreateOp>();
  if (!create || create->getParentOp() != getOperation())
    return emitOpError() << "body must return a command buffer it creates";
  if (bitEnumContainsAny(create.getModes(), CommandBufferMode::OneShot))
    return create.emitOpError()
           << "creates a one-shot command buffer in a hal.device.memoize; "
              "a memoized command buffer is replayed";
  WalkResult walk = getBody().walk([&](Operation *op) {
    if (isReplayableOp(op))
      return WalkResult::advance();
    op->emitOpError() << "cannot be memoized: a memoized recording holds "
                         "only commands, device switches, layouts and "
                         "constants";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

Value DeviceMemoizeOp::getSoleSubmittedValue(BlockArgument argument) {
  if (argument.getOwner() != &getBody().front() || argument.getArgNumber() == 0)
    return nullptr;
  if (!getResult().hasOneUse())
    return nullptr;
  auto execute =
      dyn_cast<DeviceQueueExecuteIndirectOp>(*getResult().getUsers().begin());
  if (!execute || execute.getCommandBuffer() != getResult())
    return nullptr;
  unsigned index = argument.getArgNumber() - 1;
  if (index < execute.getBindings().size())
    return execute.getBindings()[index];
  index -= execute.getBindings().size();
  return index < execute.getUniforms().size() ? execute.getUniforms()[index]
                                              : nullptr;
}

LogicalResult DeviceQueueExecuteIndirectOp::verify() {
  if (failed(verifyQueueFences(*this, getWaitFences(), getSignalFence())))
    return failure();
  auto memoize = getCommandBuffer().getDefiningOp<DeviceMemoizeOp>();
  if (!memoize)
    return success();
  if (getBindings().size() != memoize.getSlotClasses().size())
    return emitOpError() << "binds " << getBindings().size()
                         << " buffers to a command buffer with "
                         << memoize.getSlotClasses().size() << " slots";
  Block::BlockArgListType uniforms = memoize.getUniformArguments();
  if (getUniforms().size() != uniforms.size())
    return emitOpError() << "supplies " << getUniforms().size()
                         << " uniforms to a command buffer that reads "
                         << uniforms.size();
  for (auto [index, pair] : llvm::enumerate(llvm::zip(getUniforms(), uniforms)))
    if (std::get<0>(pair).getType() != std::get<1>(pair).getType())
      return emitOpError() << "uniform " << index << " has type "
                           << std::get<0>(pair).getType() << "; the recording "
                           << "reads " << std::get<1>(pair).getType();
  return success();
}

//===----------------------------------------------------------------------===//
// hal.fence.join / hal.fence.await
//===----------------------------------------------------------------------===//

LogicalResult FenceJoinOp::verify() {
  if (getFences().empty())
    return emitOpError() << "joins no fence";
  return success();
}

LogicalResult FenceAwaitOp::verify() {
  if (getFences().empty())
    return emitOpError() << "awaits no fence";
  return success();
}
