//===- Replay.cpp - Reference executor: memoized command buffers ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// hal.device.memoize records its body once: the device switches are decided,
// constants and layouts computed, and the commands kept in order with their
// slot and uniform operands unresolved. Each hal.device.queue.execute.indirect
// resolves them against its binding table and uniforms, as a device reads its
// descriptors and uniform data when it runs them, after checking that slots
// the recording assumed disjoint are bound to disjoint bytes.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "llvm/ADT/TypeSwitch.h"
#include <atomic>

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

/// The command ops a recording keeps (begin and end are not commands).
static bool isRecordedCommand(Operation *op) {
  return isa<
      hal::CommandBufferFillBufferOp, hal::CommandBufferCopyBufferOp,
      hal::CommandBufferPushDescriptorSetOp, hal::CommandBufferPushConstantsOp,
      hal::CommandBufferDispatchSymbolOp, hal::CommandBufferExecutionBarrierOp>(
      op);
}

/// Whether `op` becomes a command of a submission (a push only sets state).
static bool isExecutedCommand(Operation *op) {
  return isRecordedCommand(op) && !isa<hal::CommandBufferPushDescriptorSetOp,
                                       hal::CommandBufferPushConstantsOp>(op);
}

/// Records the ops of `block` (the memoize body or a chosen switch case)
/// into `recording`: host values computed once, commands kept.
static LogicalResult recordBlock(ExecutorImpl &exec, Block &block,
                                 MemoizedRecording &recording, unsigned depth) {
  for (Operation &op : block) {
    if (isRecordedCommand(&op)) {
      recording.commands.push_back(&op);
      continue;
    }
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](hal::CommandBufferBeginOp begin) {
              return *exec.recordCommand(op, recording.frame);
            })
            .Case([&](hal::CommandBufferEndOp end) -> LogicalResult {
              FailureOr<std::shared_ptr<CommandBufferState>> state =
                  exec.get<std::shared_ptr<CommandBufferState>>(
                      recording.frame, end.getCommandBuffer(), &op);
              if (failed(state))
                return failure();
              (*state)->ended = true;
              return success();
            })
            .Case([&](hal::DeviceSwitchOp switchOp) -> LogicalResult {
              FailureOr<Block *> chosen = exec.selectSwitchCase(switchOp);
              if (failed(chosen))
                return failure();
              return recordBlock(exec, **chosen, recording, depth);
            })
            .Case([&](hal::ReturnOp returnOp) -> LogicalResult {
              if (!isa<hal::DeviceMemoizeOp>(returnOp->getParentOp()))
                return success();
              FailureOr<std::shared_ptr<CommandBufferState>> state =
                  exec.get<std::shared_ptr<CommandBufferState>>(
                      recording.frame, returnOp.getValues()[0], &op);
              if (failed(state))
                return failure();
              recording.commandBuffer = *state;
              recording.commandBufferValue = returnOp.getValues()[0];
              return success();
            })
            .Default([&](Operation *) {
              return exec.runOp(op, recording.frame, depth);
            });
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult ExecutorImpl::runMemoize(hal::DeviceMemoizeOp memoize,
                                       Frame &frame, unsigned depth) {
  auto &recording = memoized[memoize.getOperation()];
  if (!recording) {
    auto fresh = std::make_unique<MemoizedRecording>();
    Block &body = memoize.getBody().front();
    // The executor has one device, an opaque handle.
    fresh->frame[body.getArgument(0)] = HandleValue{};
    if (failed(recordBlock(*this, body, *fresh, depth)))
      return failure();
    if (!fresh->commandBuffer || !fresh->commandBuffer->ended)
      return memoize.emitError()
             << "records a command buffer it does not end and return";
    fresh->commandBuffer->memoizedBy = memoize.getOperation();
    static std::atomic<uint64_t> nextSerial{1};
    fresh->serial = nextSerial++;
    commandCounts.recorded +=
        llvm::count_if(fresh->commands, isExecutedCommand);
    recording = std::move(fresh);
  }
  frame[memoize.getResult()] = recording->commandBuffer;
  return success();
}

