//===- DeviceRules.h - the device rules the verifier checks -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_DIALECT_HAL_TRANSFORMS_DEVICERULES_H
#define STREAMHAL_LIB_DIALECT_HAL_TRANSFORMS_DEVICERULES_H

#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Dialect/HAL/IR/DeviceLimits.h"
#include "llvm/ADT/StringSet.h"

namespace streamhal::hal {

/// The device rules by the names the pass options and the messages use.
inline constexpr llvm::StringLiteral kDeviceRuleNames[] = {
    "binding-offset-alignment", "binding-range",   "unbound-binding",
    "fill-alignment",           "allocation-size", "push-constants",
    "binding-aliasing"};

/// Checks every op of `module` against the device rules of
/// docs/concurrency.md ("Device rules") where the numbers are provable
/// (constants, pack slice offsets), with `limits`, except the rules named
/// in `skipped`. Each break is an error at the op naming the rule, the values
/// and the limit.
mlir::LogicalResult verifyDeviceRules(mlir::ModuleOp module,
                                      const DeviceLimits &limits,
                                      const llvm::StringSet<> &skipped);

} // namespace streamhal::hal

#endif // STREAMHAL_LIB_DIALECT_HAL_TRANSFORMS_DEVICERULES_H
