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

/// Records the command buffers of `group` on `work`: `upload`, then one per
/// command buffer of each submission (`buffers[i]`: submission i's), then
/// `readback`. Recorded before anything is submitted: a failure submits
/// nothing.
static LogicalResult
recordGroup(DeviceWork &work, ArrayRef<SubmissionToRun> group,
            VkCommandBuffer &upload,
            SmallVectorImpl<SmallVector<VkCommandBuffer>> &buffers,
            VkCommandBuffer &readback) {
  FailureOr<VkCommandBuffer> uploadCmd = work.beginCommandBuffer();
  if (failed(uploadCmd))
    return failure();
  upload = *uploadCmd;
  work.recordUpload(upload);
  if (failed(work.endCommandBuffer(upload)))
    return failure();
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
  FailureOr<VkCommandBuffer> readbackCmd = work.beginCommandBuffer();
  if (failed(readbackCmd))
    return failure();
  readback = *readbackCmd;
  work.recordReadback(readback);
  return work.endCommandBuffer(readback);
}

/// Creates `count` timeline semaphores (value 0) into `semaphores`; errors
/// at `awaitOp`.
static LogicalResult createSemaphores(Semaphores &semaphores, size_t count,
                                      Operation *awaitOp) {
  VkSemaphoreTypeCreateInfo typeInfo{};
  typeInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
  typeInfo.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  typeInfo.initialValue = 0;
  VkSemaphoreCreateInfo semaphoreInfo{};
  semaphoreInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  semaphoreInfo.pNext = &typeInfo;
  for (size_t i = 0; i < count; ++i) {
    VkSemaphore semaphore;
    if (vkCreateSemaphore(semaphores.device, &semaphoreInfo, nullptr,
                          &semaphore))
      return awaitOp->emitError() << "cannot create a timeline semaphore";
    semaphores.semaphores.push_back(semaphore);
  }
  return success();
}

/// One vkQueueSubmit on `queue` of `cmds`, waiting for value 1 of `waits`
/// and signalling value 1 of `signal`; `index` is the submission of the
/// group it is (-1: the upload or the readback), errors at `op`.
static LogicalResult
submitToQueue(VkQueue queue, std::atomic<int> &submittingIndex,
              DeviceWork &work, ArrayRef<VkCommandBuffer> cmds,
              ArrayRef<VkSemaphore> waits, VkSemaphore signal, int index,
              Operation *op) {
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
    return op->emitError() << "vkQueueSubmit failed (VkResult " << result
                           << ")";
  work.submitted = true;
  return success();
}

LogicalResult VulkanDevice::runSubmissions(ExecutorImpl &executor,
                                           Operation *awaitOp,
                                           ArrayRef<SubmissionToRun> group) {
  if (group.empty())
    return success();
  // Submissions of memoized recordings replay (VulkanReplay.cpp), each run
  // to completion in issue order: a legal order, since each comes after
  // those it waits on. The executor's timeline checks the fences between
  // them; with that check skipped (--skip-timeline-races) a group of
  // several runs as one, so that the layer judges the fences instead.
  bool allMemoized = llvm::all_of(group, [](const SubmissionToRun &submission) {
    return submission.tables && submission.commandBuffers.size() == 1;
  });
  if (allMemoized &&
      (group.size() == 1 || !executor.options.skipTimelineRaces)) {
    for (const SubmissionToRun &submission : group)
      if (failed(runMemoized(executor, awaitOp, submission)))
        return failure();
    return success();
  }
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
  if (failed(work.prepare(clock)))
    return failure();
  if (work.isEmpty())
    return success();

  VkCommandBuffer upload = VK_NULL_HANDLE, readback = VK_NULL_HANDLE;
  SmallVector<SmallVector<VkCommandBuffer>> buffers;
  if (failed(recordGroup(work, group, upload, buffers, readback)))
    return failure();
  clock.lap(times.recordMs);

  // Semaphore 0: the upload; 1 + i: submission i; last: the readback.
  Semaphores semaphores{device, queue, {}};
  if (failed(createSemaphores(semaphores, group.size() + 2, awaitOp)))
    return failure();
  auto submit = [&](ArrayRef<VkCommandBuffer> cmds, ArrayRef<VkSemaphore> waits,
                    VkSemaphore signal, int index, Operation *op) {
    return submitToQueue(queue, submittingIndex, work, cmds, waits, signal,
                         index, op);
  };
  const std::vector<VkSemaphore> &all = semaphores.semaphores;
  if (failed(submit(upload, {}, all.front(), -1, awaitOp)))
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
  if (failed(submit(readback, everything, all.back(), -1, awaitOp)))
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
