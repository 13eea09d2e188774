//===- VulkanSubmit.cpp - Vulkan device: running a submission -------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One HAL submission is one VkCommandBuffer. The executor's buffers stay the
// host's memory between submissions; each root buffer the commands touch
// gets a VkBuffer mirror (of the memory type its allocation asks for) for
// the submission: its bytes go up through a host-visible staging buffer, the
// commands run as recorded (fill, copy, push descriptors and push constants,
// dispatch, barrier, one debug label per HAL op), and the bytes come back
// down and are written into the executor's buffers in program order, with
// the same uninitialized-read and read-only checks as the reference model.
// DeviceWork holds these pieces; VulkanQueue.cpp uses them for a group of
// queue submissions.
//
//===----------------------------------------------------------------------===//

#include "../ExecutorImpl.h"
#include "VulkanDevice.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"
#include <cstring>

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// Mirrors start at a multiple of this in their root, so that every offset
/// keeps its alignment (at most 256 for any Vulkan device's
/// minStorageBufferOffsetAlignment).
static constexpr int64_t kMirrorGranule = 65536;

int VulkanDevice::findMemoryType(uint32_t allowed,
                                 VkMemoryPropertyFlags required,
                                 VkMemoryPropertyFlags preferred) const {
  int fallback = -1;
  for (uint32_t i = 0; i < memoryProperties.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = memoryProperties.memoryTypes[i].propertyFlags;
    if (!(allowed & (1u << i)) || (flags & required) != required)
      continue;
    if ((flags & preferred) == preferred)
      return i;
    if (fallback < 0)
      fallback = i;
  }
  return fallback;
}

LogicalResult VulkanDevice::checkLimits(ExecutorImpl &executor,
                                        Operation *submitOp) {
  const VkPhysicalDeviceLimits &limits = properties.limits;
  auto refuse = [&](StringRef constraint, int64_t value, StringRef limit,
                    uint64_t deviceValue) {
    return submitOp->emitError()
           << "the module is compiled for " << constraint << " " << value
           << ", but Vulkan device '" << properties.deviceName << "' has "
           << limit << " " << deviceValue
           << ": refusing to run it there (lower it with the device's limits "
              "in #hal.buffer_constraints, or run it as a program for them "
              "with --device-limits, which the executor then checks)";
  };
  uint64_t alignment = limits.minStorageBufferOffsetAlignment;
  if (executor.offsetAlignment <= 0 ||
      static_cast<uint64_t>(executor.offsetAlignment) % alignment != 0)
    return refuse("min_buffer_offset_alignment", executor.offsetAlignment,
                  "minStorageBufferOffsetAlignment", alignment);
  if (static_cast<uint64_t>(executor.maxRange) > limits.maxStorageBufferRange)
    return refuse("max_buffer_range", executor.maxRange,
                  "maxStorageBufferRange", limits.maxStorageBufferRange);
  if (static_cast<uint64_t>(executor.maxAllocation) > maxAllocationSize)
    return refuse("max_allocation_size", executor.maxAllocation,
                  "maxMemoryAllocationSize", maxAllocationSize);
  if (static_cast<uint64_t>(executor.maxPushConstants) * 4 >
      limits.maxPushConstantsSize)
    return refuse("push constants", executor.maxPushConstants,
                  "maxPushConstantsSize (bytes)", limits.maxPushConstantsSize);
  return success();
}

LogicalResult VulkanDevice::reportMessages(ArrayRef<const Command *> commands,
                                           ArrayRef<Operation *> submissionOps,
                                           Operation *fallbackOp) {
  std::vector<Message> pending = takeMessages();
  if (pending.empty())
    return success();
  for (const Message &message : pending) {
    Operation *op = fallbackOp;
    if (message.submission >= 0 &&
        message.submission < static_cast<int>(submissionOps.size()))
      op = submissionOps[message.submission];
    else if (message.command >= 0 &&
             message.command < static_cast<int>(commands.size()))
      op = commands[message.command]->op;
    op->emitError() << "Vulkan validation: " << message.text;
  }
  return failure();
}