/// Fails with an error at `execute` when two of `slots` in different alias
/// classes share a byte. Sorted by root and offset, the earlier ranges that
/// reach past a range's start all hold the byte before it: unless an overlap
/// was already found they are of one class, and the furthest-reaching one
/// stands for them.
static LogicalResult
checkSlotAliasing(hal::DeviceQueueExecuteIndirectOp execute,
                  ArrayRef<BufferRef> slots, ArrayRef<int64_t> classes) {
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < slots.size(); ++i)
    if (slots[i].length > 0)
      order.push_back(i);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_tuple(slots[a].root->getSerial(), slots[a].offset, a) <
           std::make_tuple(slots[b].root->getSerial(), slots[b].offset, b);
  });
  auto end = [&](unsigned slot) {
    return slots[slot].offset + slots[slot].length;
  };
  std::optional<unsigned> furthest;
  for (unsigned slot : order) {
    if (furthest && slots[*furthest].root != slots[slot].root)
      furthest = std::nullopt;
    if (furthest && end(*furthest) > slots[slot].offset &&
        classes[*furthest] != classes[slot])
      return execute.emitError()
             << "binds slot " << *furthest << " (alias class "
             << classes[*furthest] << ") and slot " << slot << " (alias class "
             << classes[slot] << ") to overlapping bytes of "
             << slots[slot].root->getName() << " ([" << slots[*furthest].offset
             << ", +" << slots[*furthest].length << ") and ["
             << slots[slot].offset << ", +" << slots[slot].length
             << ")): the memoized recording assumed they do not alias";
    if (!furthest || end(slot) > end(*furthest))
      furthest = slot;
  }
  return success();
}

LogicalResult
ExecutorImpl::runQueueExecuteIndirect(hal::DeviceQueueExecuteIndirectOp execute,
                                      Frame &frame, unsigned depth) {
  Operation *opPtr = execute.getOperation();
  FailureOr<std::shared_ptr<CommandBufferState>> state =
      get<std::shared_ptr<CommandBufferState>>(
          frame, execute.getCommandBuffer(), opPtr);
  if (failed(state))
    return failure();
  auto memoize =
      dyn_cast_if_present<hal::DeviceMemoizeOp>((*state)->memoizedBy);
  if (!memoize)
    return execute.emitError() << "submits a command buffer that no "
                                  "hal.device.memoize recorded";
  const MemoizedRecording &recording = *memoized.find(memoize)->second;
  Block::BlockArgListType slotArguments = memoize.getSlotArguments();
  Block::BlockArgListType uniformArguments = memoize.getUniformArguments();
  if (execute.getBindings().size() != slotArguments.size() ||
      execute.getUniforms().size() != uniformArguments.size())
    return execute.emitError()
           << "binds " << execute.getBindings().size() << " buffers and "
           << execute.getUniforms().size() << " uniforms to a recording of "
           << slotArguments.size() << " slots and " << uniformArguments.size()
           << " uniforms";
  // The tables of this submission, read by the recorded commands.
  Frame replayFrame = recording.frame;
  auto tables = std::make_shared<MemoizedTables>();
  tables->recording = recording.serial;
  std::vector<BufferRef> &slots = tables->slots;
  for (auto [argument, value] :
       llvm::zip(slotArguments, execute.getBindings())) {
    FailureOr<BufferRef> buffer = get<BufferRef>(frame, value, opPtr);
    if (failed(buffer))
      return failure();
    slots.push_back(*buffer);
    replayFrame[argument] = *buffer;
  }
  for (auto [argument, value] :
       llvm::zip(uniformArguments, execute.getUniforms())) {
    FailureOr<ScalarValue> scalar = get<ScalarValue>(frame, value, opPtr);
    if (failed(scalar))
      return failure();
    replayFrame[argument] = *scalar;
    tables->uniforms.push_back(scalar->bits);
  }
  if (failed(checkSlotAliasing(execute, slots, memoize.getSlotClasses())))
    return failure();

  // Resolve the recorded commands into the commands this submission runs;
  // recording's checks (ranges, device rules) hold for these buffers.
  auto instance = std::make_shared<CommandBufferState>();
  instance->begun = true;
  replayFrame[recording.commandBufferValue] = instance;
  for (Operation *command : recording.commands) {
    std::optional<LogicalResult> recorded =
        recordCommand(*command, replayFrame);
    if (!recorded || failed(*recorded)) {
      execute.emitError() << "cannot replay its memoized command buffer with "
                             "these bindings and uniforms (see above)";
      return failure();
    }
  }
  FailureOr<QueuedSubmission> submission = startSubmission(
      frame, opPtr, execute.getWaitFences(), execute.getSignalFence(), depth);
  if (failed(submission))
    return failure();
  for (const Command &command : instance->commands)
    llvm::append_range(submission->accesses, command.getAccesses());
  submission->commandBuffers.push_back(std::move(instance->commands));
  submission->memoizedBy = memoize.getOperation();
  submission->tables = std::move(tables);
  return queueSubmission(std::move(*submission));
}
