//===- DeviceLimits.h - limits a lowered program must obey ------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device limits of docs/concurrency.md ("Device rules"), as the
// command-buffer verifier reads them from a module. The reference executor
// reads them on its own (lib/Exec/DeviceRules.cpp) so that the two checkers
// share no code.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_DEVICELIMITS_H
#define STREAMHAL_DIALECT_HAL_IR_DEVICELIMITS_H

#include "mlir/IR/Operation.h"
#include <cstdint>

namespace streamhal::hal {

/// The limits of the device a module is compiled for. The defaults are those
/// of a module without `#hal.buffer_constraints`; the push constant limit is
/// the 128 bytes Vulkan guarantees for `maxPushConstantsSize`, which the
/// constraints do not carry.
struct DeviceLimits {
  int64_t maxAllocationSize = int64_t(1) << 30;
  int64_t minBufferOffsetAlignment = 16;
  int64_t maxBufferRange = int64_t(1) << 30;
  int64_t minBufferRangeAlignment = 16;
  /// 32-bit push constant values.
  int64_t maxPushConstants = 32;
};

/// Returns the limits of the module around `op` (or `op` itself when it is a
/// module): the strictest of the `#hal.buffer_constraints` among its
/// `hal.device.targets` (largest alignments, smallest sizes), since the
/// program must run on each of them, or the defaults when no target gives
/// constraints.
DeviceLimits getDeviceLimits(mlir::Operation *op);

} // namespace streamhal::hal

#endif // STREAMHAL_DIALECT_HAL_IR_DEVICELIMITS_H
