//===- DeviceLimits.cpp - limits a lowered program must obey --------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/IR/DeviceLimits.h"
#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Dialect/HAL/IR/HALDialect.h"

using namespace mlir;

namespace streamhal::hal {

DeviceLimits getDeviceLimits(Operation *op) {
  DeviceLimits limits;
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto targets = module ? module->getAttrOfType<ArrayAttr>("hal.device.targets")
                        : ArrayAttr();
  if (!targets)
    return limits;
  bool found = false;
  for (Attribute attr : targets) {
    auto target = dyn_cast<DeviceTargetAttr>(attr);
    BufferConstraintsAttr constraints =
        target ? target.getBufferConstraints() : BufferConstraintsAttr();
    if (!constraints)
      continue;
    // The first target's constraints replace the defaults; later ones can
    // only tighten them.
    auto tighten = [&](int64_t &limit, int64_t value, bool larger) {
      limit = !found   ? value
              : larger ? std::max(limit, value)
                       : std::min(limit, value);
    };
    tighten(limits.maxAllocationSize, constraints.getMaxAllocationSize(),
            /*larger=*/false);
    tighten(limits.minBufferOffsetAlignment,
            constraints.getMinBufferOffsetAlignment(), /*larger=*/true);
    tighten(limits.maxBufferRange, constraints.getMaxBufferRange(),
            /*larger=*/false);
    tighten(limits.minBufferRangeAlignment,
            constraints.getMinBufferRangeAlignment(), /*larger=*/true);
    found = true;
  }
  return limits;
}

} // namespace streamhal::hal