DeviceWork::~DeviceWork() {
  VkDevice device = vulkan.device;
  // Nothing is freed while the device may still use it (a failed wait).
  if (submitted)
    vkQueueWaitIdle(vulkan.queue);
  if (!commandBuffers.empty())
    vkFreeCommandBuffers(device, vulkan.commandPool, commandBuffers.size(),
                         commandBuffers.data());
  for (Allocation &allocation : allocations) {
    vkDestroyBuffer(device, allocation.buffer, nullptr);
    vkFreeMemory(device, allocation.memory, nullptr);
  }
}

FailureOr<DeviceWork::Allocation>
DeviceWork::allocate(uint64_t size, VkMemoryPropertyFlags required,
                     VkMemoryPropertyFlags preferred) {
  VkDevice device = vulkan.device;
  Allocation allocation;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = llvm::alignTo(std::max<uint64_t>(size, 16), 16);
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (vkCreateBuffer(device, &info, nullptr, &allocation.buffer))
    return errorOp->emitError()
           << "cannot create a Vulkan buffer of " << size << " bytes";
  allocations.push_back(allocation);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, allocation.buffer, &requirements);
  int type =
      vulkan.findMemoryType(requirements.memoryTypeBits, required, preferred);
  VkMemoryAllocateInfo memoryInfo{};
  memoryInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  memoryInfo.allocationSize = requirements.size;
  memoryInfo.memoryTypeIndex = type;
  if (type < 0 ||
      vkAllocateMemory(device, &memoryInfo, nullptr, &allocation.memory))
    return errorOp->emitError() << "cannot allocate " << requirements.size
                                << " bytes of Vulkan memory";
  allocations.back().memory = allocation.memory;
  vkBindBufferMemory(device, allocation.buffer, allocation.memory, 0);
  return allocation;
}

LogicalResult DeviceWork::plan() {
  // The roots the commands touch and the extent of each.
  kernels.assign(commands.size(), nullptr);
  dispatchRegions.assign(commands.size(), 0);
  unsigned dispatchCount = 0;
  for (auto [index, command] : llvm::enumerate(commands)) {
    if (command->kind == Command::Kind::Dispatch) {
      vulkan.recordingCommand = index;
      FailureOr<const KernelPipeline *> kernel =
          vulkan.getKernelPipeline(executor->module, *command);
      vulkan.recordingCommand = -1;
      if (failed(kernel) ||
          (!*kernel && failed(vulkan.checkModelDispatch(*command))))
        return failure();
      kernels[index] = *kernel;
      dispatchRegions[index] = kDispatchStagingBytes * dispatchCount++;
    }
    for (const Access &access : command->getAccesses()) {
      if (access.range.length == 0)
        continue;
      auto [it, inserted] =
          mirrorOf.try_emplace(access.range.root.get(), mirrors.size());
      if (inserted) {
        Mirror mirror;
        mirror.root = access.range.root;
        mirror.base = access.range.offset;
        mirror.end = access.range.offset + access.range.length;
        mirrors.push_back(mirror);
      }
      Mirror &mirror = mirrors[it->second];
      mirror.base = std::min(mirror.base, access.range.offset);
      mirror.end =
          std::max(mirror.end, access.range.offset + access.range.length);
    }
  }
  // A layer's message about a pipeline comes before anything runs: a kernel
  // it refuses may take the driver down once dispatched.
  if (failed(vulkan.reportMessages(commands, {}, errorOp)))
    return failure();
  parameterBytes = kDispatchStagingBytes * dispatchCount;
  stagingBytes = parameterBytes;
  for (Mirror &mirror : mirrors) {
    mirror.base -= mirror.base % kMirrorGranule;
    mirror.stagingOffset = stagingBytes;
    uint64_t bytes = mirror.end - mirror.base;
    if (bytes > vulkan.maxAllocationSize)
      return errorOp->emitError()
             << "touches " << bytes << " bytes of " << mirror.root->getName()
             << ", more than Vulkan device '" << vulkan.properties.deviceName
             << "' allocates at once (" << vulkan.maxAllocationSize << ")";
    stagingBytes += llvm::alignTo(bytes, 256);
  }
  planWriteChecks();
  return success();
}

