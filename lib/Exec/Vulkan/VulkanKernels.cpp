//===- VulkanKernels.cpp - Vulkan device: the kernels of dispatches -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A dispatch runs one of two kinds of kernel (docs/device.md, "Kernels"):
// - the SPIR-V of its `vulkan-spirv-fb` variant: a `spirv.module` in the
//   variant's module with a `spirv.EntryPoint` named as the HAL entry point,
//   serialized by MLIR's SPIR-V serializer; its layout is the entry point's
//   interface (set 0 as one push-descriptor set, its push constants), its
//   workgroup count the dispatch's;
// - otherwise the built-in model kernel (ModelKernel.comp): one workgroup
//   that computes the dispatch model of docs/executor.md from a parameter
//   block in the staging buffer.
//
//===----------------------------------------------------------------------===//

#include "../ExecutorImpl.h"
#include "VulkanDevice.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "streamhal/Dialect/HAL/IR/ExecutableFormats.h"
#include "streamhal/Exec/KernelInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

//===----------------------------------------------------------------------===//
// SPIR-V kernels
//===----------------------------------------------------------------------===//

/// Checks the SPIR-V kernel of `entryPoint` against its interface and the
/// device's limits (KernelInterface.h) and serializes its module into
/// `words`; errors at `dispatch`.
static FailureOr<SpirvKernel>
serializeKernel(Operation *dispatch, hal::ExecutableEntryPointOp entryPoint,
                const VkPhysicalDeviceLimits &deviceLimits,
                bool allowPartialWrites, SmallVectorImpl<uint32_t> &words) {
  KernelLimits limits;
  for (unsigned i = 0; i < 3; ++i)
    limits.maxWorkgroupSize[i] = deviceLimits.maxComputeWorkGroupSize[i];
  limits.maxWorkgroupInvocations = deviceLimits.maxComputeWorkGroupInvocations;
  limits.maxPushConstantBytes = deviceLimits.maxPushConstantsSize;
  FailureOr<SpirvKernel> kernel =
      checkSpirvKernel(entryPoint, limits, dispatch, allowPartialWrites);
  if (failed(kernel))
    return failure();
  if (failed(spirv::serialize(kernel->module, words)))
    return dispatch->emitError()
           << "cannot serialize the SPIR-V of @" << entryPoint.getSymName()
           << " (MLIR's serializer failed; see the note above)";
  return kernel;
}

/// The descriptor-set layout bindings of `interface`'s bindings (all
/// storage buffers of set 0), each binding ordinal appended to `key`.
static LogicalResult
getKernelBindings(hal::InterfaceOp interface,
                  std::vector<VkDescriptorSetLayoutBinding> &bindings,
                  std::string &key) {
  for (auto binding :
       interface.getBody().front().getOps<hal::InterfaceBindingOp>()) {
    // One push-descriptor set per pipeline layout (VK_KHR_push_descriptor).
    if (binding.getSet().getZExtValue() != 0)
      return binding.emitError()
             << "is in set " << binding.getSet().getZExtValue()
             << "; the Vulkan device runs SPIR-V kernels whose bindings are "
                "all in set 0 (one push-descriptor set)";
    if (binding.getType() != hal::DescriptorType::StorageBuffer)
      return binding.emitError()
             << "has type " << hal::stringifyDescriptorType(binding.getType())
             << "; the Vulkan device binds StorageBuffer";
    VkDescriptorSetLayoutBinding entry{};
    entry.binding = binding.getBinding().getZExtValue();
    entry.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    entry.descriptorCount = 1;
    entry.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    bindings.push_back(entry);
    key += "|" + std::to_string(entry.binding);
  }
  return success();
}

