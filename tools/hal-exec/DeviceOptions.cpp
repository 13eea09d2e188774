//===- DeviceOptions.cpp - hal-exec's device options ----------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --device, --vulkan-device, --list-devices and --validate (docs/device.md).
//
//===----------------------------------------------------------------------===//

#include "DeviceOptions.h"
#include "llvm/Support/CommandLine.h"

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

std::optional<int> setUpDevice(std::shared_ptr<Device> &device) {
  VulkanDeviceOptions vulkanOptions;
  vulkanOptions.selector = vulkanDevice;
  vulkanOptions.validate = validate;
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
  }
  return std::nullopt;
}
