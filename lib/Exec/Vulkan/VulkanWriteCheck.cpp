//===- VulkanWriteCheck.cpp - Vulkan device: unwritten kernel outputs -----===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A SPIR-V kernel must write every byte of a `Write` (not `Read`) binding:
// whatever it leaves is stale memory the program then treats as a result.
// The device finds such bytes: before the dispatch each range is filled
// with the poison pattern (kPoisonByte in every byte), after it the range
// is copied to the staging buffer, and after the submission every byte of
// the copy still equal to the pattern is unwritten (compared in whole
// 32-bit words where the range has them, so a kernel's own 0xCD bytes are
// blamed only when they fill a whole word). The fills and copies are
// ordered with the dispatch by barriers on those ranges alone, so
// validation still sees the program's hazards on every other range; the
// cost is one fill, one copy and two buffer barriers per range, and the
// range's bytes again in the staging buffer (docs/device.md).
//
//===----------------------------------------------------------------------===//

#include "../ExecutorImpl.h"
#include "VulkanDevice.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// The pattern fill writes: kPoisonByte in each byte.
static constexpr uint32_t kPoisonWord = 0x01010101u * kPoisonByte;

void DeviceWork::planWriteChecks() {
  if (!vulkan.checkWrites)
    return;
  for (auto [index, command] : llvm::enumerate(commands)) {
    if (!kernels[index])
      continue;
    for (auto [slot, binding] : llvm::enumerate(command->bindings)) {
      // Offsets the fill cannot start at are left unchecked (the device
      // rules make every binding offset a multiple of 16).
      if (!binding.writes || binding.reads || binding.range.length == 0 ||
          (binding.range.offset -
           mirrors[mirrorOf.lookup(binding.range.root.get())].base) %
                  4 !=
              0)
        continue;
      stagingBytes = llvm::alignTo(stagingBytes, 16);
      writeChecks.push_back({static_cast<unsigned>(index),
                             static_cast<unsigned>(slot), stagingBytes});
      stagingBytes += binding.range.length;
    }
  }
}

/// The write checks of `command`.
static ArrayRef<WriteCheck> getChecksOf(ArrayRef<WriteCheck> checks,
                                        unsigned command) {
  auto begin = llvm::partition_point(
      checks, [&](const WriteCheck &check) { return check.command < command; });
  auto end = std::find_if(begin, checks.end(), [&](const WriteCheck &check) {
    return check.command != command;
  });
  return ArrayRef<WriteCheck>(begin, end);
}

void DeviceWork::recordPoison(VkCommandBuffer cmd, unsigned command) {
  for (const WriteCheck &check : getChecksOf(writeChecks, command)) {
    const BufferRef &range = commands[command]->bindings[check.binding].range;
    auto [buffer, offset] = locate(range);
    auto length = static_cast<VkDeviceSize>(range.length);
    VkDeviceSize words = length & ~VkDeviceSize(3);
    if (words > 0)
      vkCmdFillBuffer(cmd, buffer, offset, words, kPoisonWord);
    if (words < length) {
      VkBufferCopy tail{dispatchRegions[command] + kReadScratchOffset,
                        offset + words, length - words};
      vkCmdCopyBuffer(cmd, staging.buffer, buffer, 1, &tail);
    }
    recordBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                  buffer, offset, length);
  }
}

void DeviceWork::recordWriteSnapshots(VkCommandBuffer cmd, unsigned command) {
  for (const WriteCheck &check : getChecksOf(writeChecks, command)) {
    const BufferRef &range = commands[command]->bindings[check.binding].range;
    auto [buffer, offset] = locate(range);
    auto length = static_cast<VkDeviceSize>(range.length);
    recordBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_READ_BIT, buffer, offset, length);
    VkBufferCopy region{offset, check.stagingOffset, length};
    vkCmdCopyBuffer(cmd, buffer, staging.buffer, 1, &region);
  }
}

/// The unwritten bytes of `bytes` (a range copied after its dispatch): whole
/// words equal to the poison word, and tail bytes equal to kPoisonByte.
static std::pair<uint64_t, int64_t> countUnwritten(ArrayRef<uint8_t> bytes) {
  uint64_t unwritten = 0;
  int64_t first = -1;
  size_t words = bytes.size() & ~size_t(3);
  auto note = [&](size_t at, size_t count) {
    unwritten += count;
    if (first < 0)
      first = at;
  };
  for (size_t at = 0; at < words; at += 4)
    if (llvm::all_of(bytes.slice(at, 4),
                     [](uint8_t byte) { return byte == kPoisonByte; }))
      note(at, 4);
  for (size_t at = words; at < bytes.size(); ++at)
    if (bytes[at] == kPoisonByte)
      note(at, 1);
  return {unwritten, first};
}

LogicalResult DeviceWork::checkKernelWrites() {
  for (const WriteCheck &check : writeChecks) {
    const Command &command = *commands[check.command];
    const Command::Binding &binding = command.bindings[check.binding];
    auto [unwritten, first] = countUnwritten(
        ArrayRef<uint8_t>(mapped + check.stagingOffset, binding.range.length));
    if (unwritten == 0)
      continue;
    const KernelPipeline &kernel = *kernels[check.command];
    uint64_t invocations = 1;
    for (unsigned i = 0; i < 3; ++i)
      invocations *= command.workgroups[i] * kernel.localSize[i];
    InFlightDiagnostic diagnostic = vulkan.allowPartialWrites
                                        ? command.op->emitWarning()
                                        : command.op->emitError();
    diagnostic << "the SPIR-V kernel of " << command.entrySymbol << " left "
               << unwritten << " of the " << binding.range.length
               << " bytes of binding (set " << binding.set << ", binding "
               << binding.binding << ") unwritten, the first at byte " << first
               << " of the binding; its workgroup count ["
               << command.workgroups[0] << ", " << command.workgroups[1] << ", "
               << command.workgroups[2] << "] at local size ["
               << kernel.localSize[0] << ", " << kernel.localSize[1] << ", "
               << kernel.localSize[2] << "] runs " << invocations
               << " invocations";
    if (!vulkan.allowPartialWrites)
      return diagnostic << " (--allow-partial-writes makes this a warning)";
  }
  return success();
}
