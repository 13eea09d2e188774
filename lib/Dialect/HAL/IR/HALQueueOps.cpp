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
    auto execute = dyn_cast<DeviceQueueExecuteOp>(use.getOwner());
    if (execute && &use == &execute.getSignalFenceMutable())
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

LogicalResult DeviceQueueExecuteOp::verify() {
  Value signal = getSignalFence();
  if (llvm::is_contained(getWaitFences(), signal))
    return emitOpError() << "waits on the fence it signals; it would never "
                            "start";
  if (signal.getDefiningOp<FenceJoinOp>())
    return emitOpError() << "signals a joined fence; a join is signalled by "
                            "the fences it joins";
  llvm::SmallPtrSet<Value, 4> seen;
  for (auto [index, commandBuffer] : llvm::enumerate(getCommandBuffers()))
    if (!seen.insert(commandBuffer).second)
      return emitOpError() << "submits command buffer " << index
                           << " twice; a one-shot command buffer runs once";
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
