//===- Device.cpp - The reference device ----------------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The reference model as a Device, and the Vulkan entry points of a build
// without Vulkan (lib/Exec/Vulkan has the real ones).
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/Device.h"
#include "ExecutorImpl.h"

using namespace mlir;
using namespace streamhal::exec;

Device::~Device() = default;

LogicalResult Device::runSubmissions(ExecutorImpl &executor, Operation *,
                                     ArrayRef<SubmissionToRun> group) {
  for (const SubmissionToRun &submission : group)
    for (const std::vector<Command> &commands : submission.commandBuffers)
      if (failed(run(executor, submission.op, commands)))
        return failure();
  return success();
}

namespace {
/// Runs command buffers on the reference model (Submission.cpp).
class ReferenceDevice final : public Device {
public:
  std::string getName() const override { return "reference"; }
  bool isReference() const override { return true; }
  LogicalResult run(ExecutorImpl &executor, Operation *,
                    ArrayRef<Command> commands) override {
    return executor.runOnModel(commands);
  }
};
} // namespace

std::shared_ptr<Device> streamhal::exec::createReferenceDevice() {
  return std::make_shared<ReferenceDevice>();
}

#ifndef STREAMHAL_HAVE_VULKAN
static constexpr const char *kNoVulkan =
    "this build has no Vulkan device: CMake found no Vulkan headers and "
    "loader or no glslangValidator (docs/device.md)";

bool streamhal::exec::hasVulkanDevice() { return false; }

std::shared_ptr<Device>
streamhal::exec::createVulkanDevice(const VulkanDeviceOptions &,
                                    llvm::raw_ostream &errors) {
  errors << kNoVulkan << "\n";
  return nullptr;
}

LogicalResult streamhal::exec::listVulkanDevices(const VulkanDeviceOptions &,
                                                 llvm::raw_ostream &,
                                                 llvm::raw_ostream &errors) {
  errors << kNoVulkan << "\n";
  return failure();
}
#endif
