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
// and writes the results back into the executor's buffers (DeviceWork);
// VulkanQueue.cpp runs a group of queue submissions the same way, one
// vkQueueSubmit each, ordered by timeline semaphores as their fences say.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_LIB_EXEC_VULKAN_VULKANDEVICE_H
#define STREAMHAL_LIB_EXEC_VULKAN_VULKANDEVICE_H

#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Exec/Device.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <utility>
#include <vector>
#include <vulkan/vulkan.h>

namespace streamhal::exec {

struct BufferRef;
struct Command;
class RootBuffer;

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
  /// The kernel's LocalSize, for messages.
  std::array<uint32_t, 3> localSize = {1, 1, 1};
  /// (set, binding) of the descriptors the kernel uses: each must be bound.
  std::vector<std::pair<uint32_t, uint32_t>> usedBindings;
};

/// What createComputePipeline made: everything, or where it stopped.
enum class ComputePipelineResult {
  Created,
  /// The set layout, the pipeline layout or the shader module failed.
  LayoutFailed,
  /// The pipeline failed (the layouts and the shader module were made).
  PipelineFailed,
};

/// VulkanSetup.cpp: makes, on `device` and in this order, `setLayout` (one
/// push-descriptor set of `bindings`), `layout` (that set and, unless
/// `pushConstantBytes` is 0, one compute range of that many push-constant
/// bytes), `shader` (of the SPIR-V `code`) and `pipeline` (compute, entry
/// point `entryName`); stops at the first that fails. The handles made stay
/// the caller's to destroy.
ComputePipelineResult createComputePipeline(
    VkDevice device, llvm::ArrayRef<VkDescriptorSetLayoutBinding> bindings,
    uint32_t pushConstantBytes, llvm::ArrayRef<uint32_t> code,
    const char *entryName, VkDescriptorSetLayout &setLayout,
    VkPipelineLayout &layout, VkShaderModule &shader, VkPipeline &pipeline);

/// VulkanSubmit.cpp: a pipeline barrier, of all memory or, given `buffer`,
/// of its `length` bytes at `offset` alone.
void recordBarrier(VkCommandBuffer cmd, VkPipelineStageFlags sourceStages,
                   VkAccessFlags sourceAccess,
                   VkPipelineStageFlags targetStages,
                   VkAccessFlags targetAccess, VkBuffer buffer = VK_NULL_HANDLE,
                   VkDeviceSize offset = 0, VkDeviceSize length = 0);