FailureOr<const KernelPipeline *>
VulkanDevice::getKernelPipeline(ModuleOp module, const Command &command) {
  if (command.kind != Command::Kind::Dispatch)
    return nullptr;
  // A HAL dispatch, or a flow.dispatch of the flow level run on the device.
  Operation *dispatch = command.op;
  hal::ExecutableEntryPointOp entryPoint = command.entryPoint;
  auto variant = entryPoint
                     ? entryPoint->getParentOfType<hal::ExecutableVariantOp>()
                     : hal::ExecutableVariantOp();
  if (!variant ||
      variant.getTarget().getFormat().getValue() != hal::kVulkanSpirvFormat)
    return nullptr;
  // Checked and made once per entry point.
  if (auto known = kernelOfEntryPoint.find(entryPoint);
      known != kernelOfEntryPoint.end())
    return &kernelPipelines.find(known->second)->second;
  StringRef name = entryPoint.getSymName();
  SmallVector<uint32_t> words;
  FailureOr<SpirvKernel> checked = serializeKernel(
      dispatch, entryPoint, properties.limits, allowPartialWrites, words);
  if (failed(checked))
    return failure();

  hal::InterfaceOp interface = entryPoint.lookupInterface();
  if (!interface)
    return dispatch->emitError() << "targets an entry point without interface";
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::string key(reinterpret_cast<const char *>(words.data()),
                  words.size() * sizeof(uint32_t));
  key += "|" + name.str();
  if (failed(getKernelBindings(interface, bindings, key)))
    return failure();
  int64_t constantCount = interface.getPushConstantCount();
  if (constantCount < 0 ||
      constantCount * 4 > int64_t(properties.limits.maxPushConstantsSize))
    return dispatch->emitError()
           << "targets an interface of " << constantCount
           << " push constants; Vulkan device '" << properties.deviceName
           << "' holds " << properties.limits.maxPushConstantsSize / 4;
  key += "|pc" + std::to_string(constantCount);
  auto it = kernelPipelines.find(key);
  if (it != kernelPipelines.end()) {
    kernelOfEntryPoint[entryPoint] = key;
    return &it->second;
  }

  KernelPipeline kernel;
  kernel.pushConstantCount = constantCount;
  kernel.localSize = checked->localSize;
  kernel.usedBindings.assign(checked->usedBindings.begin(),
                             checked->usedBindings.end());
  std::string entryName = name.str();
  bool created =
      createComputePipeline(
          device, bindings, static_cast<uint32_t>(constantCount * 4), words,
          entryName.c_str(), kernel.setLayout, kernel.layout, kernel.shader,
          kernel.pipeline) == ComputePipelineResult::Created;
  // Kept also when creation failed, so that the destructor frees the parts.
  const KernelPipeline &stored =
      kernelPipelines.try_emplace(key, kernel).first->second;
  if (!created) {
    kernelPipelines.erase(key);
    vkDestroyPipelineLayout(device, kernel.layout, nullptr);
    vkDestroyDescriptorSetLayout(device, kernel.setLayout, nullptr);
    vkDestroyShaderModule(device, kernel.shader, nullptr);
    return dispatch->emitError()
           << "Vulkan device '" << properties.deviceName
           << "' cannot make a pipeline of the SPIR-V kernel @" << name;
  }
  kernelOfEntryPoint[entryPoint] = key;
  return &stored;
}

LogicalResult VulkanDevice::recordKernelDispatch(VkCommandBuffer cmd,
                                                 const Command &command,
                                                 const KernelPipeline &kernel,
                                                 LocateFn locate) {
  for (unsigned i = 0; i < 3; ++i)
    if (command.workgroups[i] > properties.limits.maxComputeWorkGroupCount[i])
      return command.op->emitError()
             << "dispatches " << command.workgroups[i]
             << " workgroups in dimension " << i << "; Vulkan device '"
             << properties.deviceName << "' dispatches at most "
             << properties.limits.maxComputeWorkGroupCount[i];
  // A descriptor the kernel reads or writes that this dispatch leaves
  // unbound is undefined on the device (a crash in some drivers); a
  // hand-written layout may name fewer bindings than the interface.
  for (auto [set, ordinal] : kernel.usedBindings)
    if (!llvm::any_of(command.bindings, [&](const Command::Binding &bound) {
          return bound.set == set && bound.binding == ordinal;
        }))
      return command.op->emitError()
             << "leaves (set " << set << ", binding " << ordinal
             << ") unbound, which the SPIR-V kernel of " << command.entrySymbol
             << " uses";
  SmallVector<VkDescriptorBufferInfo> infos;
  infos.reserve(command.bindings.size());
  SmallVector<VkWriteDescriptorSet> writes;
  for (const Command::Binding &binding : command.bindings) {
    if (binding.range.length == 0)
      return command.op->emitError()
             << "binds no bytes to binding (" << binding.set << ", "
             << binding.binding
             << "); Vulkan has no empty storage-buffer descriptor";
    DeviceRange range = locate(binding.range);
    infos.push_back({range.buffer, range.offset,
                     static_cast<VkDeviceSize>(binding.range.length)});
    VkWriteDescriptorSet write{};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstBinding = binding.binding;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &infos.back();
    writes.push_back(write);
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline);
  if (!writes.empty())
    pushDescriptorSet(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.layout, 0,
                      writes.size(), writes.data());
  if (kernel.pushConstantCount > 0) {
    SmallVector<uint32_t> values(command.pushConstants.begin(),
                                 command.pushConstants.end());
    values.resize(kernel.pushConstantCount, 0);
    vkCmdPushConstants(cmd, kernel.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       values.size() * 4, values.data());
  }
  vkCmdDispatch(cmd, command.workgroups[0], command.workgroups[1],
                command.workgroups[2]);
  return success();
}

//===----------------------------------------------------------------------===//
// The model kernel
//===----------------------------------------------------------------------===//