LogicalResult DeviceWork::allocateDeviceMemory() {
  // Host-visible allocations and the host's buffers (arguments, globals)
  // get host-visible memory; device-only allocations device-local memory.
  for (Mirror &mirror : mirrors) {
    bool hostVisible = mirror.root->isHostVisible();
    FailureOr<Allocation> allocation =
        allocate(mirror.end - mirror.base,
                 hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT : 0,
                 hostVisible ? 0 : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (failed(allocation))
      return failure();
    mirror.buffer = allocation->buffer;
    mirror.memory = allocation->memory;
    // Validation messages name the buffer as the executor does.
    if (vulkan.setObjectName) {
      std::string name = mirror.root->getName();
      VkDebugUtilsObjectNameInfoEXT info{};
      info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT;
      info.objectType = VK_OBJECT_TYPE_BUFFER;
      info.objectHandle = reinterpret_cast<uint64_t>(mirror.buffer);
      info.pObjectName = name.c_str();
      vulkan.setObjectName(vulkan.device, &info);
    }
  }
  FailureOr<Allocation> stagingAllocation =
      allocate(stagingBytes,
               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
               VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  if (failed(stagingAllocation))
    return failure();
  staging = *stagingAllocation;
  void *pointer = nullptr;
  if (vkMapMemory(vulkan.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &pointer))
    return errorOp->emitError() << "cannot map the Vulkan staging buffer";
  mapped = static_cast<uint8_t *>(pointer);
  std::memset(mapped, 0, parameterBytes);
  return success();
}

void DeviceWork::stageHostBytes() {
  // The poison word a check copies onto a range's last bytes (a fill takes
  // whole words only).
  for (const WriteCheck &check : writeChecks)
    std::memset(mapped + dispatchRegions[check.command] + kReadScratchOffset,
                kPoisonByte, 4);
  for (const Mirror &mirror : mirrors)
    mirror.root->read(mirror.base, llvm::MutableArrayRef<uint8_t>(
                                       mapped + mirror.stagingOffset,
                                       mirror.end - mirror.base));
}

LogicalResult DeviceWork::prepare(PhaseClock &clock) {
  if (failed(plan()))
    return failure();
  if (stagingBytes == 0)
    return success();
  if (failed(allocateDeviceMemory()))
    return failure();
  clock.lap(vulkan.times.prepareMs);
  stageHostBytes();
  clock.lap(vulkan.times.stageMs);
  return success();
}

FailureOr<VkCommandBuffer> DeviceWork::beginCommandBuffer(bool oneTime) {
  VkCommandBufferAllocateInfo commandInfo{};
  commandInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  commandInfo.commandPool = vulkan.commandPool;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  VkCommandBuffer cmd;
  if (vkAllocateCommandBuffers(vulkan.device, &commandInfo, &cmd))
    return errorOp->emitError() << "cannot allocate a Vulkan command buffer";
  commandBuffers.push_back(cmd);
  VkCommandBufferBeginInfo beginInfo{};
  beginInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  beginInfo.flags = oneTime ? VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT : 0;
  vkBeginCommandBuffer(cmd, &beginInfo);
  return cmd;
}

LogicalResult DeviceWork::endCommandBuffer(VkCommandBuffer cmd) {
  if (vkEndCommandBuffer(cmd))
    return errorOp->emitError() << "cannot record the Vulkan command buffer";
  return success();
}

void DeviceWork::label(VkCommandBuffer cmd, const std::string &name) {
  if (!vulkan.beginLabel)
    return;
  VkDebugUtilsLabelEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT;
  info.pLabelName = name.c_str();
  vulkan.beginLabel(cmd, &info);
}

void DeviceWork::unlabel(VkCommandBuffer cmd) {
  if (vulkan.endLabel)
    vulkan.endLabel(cmd);
}

DeviceRange DeviceWork::locate(const BufferRef &ref) const {
  const Mirror &mirror = mirrors[mirrorOf.lookup(ref.root.get())];
  return {mirror.buffer, static_cast<VkDeviceSize>(ref.offset - mirror.base)};
}

void streamhal::exec::recordBarrier(VkCommandBuffer cmd,
                                    VkPipelineStageFlags sourceStages,
                                    VkAccessFlags sourceAccess,
                                    VkPipelineStageFlags targetStages,
                                    VkAccessFlags targetAccess, VkBuffer buffer,
                                    VkDeviceSize offset, VkDeviceSize length) {
  if (buffer == VK_NULL_HANDLE) {
    VkMemoryBarrier memoryBarrier{};
    memoryBarrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    memoryBarrier.srcAccessMask = sourceAccess;
    memoryBarrier.dstAccessMask = targetAccess;
    vkCmdPipelineBarrier(cmd, sourceStages, targetStages, 0, 1, &memoryBarrier,
                         0, nullptr, 0, nullptr);
    return;
  }
  VkBufferMemoryBarrier bufferBarrier{};
  bufferBarrier.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
  bufferBarrier.srcAccessMask = sourceAccess;
  bufferBarrier.dstAccessMask = targetAccess;
  bufferBarrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  bufferBarrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  bufferBarrier.buffer = buffer;
  bufferBarrier.offset = offset;
  bufferBarrier.size = length;
  vkCmdPipelineBarrier(cmd, sourceStages, targetStages, 0, 0, nullptr, 1,
                       &bufferBarrier, 0, nullptr);
}

static constexpr VkPipelineStageFlags kDeviceStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
static constexpr VkAccessFlags kDeviceWrites =
    VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
static constexpr VkAccessFlags kDeviceAccesses =
    kDeviceWrites | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;

void DeviceWork::recordUpload(VkCommandBuffer cmd) {
  label(cmd, "streamhal upload");
  for (const Mirror &mirror : mirrors) {
    VkBufferCopy region{mirror.stagingOffset, 0,
                        static_cast<VkDeviceSize>(mirror.end - mirror.base)};
    vkCmdCopyBuffer(cmd, staging.buffer, mirror.buffer, 1, &region);
  }
  recordBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT, kDeviceStages, kDeviceAccesses);
  unlabel(cmd);
}

LogicalResult DeviceWork::recordCommands(VkCommandBuffer cmd, unsigned first,
                                         unsigned count) {
  // One of the program's command buffers (not an upload or a readback).
  ++vulkan.times.commandBuffersRecorded;
  auto locateFn = [&](const BufferRef &ref) { return locate(ref); };
  for (unsigned index = first; index < first + count; ++index) {
    const Command &command = *commands[index];
    vulkan.recordingCommand = index;
    label(cmd, "streamhal #" + std::to_string(index) + " " +
                   command.op->getName().getStringRef().str());
    switch (command.kind) {
    case Command::Kind::Fill:
      if (command.target.length > 0) {
        auto [buffer, offset] = locate(command.target);
        vkCmdFillBuffer(cmd, buffer, offset, command.target.length,
                        command.pattern);
      }
      break;
    case Command::Kind::Copy:
      if (command.target.length > 0) {
        auto [source, sourceOffset] = locate(command.source);
        auto [target, targetOffset] = locate(command.target);
        VkBufferCopy region{sourceOffset, targetOffset,
                            static_cast<VkDeviceSize>(command.target.length)};
        vkCmdCopyBuffer(cmd, source, target, 1, &region);
      }
      break;
    case Command::Kind::Barrier:
      recordBarrier(cmd, kDeviceStages, kDeviceWrites, kDeviceStages,
                    kDeviceAccesses);
      break;
    case Command::Kind::Dispatch: {
      recordPoison(cmd, index);
      LogicalResult recorded =
          kernels[index]
              ? vulkan.recordKernelDispatch(cmd, command, *kernels[index],
                                            locateFn)
              : vulkan.recordModelDispatch(
                    cmd, command,
                    {staging.buffer, mapped, dispatchRegions[index]}, locateFn);
      if (failed(recorded)) {
        vulkan.recordingCommand = -1;
        return failure();
      }
      recordWriteSnapshots(cmd, index);
      break;
    }
    }
    unlabel(cmd);
  }
  vulkan.recordingCommand = -1;
  return success();
}

void DeviceWork::recordReadback(VkCommandBuffer cmd) {
  label(cmd, "streamhal readback");
  recordBarrier(cmd, kDeviceStages, kDeviceWrites,
                VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  for (const Mirror &mirror : mirrors) {
    VkBufferCopy region{0, mirror.stagingOffset,
                        static_cast<VkDeviceSize>(mirror.end - mirror.base)};
    vkCmdCopyBuffer(cmd, mirror.buffer, staging.buffer, 1, &region);
  }
  recordBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
  unlabel(cmd);
}

LogicalResult DeviceWork::writeBack() {
  if (failed(checkKernelWrites()))
    return failure();
  // Each command's reads must find initialized bytes (as on the reference
  // model) and its writes record it as the last writer.
  auto deviceBytes = [&](const BufferRef &ref) {
    const Mirror &mirror = mirrors[mirrorOf.lookup(ref.root.get())];
    return ArrayRef<uint8_t>(
        mapped + mirror.stagingOffset + (ref.offset - mirror.base), ref.length);
  };
  for (const Command *command : commands) {
    for (const Access &access : command->getAccesses()) {
      if (access.range.length == 0)
        continue;
      if (access.reads)
        if (std::optional<int64_t> poison =
                access.range.root->findUninitialized(access.range.offset,
                                                     access.range.length))
          return command->op->emitError()
                 << "reads uninitialized memory: byte " << *poison << " of "
                 << access.range.root->getName() << " was never written";
    }
    for (const Access &access : command->getAccesses()) {
      if (!access.writes || access.range.length == 0)
        continue;
      if (access.range.root->isReadOnly())
        return command->op->emitError()
               << "writes "
               << formatRange(access.range.offset, access.range.length)
               << " of " << access.range.root->getName()
               << ", constant storage (an immutable global) that is read-only";
      if (failed(executor->reserveMemory(
              command->op,
              access.range.root->getUnmaterializedBytes(access.range.offset,
                                                        access.range.length),
              "the device's result")))
        return failure();
      access.range.root->write(access.range.offset, deviceBytes(access.range),
                               command->op);
    }
  }
  return success();
}

LogicalResult VulkanDevice::run(ExecutorImpl &executor, Operation *submitOp,
                                ArrayRef<Command> commands) {
  PhaseClock clock;
  if (failed(checkLimits(executor, submitOp)))
    return failure();
  std::vector<const Command *> pointers;
  for (const Command &command : commands)
    pointers.push_back(&command);
  DeviceWork work(*this, executor, submitOp, pointers);
  if (failed(work.prepare(clock)))
    return failure();
  if (work.isEmpty())
    return success();
  FailureOr<VkCommandBuffer> cmd = work.recordRun(/*oneTime=*/true);
  if (failed(cmd))
    return failure();
  clock.lap(times.recordMs);
  return work.submitAndWriteBack(*cmd, clock, {}, submitOp);
}

FailureOr<VkCommandBuffer> DeviceWork::recordRun(bool oneTime) {
  FailureOr<VkCommandBuffer> cmd = beginCommandBuffer(oneTime);
  if (failed(cmd))
    return failure();
  recordUpload(*cmd);
  if (failed(recordCommands(*cmd, 0, commands.size())))
    return failure();
  recordReadback(*cmd);
  if (failed(endCommandBuffer(*cmd)))
    return failure();
  return cmd;
}

LogicalResult DeviceWork::submitAndWriteBack(VkCommandBuffer cmd,
                                             PhaseClock &clock,
                                             ArrayRef<Operation *> submissionOp,
                                             Operation *fallbackOp) {
  DeviceTimes &times = vulkan.times;
  VkSubmitInfo submitInfo{};
  submitInfo.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &cmd;
  vkResetFences(vulkan.device, 1, &vulkan.fence);
  // The layer's messages at queue submission are about `submissionOp`.
  vulkan.submittingIndex = submissionOp.empty() ? -1 : 0;
  VkResult result = vkQueueSubmit(vulkan.queue, 1, &submitInfo, vulkan.fence);
  vulkan.submittingIndex = -1;
  if (result)
    return errorOp->emitError()
           << "vkQueueSubmit failed (VkResult " << result << ")";
  submitted = true;
  // A minute: far beyond what any test program needs.
  if (VkResult waited = vkWaitForFences(vulkan.device, 1, &vulkan.fence,
                                        VK_TRUE, 60'000'000'000ull))
    return errorOp->emitError()
           << "the Vulkan submission did not complete (VkResult " << waited
           << ")";
  clock.lap(times.submitWaitMs);
  ++times.submissions;
  if (failed(vulkan.reportMessages(commands, submissionOp, fallbackOp)))
    return failure();
  LogicalResult written = writeBack();
  clock.lap(times.writeBackMs);
  return written;
}