/// Adds the wall time since the previous lap (or since it was made) to one
/// phase of DeviceTimes.
class PhaseClock {
public:
  void lap(double &phaseMs) {
    std::chrono::steady_clock::time_point now =
        std::chrono::steady_clock::now();
    phaseMs += std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
  }

private:
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

class VulkanDevice;
class ExecutorImpl;

/// A `Write` (not `Read`) binding of a SPIR-V kernel's dispatch whose bytes
/// are poisoned before it and copied to the staging buffer after
/// (VulkanWriteCheck.cpp).
struct WriteCheck {
  unsigned command = 0;
  unsigned binding = 0;
  uint64_t stagingOffset = 0;
};

/// A root buffer's VkBuffer for one run: root bytes [base, end).
struct Mirror {
  std::shared_ptr<RootBuffer> root;
  int64_t base = 0;
  int64_t end = 0;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  /// Where its bytes lie in the staging buffer.
  uint64_t stagingOffset = 0;
};

/// The device side of one run (one submission, or a group the host awaits
/// together): a mirror of every root its commands touch, one staging
/// buffer, the command buffers; all freed (after the queue is idle) when
/// it goes. `commands` are the run's commands in program order; a label
/// and a message name a command by its index there.
class DeviceWork {
public:
  DeviceWork(VulkanDevice &vulkan, ExecutorImpl &executor,
             mlir::Operation *errorOp, std::vector<const Command *> commands)
      : vulkan(vulkan), executor(&executor), errorOp(errorOp),
        commands(std::move(commands)) {}
  ~DeviceWork();
  /// plan(), then allocateDeviceMemory() and stageHostBytes() unless the
  /// commands touch no byte; laps `clock` into the prepare and stage times.
  mlir::LogicalResult prepare(PhaseClock &clock);
  /// Makes the kernels' pipelines and plans the mirrors over the union of
  /// the commands' accesses and the staging buffer's layout; allocates
  /// nothing.
  mlir::LogicalResult plan();
  /// Creates the planned mirrors and the mapped staging buffer.
  mlir::LogicalResult allocateDeviceMemory();
  /// Copies the host's bytes of every mirror into the staging buffer.
  void stageHostBytes();
  /// Whether the commands touch no byte (nothing to run).
  bool isEmpty() const { return stagingBytes == 0; }
  /// A begun command buffer, freed with the work: one-shot unless
  /// `oneTime` is false (a memoized recording, submitted again).
  mlir::FailureOr<VkCommandBuffer> beginCommandBuffer(bool oneTime = true);
  /// A command buffer of the whole run: upload, every command, readback.
  mlir::FailureOr<VkCommandBuffer> recordRun(bool oneTime);
  /// Submits `cmd` alone and waits for it; reports the layer's messages
  /// (those at queue submission at `submissionOp`'s one op if given, else
  /// at the command they name or `fallbackOp`) and writes the results back.
  mlir::LogicalResult
  submitAndWriteBack(VkCommandBuffer cmd, PhaseClock &clock,
                     llvm::ArrayRef<mlir::Operation *> submissionOp,
                     mlir::Operation *fallbackOp);
  /// VulkanReplay.cpp: everything a planned work records that its commands
  /// decide, in words: two works with equal keys record the same command
  /// buffer (what the table key promises, checked in an asserts build).
  std::vector<uint64_t> getRecordingKey() const;
  /// VulkanReplay.cpp: finds, for every mirror, a slot of `slots` bound to
  /// its root; fails when one has none (it cannot be rebound then).
  bool mapMirrorsToSlots(llvm::ArrayRef<BufferRef> slots);
  /// VulkanReplay.cpp: lets go of the executor's buffers and commands,
  /// keeping the device objects, the plan and the recording.
  void detachFromRun();
  /// VulkanReplay.cpp: makes a detached work, kept for a table key equal to
  /// that of `slots`, the work of a new run of `commands`: each mirror's
  /// root is its slot's root now, at the same offsets.
  void rebind(ExecutorImpl &executor, mlir::Operation *errorOp,
              std::vector<const Command *> commands,
              llvm::ArrayRef<BufferRef> slots);
  /// The command buffers it recorded.
  llvm::ArrayRef<VkCommandBuffer> getCommandBuffers() const {
    return commandBuffers;
  }
  /// Set on a memoized recording the device keeps: the key of the tables it
  /// was recorded for (VulkanReplay.cpp), and (in an asserts build) its
  /// getRecordingKey().
  std::vector<uint64_t> tableKey;
  std::vector<uint64_t> recordingKey;
  mlir::LogicalResult endCommandBuffer(VkCommandBuffer cmd);
  /// Staging -> mirrors, then a barrier to the commands.
  void recordUpload(VkCommandBuffer cmd);
  /// `count` commands from index `first` of `commands`.
  mlir::LogicalResult recordCommands(VkCommandBuffer cmd, unsigned first,
                                     unsigned count);
  /// A barrier from the commands, mirrors -> staging, a barrier to the host.
  void recordReadback(VkCommandBuffer cmd);
  /// Writes the device's bytes into the executor's buffers in program
  /// order, with the reference model's uninitialized-read and read-only
  /// checks, after the check of the kernels' writes.
  mlir::LogicalResult writeBack();
  /// Set once anything was submitted: the destructor waits for the queue.
  bool submitted = false;

private:
  struct Allocation {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
  };
  mlir::FailureOr<Allocation> allocate(uint64_t size,
                                       VkMemoryPropertyFlags required,
                                       VkMemoryPropertyFlags preferred);
  void planWriteChecks();
  void recordPoison(VkCommandBuffer cmd, unsigned command);
  void recordWriteSnapshots(VkCommandBuffer cmd, unsigned command);
  /// Reports the bytes each check found still poisoned.
  mlir::LogicalResult checkKernelWrites();
  void label(VkCommandBuffer cmd, const std::string &name);
  void unlabel(VkCommandBuffer cmd);
  DeviceRange locate(const BufferRef &ref) const;

