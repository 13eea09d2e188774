//===- VulkanDevice.h - hal-exec's Vulkan device ----------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A Device that runs the recorded commands of every submission on a real
// Vulkan device (docs/device.md): VulkanSetup.cpp opens the instance, the
// device and the built-in model kernel's pipeline; VulkanSubmit.cpp mirrors
// the submission's buffers, records one VkCommandBuffer, submits it, waits
// and writes the results back into the executor's buffers.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_EXEC_VULKAN_VULKANDEVICE_H
#define STREAMHAL_LIB_EXEC_VULKAN_VULKANDEVICE_H

#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Exec/Device.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include <atomic>
#include <mutex>
#include <utility>
#include <vector>
#include <vulkan/vulkan.h>

namespace streamhal::exec {

struct BufferRef;

/// Read slots and write slots of the model kernel (ModelKernel.comp): at
/// most this many Read and this many Write bindings per dispatch.
constexpr uint32_t kModelSlots = 12;
/// Descriptor binding of the kernel's parameter block, after the slots.
constexpr uint32_t kModelParameterBinding = 2 * kModelSlots;
/// 32-bit words of the parameter block (ModelKernel.comp has the layout).
constexpr uint32_t kModelParameterWords = 16 + 4 * 2 * kModelSlots;
/// Invocations of the kernel's one workgroup.
constexpr uint64_t kModelInvocations = 256;
/// The most loop iterations the kernel lets one invocation run: below
/// llvmpipe's 65,535, which stops an invocation silently.
constexpr uint64_t kModelMaxIterations = 60000;
/// Bytes of the push-constant block (32 values, the HAL's limit).
constexpr uint32_t kPushConstantBytes = 128;

/// Bytes of the staging buffer per model dispatch: the parameter block, then
/// a read scratch and a write scratch range for unused slots (each 256-byte
/// aligned, the largest minStorageBufferOffsetAlignment Vulkan allows).
constexpr uint64_t kDispatchStagingBytes = 1024;
constexpr uint64_t kReadScratchOffset = 512;
constexpr uint64_t kWriteScratchOffset = 768;
constexpr uint64_t kScratchBytes = 16;

/// A buffer range on the device: a mirror and the offset in it.
struct DeviceRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
};
using LocateFn = llvm::function_ref<DeviceRange(const BufferRef &)>;

/// Where a model dispatch's parameter block and scratch ranges live: its
/// region of the mapped staging buffer.
struct ModelDispatchRegion {
  VkBuffer staging = VK_NULL_HANDLE;
  uint8_t *mapped = nullptr;
  uint64_t offset = 0;
};

/// The pipeline of a `vulkan-spirv-fb` kernel and its layout (from the
/// entry point's interface: set 0, push constants).
struct KernelPipeline {
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule shader = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  uint32_t pushConstantCount = 0;
};

class VulkanDevice final : public Device {
public:
  /// Opens the instance and, unless `listOnly`, the device `selector`
  /// names, with its pipeline. Returns null and writes why to `errors`.
  static std::unique_ptr<VulkanDevice> open(const VulkanDeviceOptions &options,
                                            bool listOnly,
                                            llvm::raw_ostream &errors);
  ~VulkanDevice() override;

  std::string getName() const override;
  mlir::LogicalResult run(ExecutorImpl &executor, mlir::Operation *submitOp,
                          llvm::ArrayRef<Command> commands) override;
  unsigned reportLateProblems(llvm::raw_ostream &os) override;
  DeviceTimes takeTimes() override { return std::exchange(times, {}); }

  /// Prints the physical devices, one per line.
  void listPhysicalDevices(llvm::raw_ostream &os);

  /// A validation message and, when it came with a label of ours, the
  /// index of the command of the current submission it is about.
  struct Message {
    std::string text;
    int command = -1;
  };
  /// Records a message; the layer may call from its own threads.
  void addMessage(Message message);
  /// The messages since the last call, in order.
  std::vector<Message> takeMessages();
  /// The command being recorded (the layer reports a hazard while the
  /// command is recorded), or -1.
  std::atomic<int> recordingCommand{-1};

private:
  VulkanDevice() = default;
  bool createInstance(llvm::raw_ostream &errors);
  bool selectPhysicalDevice(llvm::StringRef selector,
                            llvm::raw_ostream &errors);
  bool createDevice(llvm::raw_ostream &errors);
  bool createModelPipeline(llvm::raw_ostream &errors);
  /// What `physical` lacks of what the device needs, or empty.
  std::string getMissingFeatures(VkPhysicalDevice physical);

  /// VulkanKernels.cpp: the pipeline of the SPIR-V kernel `command`
  /// dispatches, or null when its variant is not `vulkan-spirv-fb` (the
  /// model kernel runs it). Pipelines are made once per kernel.
  mlir::FailureOr<const KernelPipeline *>
  getKernelPipeline(mlir::ModuleOp module, const Command &command);
  /// Refuses a dispatch the model kernel cannot run (too many bindings,
  /// too many loop iterations for llvmpipe).
  mlir::LogicalResult checkModelDispatch(const Command &command);
  mlir::LogicalResult recordModelDispatch(VkCommandBuffer cmd,
                                          const Command &command,
                                          ModelDispatchRegion region,
                                          LocateFn locate);
  mlir::LogicalResult recordKernelDispatch(VkCommandBuffer cmd,
                                           const Command &command,
                                           const KernelPipeline &kernel,
                                           LocateFn locate);

  /// Refuses a module compiled for looser limits than the device's.
  mlir::LogicalResult checkLimits(ExecutorImpl &executor,
                                  mlir::Operation *submitOp);
  /// A memory type with `required` properties (preferring `preferred`)
  /// among `allowed`, or -1.
  int findMemoryType(uint32_t allowed, VkMemoryPropertyFlags required,
                     VkMemoryPropertyFlags preferred) const;
  /// Emits every message as an error at the op of the command it names
  /// (else at `submitOp`) and clears them; fails when there was one.
  mlir::LogicalResult reportMessages(llvm::ArrayRef<Command> commands,
                                     mlir::Operation *submitOp);

  /// Summed by run() since the last takeTimes().
  DeviceTimes times;
  std::mutex messagesMutex;
  std::vector<Message> messages;
  bool validate = false;
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  /// maxMemoryAllocationSize (Vulkan 1.1).
  uint64_t maxAllocationSize = 0;
  uint32_t queueFamily = 0;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  VkShaderModule modelShader = VK_NULL_HANDLE;
  VkPipeline modelPipeline = VK_NULL_HANDLE;
  PFN_vkCmdPushDescriptorSetKHR pushDescriptorSet = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT beginLabel = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT endLabel = nullptr;
  PFN_vkSetDebugUtilsObjectNameEXT setObjectName = nullptr;
  /// SPIR-V kernels by their words, entry point and interface.
  llvm::StringMap<KernelPipeline> kernelPipelines;
};

} // namespace streamhal::exec

#endif // STREAMHAL_LIB_EXEC_VULKAN_VULKANDEVICE_H
