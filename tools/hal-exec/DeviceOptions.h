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
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
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

/// --report-device-time for one run of a function: made just before the
/// run (it starts the clock and clears the device's times), stopped just
/// after, printed where the function's lines go:
/// `@F: device time submissions=N run-ms=... prepare-ms=... record-ms=...
/// submit-wait-ms=... write-back-ms=...`. run-ms is the whole run (the host
/// side interpreted by the executor, and the device); the others are the
/// device's phases (streamhal::exec::DeviceTimes).
class DeviceRunTimer {
public:
  /// `device` may be null (the reference model): then only run-ms counts.
  explicit DeviceRunTimer(streamhal::exec::Device *device);
  void stop();
  /// Prints the line when --report-device-time is on.
  void print(llvm::raw_ostream &os, llvm::StringRef function) const;

private:
  streamhal::exec::Device *device;
  std::chrono::steady_clock::time_point start;
  double runMs = 0;
  streamhal::exec::DeviceTimes deviceTimes;
};

#endif // STREAMHAL_TOOLS_HAL_EXEC_DEVICEOPTIONS_H