/// The loop iterations the model kernel's busiest invocation runs for
/// `command` (ModelKernel.comp), with some slack for the fixed loops.
static uint64_t estimateModelIterations(const Command &command) {
  uint64_t iterations = 64;
  for (const Command::Binding &binding : command.bindings) {
    uint64_t length = binding.range.length;
    if (binding.reads) {
      uint64_t blocks = llvm::divideCeil(length, kModelBlockBytes);
      iterations +=
          llvm::divideCeil(blocks, kModelInvocations) * (kModelBlockBytes + 1) +
          16;
    }
    if (binding.writes)
      iterations +=
          llvm::divideCeil(llvm::divideCeil(length, 8), kModelInvocations) + 1;
  }
  return iterations;
}

LogicalResult VulkanDevice::checkModelDispatch(const Command &command) {
  unsigned reads = 0, writes = 0;
  for (const Command::Binding &binding : command.bindings) {
    reads += binding.reads;
    writes += binding.writes;
    if (static_cast<uint64_t>(binding.range.length) > UINT32_MAX)
      return command.op->emitError()
             << "binds " << binding.range.length
             << " bytes; the Vulkan device binds at most 4 GiB - 1";
  }
  if (reads > kModelSlots || writes > kModelSlots)
    return command.op->emitError()
           << "has " << reads << " Read and " << writes
           << " Write bindings; the built-in model kernel of the Vulkan "
              "device takes at most "
           << kModelSlots << " of each";
  if (command.pushConstants.size() * 4 > kPushConstantBytes)
    return command.op->emitError()
           << "uses " << command.pushConstants.size()
           << " push constants; the Vulkan device pushes at most 32";
  uint64_t iterations = estimateModelIterations(command);
  if (iterations > kModelMaxIterations)
    return command.op->emitError()
           << "needs about " << iterations
           << " loop iterations per invocation of the built-in model "
              "kernel, more than the "
           << kModelMaxIterations
           << " it allows (llvmpipe stops an invocation after 65,535): "
              "its bindings are too large for the Vulkan device";
  return success();
}

LogicalResult VulkanDevice::recordModelDispatch(VkCommandBuffer cmd,
                                                const Command &command,
                                                ModelDispatchRegion region,
                                                LocateFn locate) {
  auto *words = reinterpret_cast<uint32_t *>(region.mapped + region.offset);
  Fnv1a64 entry;
  entry.addString(command.entrySymbol);
  words[0] = static_cast<uint32_t>(entry.get());
  words[1] = static_cast<uint32_t>(entry.get() >> 32);
  words[2] = command.pushConstants.size();
  for (unsigned i = 0; i < 3; ++i) {
    words[5 + 2 * i] = static_cast<uint32_t>(command.workgroups[i]);
    words[6 + 2 * i] = static_cast<uint32_t>(command.workgroups[i] >> 32);
  }
  // Unused slots see scratch ranges of this dispatch's own, so that no two
  // dispatches seem to share bytes.
  VkDescriptorBufferInfo infos[kModelParameterBinding + 1];
  for (uint32_t slot = 0; slot < kModelSlots; ++slot) {
    infos[slot] = {region.staging, region.offset + kReadScratchOffset,
                   kScratchBytes};
    infos[kModelSlots + slot] = {
        region.staging, region.offset + kWriteScratchOffset, kScratchBytes};
  }
  infos[kModelParameterBinding] = {region.staging, region.offset,
                                   kModelParameterWords * 4};
  uint32_t reads = 0, writes = 0;
  for (const Command::Binding &binding : command.bindings) {
    auto describe = [&](uint32_t slot, uint32_t entryWord) {
      words[entryWord] = binding.set;
      words[entryWord + 1] = binding.binding;
      words[entryWord + 2] = static_cast<uint32_t>(binding.range.length);
      words[entryWord + 3] = slot % kModelSlots;
      // A binding of no bytes keeps the scratch range: Vulkan binds no
      // empty range.
      if (binding.range.length > 0) {
        DeviceRange range = locate(binding.range);
        infos[slot] = {range.buffer, range.offset,
                       static_cast<VkDeviceSize>(binding.range.length)};
      }
    };
    // A Read|Write binding takes a read slot and a write slot.
    if (binding.reads) {
      describe(reads, 16 + 4 * reads);
      ++reads;
    }
    if (binding.writes) {
      describe(kModelSlots + writes, 16 + 4 * (kModelSlots + writes));
      ++writes;
    }
  }
  words[3] = reads;
  words[4] = writes;
  VkWriteDescriptorSet descriptorWrites[kModelParameterBinding + 1];
  for (uint32_t binding = 0; binding <= kModelParameterBinding; ++binding) {
    VkWriteDescriptorSet &write = descriptorWrites[binding];
    write = {};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &infos[binding];
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, modelPipeline);
  pushDescriptorSet(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0,
                    kModelParameterBinding + 1, descriptorWrites);
  // The whole block: the kernel's push-constant block is 32 values.
  uint32_t constants[kPushConstantBytes / 4] = {};
  llvm::copy(command.pushConstants, constants);
  vkCmdPushConstants(cmd, pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                     kPushConstantBytes, constants);
  // One workgroup; the HAL's count is an input of the model (in the
  // parameter block).
  vkCmdDispatch(cmd, 1, 1, 1);
  return success();
}
