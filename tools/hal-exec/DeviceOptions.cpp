//===- DeviceOptions.cpp - hal-exec's device options ----------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --device, --vulkan-device, --list-devices, --validate, --check-writes,
// --allow-partial-writes and --report-device-time (docs/device.md).
//
//===----------------------------------------------------------------------===//

#include "DeviceOptions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"

using namespace streamhal::exec;
namespace cl = llvm::cl;

static cl::OptionCategory &execCategory = getExecCategory();

static cl::opt<std::string> deviceKind(
    cl::cat(execCategory), "device", cl::init("reference"),
    cl::desc("Where the HAL level's command buffers run: reference (the "
             "model of docs/executor.md, with its exact race checks) or "
             "vulkan (a real Vulkan device, docs/device.md)"),
    cl::value_desc("reference|vulkan"));
static cl::opt<std::string> vulkanDevice(
    cl::cat(execCategory), "vulkan-device",
    cl::desc("The Vulkan physical device: its index in --list-devices or a "
             "part of its name (default: the first GPU, else the first)"),
    cl::value_desc("N|name"));
static cl::opt<bool>
    listDevices(cl::cat(execCategory), "list-devices",
                cl::desc("List the Vulkan physical devices and exit"));
static cl::opt<bool> validate(
    cl::cat(execCategory), "validate",
    cl::desc("With --device=vulkan: run under VK_LAYER_KHRONOS_validation "
             "with synchronization validation; every message is an error"));
static cl::opt<bool> checkWrites(
    cl::cat(execCategory), "check-writes", cl::init(true),
    cl::desc("With --device=vulkan: find the bytes of a SPIR-V kernel's "
             "Write bindings it leaves unwritten (poisoned before the "
             "dispatch, compared after it; --check-writes=false skips it)"));
static cl::opt<bool> allowPartialWrites(
    cl::cat(execCategory), "allow-partial-writes",
    cl::desc("With --device=vulkan: unwritten bytes of a kernel's Write "
             "bindings are warnings, not errors (for kernels that write "
             "sparsely; the bytes keep the poison pattern 0xCD)"));
static cl::opt<bool> reportDeviceTime(
    cl::cat(execCategory), "report-device-time",
    cl::desc(
        "With --device=vulkan: print per function the wall time of its "
        "run and of the device's phases, summed over its submissions "
        "(prepare, stage, record, submit and wait, write back; ms) and the "
        "command buffers it recorded and replayed"));

std::optional<int> setUpDevice(std::shared_ptr<Device> &device) {
  VulkanDeviceOptions vulkanOptions;
  vulkanOptions.selector = vulkanDevice;
  vulkanOptions.validate = validate;
  vulkanOptions.checkWrites = checkWrites;
  vulkanOptions.allowPartialWrites = allowPartialWrites;
  std::string deviceErrors;
  llvm::raw_string_ostream deviceErrorStream(deviceErrors);
  if (listDevices) {
    if (succeeded(
            listVulkanDevices(vulkanOptions, llvm::outs(), deviceErrorStream)))
      return 0;
    llvm::errs() << "hal-exec: --list-devices: " << deviceErrors;
    return 1;
  }
  if (deviceKind == "vulkan") {
    device = createVulkanDevice(vulkanOptions, deviceErrorStream);
    if (!device) {
      llvm::errs() << "hal-exec: --device=vulkan: " << deviceErrors;
      return 1;
    }
  } else if (deviceKind != "reference") {
    llvm::errs() << "hal-exec: --device: unknown device '" << deviceKind
                 << "' (reference or vulkan)\n";
    return 1;
  } else if (validate || !vulkanDevice.empty()) {
    llvm::errs() << "hal-exec: --validate and --vulkan-device need "
                    "--device=vulkan\n";
    return 1;
  } else if (reportDeviceTime) {
    llvm::errs() << "hal-exec: --report-device-time times the submissions "
                    "of a real device and needs --device=vulkan (the "
                    "reference model's time is not a device's)\n";
    return 1;
  }
  return std::nullopt;
}

DeviceRunTimer::DeviceRunTimer(Device *device)
    : device(device), start(std::chrono::steady_clock::now()) {
  if (device)
    device->takeTimes();
}

void DeviceRunTimer::stop() {
  runMs = std::chrono::duration<double, std::milli>(
              std::chrono::steady_clock::now() - start)
              .count();
  if (device)
    deviceTimes = device->takeTimes();
}

void DeviceRunTimer::print(llvm::raw_ostream &os,
                           llvm::StringRef function) const {
  if (!reportDeviceTime)
    return;
  auto ms = [](double value) { return llvm::format("%.3f", value); };
  os << "@" << function
     << ": device time submissions=" << deviceTimes.submissions
     << " run-ms=" << ms(runMs) << " prepare-ms=" << ms(deviceTimes.prepareMs)
     << " stage-ms=" << ms(deviceTimes.stageMs)
     << " record-ms=" << ms(deviceTimes.recordMs)
     << " submit-wait-ms=" << ms(deviceTimes.submitWaitMs)
     << " write-back-ms=" << ms(deviceTimes.writeBackMs)
     << " command-buffers recorded=" << deviceTimes.commandBuffersRecorded
     << " replayed=" << deviceTimes.commandBuffersReplayed << "\n";
}