  VulkanDevice &vulkan;
  ExecutorImpl *executor;
  mlir::Operation *errorOp;
  std::vector<const Command *> commands;
  /// The SPIR-V kernel of each dispatch, null for the model kernel.
  std::vector<const KernelPipeline *> kernels;
  /// Each model dispatch's region of the staging buffer.
  std::vector<uint64_t> dispatchRegions;
  /// The write checks, grouped by command in program order.
  std::vector<WriteCheck> writeChecks;
  std::vector<Mirror> mirrors;
  llvm::DenseMap<RootBuffer *, unsigned> mirrorOf;
  /// A memoized recording's: the slot bound to each mirror's root.
  std::vector<unsigned> mirrorSlots;
  uint64_t stagingBytes = 0;
  /// The model dispatches' parameter blocks at the staging buffer's start.
  uint64_t parameterBytes = 0;
  Allocation staging;
  uint8_t *mapped = nullptr;
  std::vector<Allocation> allocations;
  std::vector<VkCommandBuffer> commandBuffers;
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
  /// VulkanQueue.cpp: one vkQueueSubmit per submission, each waiting on the
  /// timeline semaphores of those it waits for and signalling its own.
  mlir::LogicalResult
  runSubmissions(ExecutorImpl &executor, mlir::Operation *awaitOp,
                 llvm::ArrayRef<SubmissionToRun> group) override;
  unsigned reportLateProblems(llvm::raw_ostream &os) override;
  /// VulkanReplay.cpp: runs `submission`, the replay of a memoized
  /// recording, alone: replays the VkCommandBuffer kept for its memoize op
  /// when the recording key is the same, else records (and keeps) one.
  mlir::LogicalResult runMemoized(ExecutorImpl &executor,
                                  mlir::Operation *awaitOp,
                                  const SubmissionToRun &submission);
  DeviceTimes takeTimes() override { return std::exchange(times, {}); }

  /// Prints the physical devices, one per line.
  void listPhysicalDevices(llvm::raw_ostream &os);

  /// A validation message and, when it came with a label of ours, the
  /// index of the command of the current submission it is about.
  struct Message {
    std::string text;
    int command = -1;
    /// The submission of a group being submitted when it came, or -1.
    int submission = -1;
  };
  /// Records a message; the layer may call from its own threads.
  void addMessage(Message message);
  /// The messages since the last call, in order.
  std::vector<Message> takeMessages();
  /// The command being recorded (the layer reports a hazard while the
  /// command is recorded), or -1.
  std::atomic<int> recordingCommand{-1};
  /// The submission of a group in vkQueueSubmit (the layer checks it
  /// against the submissions before it then), or -1.
  std::atomic<int> submittingIndex{-1};

private:
  friend class DeviceWork;
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
  /// Emits every message as an error at the op of the submission it came
  /// in (of `submissionOps`), else of the command it names, else at
  /// `fallbackOp`, and clears them; fails when there was one.
  mlir::LogicalResult
  reportMessages(llvm::ArrayRef<const Command *> commands,
                 llvm::ArrayRef<mlir::Operation *> submissionOps,
                 mlir::Operation *fallbackOp);

  /// Summed by run() and runSubmissions() since the last takeTimes().
  DeviceTimes times;
  std::mutex messagesMutex;
  std::vector<Message> messages;
  bool validate = false;
  bool checkWrites = true;
  bool allowPartialWrites = false;
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
  /// The key in `kernelPipelines` of each entry point checked and made.
  llvm::DenseMap<mlir::Operation *, std::string> kernelOfEntryPoint;
  /// The recordings of each memoized recording of the executor (by its
  /// serial), for its last few table keys, least recently run first; each
  /// with its mirrors and staging buffer, detached from its run
  /// (VulkanReplay.cpp).
  llvm::DenseMap<uint64_t, std::vector<std::unique_ptr<DeviceWork>>>
      memoizedWork;
};

} // namespace streamhal::exec

#endif // STREAMHAL_LIB_EXEC_VULKAN_VULKANDEVICE_H
