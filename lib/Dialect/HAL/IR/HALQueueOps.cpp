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
            .Case<DeviceQueueExecuteOp, DeviceQueueAllocaOp,
                  DeviceQueueDeallocaOp>(
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
  for (auto [index, commandBuffer] : llvm::enumerate(getCommandBuffers()))
    if (!seen.insert(commandBuffer).second)
      return emitOpError() << "submits command buffer " << index
                           << " twice; a one-shot command buffer runs once";
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
