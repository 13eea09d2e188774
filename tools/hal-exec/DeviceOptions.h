//===- DeviceOptions.h - hal-exec's device options --------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_TOOLS_HAL_EXEC_DEVICEOPTIONS_H
#define STREAMHAL_TOOLS_HAL_EXEC_DEVICEOPTIONS_H

#include "streamhal/Exec/Device.h"
#include <memory>
#include <optional>

namespace llvm::cl {
class OptionCategory;
} // namespace llvm::cl

/// The category of hal-exec's options (--help lists these), made on first
/// use: the options of both files are static objects.
llvm::cl::OptionCategory &getExecCategory();

/// Acts on the device options: lists the devices (--list-devices) or opens
/// the --device into `device` (null for the reference model). Returns the
/// exit code when hal-exec is done (listed, or an error it printed), or
/// std::nullopt to go on.
std::optional<int>
setUpDevice(std::shared_ptr<streamhal::exec::Device> &device);

#endif // STREAMHAL_TOOLS_HAL_EXEC_DEVICEOPTIONS_H
