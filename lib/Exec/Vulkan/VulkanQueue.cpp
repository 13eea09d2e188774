//===- VulkanQueue.cpp - Vulkan device: queue submissions and fences ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The group of pending `hal.device.queue.execute` submissions that one host
// wait needs (docs/async.md) runs as real queue submissions: one timeline
// semaphore per submission (value 1 once it is done) stands for its signal
// fence; each submission is one vkQueueSubmit whose
// VkTimelineSemaphoreSubmitInfo waits on the semaphores of the submissions
// the IR makes it wait for, and on nothing else, so that synchronization
// validation (at queue submission) checks the program's fences and not
// ours; the host's wait is vkWaitSemaphores. The bytes travel as in
// VulkanSubmit.cpp: mirrors over every access of the group, uploaded by a
// first submission every other one waits on, read back by a last one that
// waits on all, written back in program order.
//
//===----------------------------------------------------------------------===//

#include "../ExecutorImpl.h"
#include "VulkanDevice.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

namespace {
/// Timeline semaphores, destroyed once the queue is idle.
struct Semaphores {
  VkDevice device;
  VkQueue queue;
  std::vector<VkSemaphore> semaphores;
  ~Semaphores() {
    if (semaphores.empty())
      return;
    vkQueueWaitIdle(queue);
    for (VkSemaphore semaphore : semaphores)
      vkDestroySemaphore(device, semaphore, nullptr);
  }
};
} // namespace

LogicalResult VulkanDevice::runSubmissions(ExecutorImpl &executor,
                                           Operation *awaitOp,
                                           ArrayRef<SubmissionToRun> group) {
  if (group.empty())
    return success();
  if (failed(checkLimits(executor, group.front().op)))
    return failure();
  // The group's commands in program order; a label's and a message's
  // command index counts in this list.
  std::vector<const Command *> commands;
  SmallVector<Operation *> submissionOps;
  for (const SubmissionToRun &submission : group) {
    submissionOps.push_back(submission.op);
    for (const std::vector<Command> &buffer : submission.commandBuffers)
      for (const Command &command : buffer)
        commands.push_back(&command);
  }
  PhaseClock clock;
  DeviceWork work(*this, executor, awaitOp, commands);
  if (failed(work.prepare()))
    return failure();
  if (work.isEmpty())
    return success();
  clock.lap(times.prepareMs);

  // Recorded before anything is submitted: a failure submits nothing.
  FailureOr<VkCommandBuffer> upload = work.beginCommandBuffer();
  if (failed(upload))
    return failure();
  work.recordUpload(*upload);
  if (failed(work.endCommandBuffer(*upload)))
    return failure();
  SmallVector<SmallVector<VkCommandBuffer>> buffers;
  unsigned first = 0;
  for (const SubmissionToRun &submission : group) {
    buffers.emplace_back();
    for (const std::vector<Command> &buffer : submission.commandBuffers) {
      FailureOr<VkCommandBuffer> cmd = work.beginCommandBuffer();
      if (failed(cmd) ||
          failed(work.recordCommands(*cmd, first, buffer.size())) ||
          failed(work.endCommandBuffer(*cmd)))
        return failure();
      first += buffer.size();
      buffers.back().push_back(*cmd);
    }
  }
  FailureOr<VkCommandBuffer> readback = work.beginCommandBuffer();
  if (failed(readback))
    return failure();
  work.recordReadback(*readback);
  if (failed(work.endCommandBuffer(*readback)))
    return failure();
  clock.lap(times.recordMs);

  // Semaphore 0: the upload; 1 + i: submission i; last: the readback.
  Semaphores semaphores{device, queue, {}};
  VkSemaphoreTypeCreateInfo typeInfo{};
  typeInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
  typeInfo.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  typeInfo.initialValue = 0;
  VkSemaphoreCreateInfo semaphoreInfo{};
  semaphoreInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  semaphoreInfo.pNext = &typeInfo;
  for (size_t i = 0; i < group.size() + 2; ++i) {
    VkSemaphore semaphore;
    if (vkCreateSemaphore(device, &semaphoreInfo, nullptr, &semaphore))
      return awaitOp->emitError() << "cannot create a timeline semaphore";
    semaphores.semaphores.push_back(semaphore);
  }
  auto submit = [&](ArrayRef<VkCommandBuffer> cmds, ArrayRef<VkSemaphore> waits,
                    VkSemaphore signal, int index,
                    Operation *op) -> LogicalResult {
    SmallVector<uint64_t> waitValues(waits.size(), 1);
    SmallVector<VkPipelineStageFlags> waitStages(
        waits.size(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
    uint64_t signalValue = 1;
    VkTimelineSemaphoreSubmitInfo timelineInfo{};
    timelineInfo.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
    timelineInfo.waitSemaphoreValueCount = waitValues.size();
    timelineInfo.pWaitSemaphoreValues = waitValues.data();
    timelineInfo.signalSemaphoreValueCount = 1;
    timelineInfo.pSignalSemaphoreValues = &signalValue;
    VkSubmitInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    info.pNext = &timelineInfo;
    info.waitSemaphoreCount = waits.size();
    info.pWaitSemaphores = waits.data();
    info.pWaitDstStageMask = waitStages.data();
    info.commandBufferCount = cmds.size();
    info.pCommandBuffers = cmds.data();
    info.signalSemaphoreCount = 1;
    info.pSignalSemaphores = &signal;
    // The layer checks the submission against the queue's earlier ones
    // here: what it finds is about this submission's op.
    submittingIndex = index;
    VkResult result = vkQueueSubmit(queue, 1, &info, VK_NULL_HANDLE);
    submittingIndex = -1;
    if (result)
      return op->emitError()
             << "vkQueueSubmit failed (VkResult " << result << ")";
    work.submitted = true;
    return success();
  };
  const std::vector<VkSemaphore> &all = semaphores.semaphores;
  if (failed(submit(*upload, {}, all.front(), -1, awaitOp)))
    return failure();
  for (auto [index, submission] : llvm::enumerate(group)) {
    // The upload, then exactly the waits the fences state.
    SmallVector<VkSemaphore> waits{all.front()};
    for (unsigned earlier : submission.waits) {
      if (earlier >= index)
        return submission.op->emitError()
               << "waits on a submission that is not issued before it";
      waits.push_back(all[1 + earlier]);
    }
    if (failed(submit(buffers[index], waits, all[1 + index], index,
                      submission.op)))
      return failure();
  }
  SmallVector<VkSemaphore> everything(all.begin(), all.end() - 1);
  if (failed(submit(*readback, everything, all.back(), -1, awaitOp)))
    return failure();

  VkSemaphoreWaitInfo waitInfo{};
  waitInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO;
  waitInfo.semaphoreCount = 1;
  waitInfo.pSemaphores = &all.back();
  uint64_t done = 1;
  waitInfo.pValues = &done;
  // A minute: far beyond what any test program needs.
  if (VkResult result = vkWaitSemaphores(device, &waitInfo, 60'000'000'000ull))
    return awaitOp->emitError()
           << "the Vulkan submissions it awaits did not complete (VkResult "
           << result << ")";
  clock.lap(times.submitWaitMs);
  times.submissions += group.size();
  if (failed(reportMessages(commands, submissionOps, awaitOp)))
    return failure();
  LogicalResult written = work.writeBack();
  clock.lap(times.writeBackMs);
  return written;
}
