//===- Timeline.cpp - Reference executor: the device timeline -------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Queue submissions, fences and host waits (docs/async.md), from the
// contract alone. A `hal.device.queue.execute` captures its recorded
// commands and becomes pending; nothing runs until the host awaits a fence
// that needs it, which is the latest moment a device may run it, so a host
// access that the program forgot to wait for sees stale bytes instead of
// luckily finished ones. Checks, each at the op that breaks the rule:
// - two submissions that no chain of fences orders and whose concrete
//   ranges overlap with a write race (at the later one, note at the other);
// - a host read of bytes a pending submission writes, or a host write of
//   bytes it touches (at the host op, note at the submission);
// - a return while a result is written by pending work, or while a
//   submission of the returning activation is pending;
// - an await of a fence that nothing signals (the host would hang);
// - a use of a buffer after its release, and a second submission of a
//   command buffer.
// With --orders=K, the submissions one await completes also run in other
// orders the fences allow (reversed, then seeded shuffles) and must give
// the same bytes.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

using FencePtr = std::shared_ptr<FenceState>;

static FailureOr<FencePtr> getFence(Frame &frame, Value value,
                                    Operation *user) {
  auto it = frame.find(value);
  if (it == frame.end() || !std::holds_alternative<FencePtr>(it->second))
    return user->emitError() << "uses a value the executor has no fence for";
  return std::get<FencePtr>(it->second);
}

static FailureOr<SmallVector<FencePtr>>
getFences(Frame &frame, ValueRange values, Operation *user) {
  SmallVector<FencePtr> fences;
  for (Value value : values) {
    FailureOr<FencePtr> fence = getFence(frame, value, user);
    if (failed(fence))
      return failure();
    fences.push_back(*fence);
  }
  return fences;
}

static bool isSignalled(const FenceState &fence) {
  if (!fence.parts.empty())
    return llvm::all_of(
        fence.parts, [](const FencePtr &part) { return isSignalled(*part); });
  return fence.signalled;
}

static std::string describe(const BufferRef &ref) {
  return formatRange(ref.offset, ref.length) + " of " + ref.root->getName();
}

/// The common bytes of two ranges of one root, if any.
static std::optional<std::pair<int64_t, int64_t>>
getOverlap(const BufferRef &a, const BufferRef &b) {
  if (a.root != b.root)
    return std::nullopt;
  int64_t begin = std::max(a.offset, b.offset);
  int64_t end = std::min(a.offset + a.length, b.offset + b.length);
  if (begin >= end)
    return std::nullopt;
  return std::make_pair(begin, end);
}

/// Reports the first conflicting pair of `later`'s and `earlier`'s accesses.
static LogicalResult checkUnordered(Operation *laterOp, ArrayRef<Access> later,
                                    const QueuedSubmission &earlier) {
  for (const Access &a : later)
    for (const Access &b : earlier.accesses) {
      if (!(a.writes || b.writes))
        continue;
      std::optional<std::pair<int64_t, int64_t>> overlap =
          getOverlap(a.range, b.range);
      if (!overlap)
        continue;
      InFlightDiagnostic diag =
          laterOp->emitError()
          << "races with a pending submission that no chain of fences "
             "orders before it: it "
          << (a.writes ? "writes " : "reads ") << describe(a.range)
          << ", the other " << (b.writes ? "writes " : "reads ")
          << describe(b.range) << " (overlap [" << overlap->first << ", "
          << overlap->second << "))";
      diag.attachNote(earlier.op->getLoc()) << "the other submission";
      return failure();
    }
  return success();
}

LogicalResult ExecutorImpl::checkNotReleased(Operation *user,
                                             const BufferRef &ref) {
  // Every use is queued or run after the release is queued, and no release
  // may wait on a signaller queued after it (startSubmission), so nothing
  // that comes later in program order is ordered before the release.
  Operation *dealloca = ref.root ? ref.root->getRelease() : nullptr;
  if (!dealloca)
    return success();
  InFlightDiagnostic diag = user->emitError() << "uses " << ref.root->getName()
                                              << " after its release";
  diag.attachNote(dealloca->getLoc()) << "released here";
  return failure();
}

LogicalResult ExecutorImpl::checkResubmission(Operation *op,
                                              CommandBufferState &state,
                                              const Twine &what) {
  if (!state.submittedBy || !state.oneShot) {
    if (!state.submittedBy)
      state.submittedBy = op;
    return success();
  }
  InFlightDiagnostic diag = op->emitError()
                            << "submits " << what
                            << " a second time; a one-shot command buffer "
                               "runs once";
  diag.attachNote(state.submittedBy->getLoc()) << "its first submission";
  return failure();
}

/// Every access of `commands`.
static void appendAccesses(ArrayRef<Command> commands,
                           SmallVectorImpl<Access> &accesses) {
  for (const Command &command : commands)
    llvm::append_range(accesses, command.getAccesses());
}

/// hal.fence.create: a fence nothing signals yet.
static LogicalResult runFenceCreate(Frame &frame, hal::FenceCreateOp create) {
  auto fence = std::make_shared<FenceState>();
  fence->op = create.getOperation();
  frame[create.getResult()] = fence;
  return success();
}

/// hal.fence.join: a fence signalled once all of its parts are.
static LogicalResult runFenceJoin(Frame &frame, hal::FenceJoinOp join) {
  Operation *opPtr = join.getOperation();
  FailureOr<SmallVector<FencePtr>> parts =
      getFences(frame, join.getFences(), opPtr);
  if (failed(parts))
    return failure();
  auto fence = std::make_shared<FenceState>();
  fence->op = opPtr;
  fence->parts = std::move(*parts);
  frame[join.getResult()] = fence;
  return success();
}

/// hal.device.queue.execute: queues the recorded commands of its command
/// buffers.
static LogicalResult runQueueExecute(ExecutorImpl &exec, Frame &frame,
                                     hal::DeviceQueueExecuteOp execute,
                                     unsigned depth) {
  Operation *opPtr = execute.getOperation();
  FailureOr<QueuedSubmission> submission = exec.startSubmission(
      frame, opPtr, execute.getWaitFences(), execute.getSignalFence(), depth);
  if (failed(submission))
    return failure();
  for (auto [index, value] : llvm::enumerate(execute.getCommandBuffers())) {
    FailureOr<std::shared_ptr<CommandBufferState>> state =
        exec.get<std::shared_ptr<CommandBufferState>>(frame, value, opPtr);
    if (failed(state))
      return failure();
    if (!(*state)->begun || !(*state)->ended)
      return execute.emitError() << "submits command buffer " << index
                                 << ", which was not begun and ended";
    if ((*state)->memoizedBy)
      return execute.emitError()
             << "submits command buffer " << index
             << ", a memoized one, without its bindings and uniforms";
    if (failed(exec.checkResubmission(opPtr, **state,
                                      "command buffer " + Twine(index))))
      return failure();
    submission->commandBuffers.push_back((*state)->commands);
    appendAccesses((*state)->commands, submission->accesses);
    // A one-shot command buffer runs once; a reusable one keeps its
    // commands for the next submission.
    if ((*state)->oneShot)
      (*state)->commands.clear();
  }
  return exec.queueSubmission(std::move(*submission));
}

/// hal.device.queue.alloca: an allocation that exists once its fence is
/// signalled.
static LogicalResult runQueueAlloca(ExecutorImpl &exec, Frame &frame,
                                    hal::DeviceQueueAllocaOp alloca,
                                    unsigned depth) {
  Operation *opPtr = alloca.getOperation();
  FailureOr<QueuedSubmission> submission = exec.startSubmission(
      frame, opPtr, alloca.getWaitFences(), alloca.getSignalFence(), depth);
  if (failed(submission))
    return failure();
  FailureOr<BufferRef> whole = exec.allocateBuffer(
      opPtr, frame, alloca.getResultSize(), alloca.getMemoryTypes());
  if (failed(whole))
    return failure();
  frame[alloca.getResult()] = *whole;
  // The buffer exists once the fence is signalled: until then any use
  // conflicts with the allocation as with a write of every byte.
  submission->accesses.push_back({*whole, /*reads=*/false, /*writes=*/true});
  return exec.queueSubmission(std::move(*submission));
}

/// hal.device.queue.dealloca: releases a buffer once its fence is signalled.
static LogicalResult runQueueDealloca(ExecutorImpl &exec, Frame &frame,
                                      hal::DeviceQueueDeallocaOp dealloca,
                                      unsigned depth) {
  Operation *opPtr = dealloca.getOperation();
  FailureOr<QueuedSubmission> submission = exec.startSubmission(
      frame, opPtr, dealloca.getWaitFences(), dealloca.getSignalFence(), depth);
  if (failed(submission))
    return failure();
  FailureOr<BufferRef> buffer =
      exec.get<BufferRef>(frame, dealloca.getBuffer(), opPtr);
  if (failed(buffer))
    return failure();
  // Releasing the bytes conflicts with every use not ordered before.
  submission->accesses.push_back({*buffer, /*reads=*/false, /*writes=*/true});
  if (failed(exec.queueSubmission(std::move(*submission))))
    return failure();
  // Every later use, a second release included, is a use after free:
  // the queued release cannot be ordered after it.
  buffer->root->setReleased(opPtr);
  return success();
}

/// hal.fence.await: runs the pending submissions its fences need.
static LogicalResult runFenceAwait(ExecutorImpl &exec, Frame &frame,
                                   hal::FenceAwaitOp await) {
  Operation *opPtr = await.getOperation();
  FailureOr<SmallVector<FencePtr>> fences =
      getFences(frame, await.getFences(), opPtr);
  if (failed(fences))
    return failure();
  std::set<unsigned> needed;
  std::function<LogicalResult(const FencePtr &)> need =
      [&](const FencePtr &fence) -> LogicalResult {
    for (const FencePtr &part : fence->parts)
      if (failed(need(part)))
        return failure();
    if (!fence->parts.empty() || fence->signalled)
      return success();
    if (fence->signaller < 0) {
      InFlightDiagnostic diag = await.emitError()
                                << "awaits a fence that no submission "
                                   "signals: the host would wait forever";
      diag.attachNote(fence->op->getLoc()) << "the fence";
      return failure();
    }
    unsigned index = static_cast<unsigned>(fence->signaller);
    needed.insert(index);
    for (unsigned earlier : exec.submissions[index].after.set_bits())
      if (!exec.submissions[earlier].completed)
        needed.insert(earlier);
    return success();
  };
  for (const FencePtr &fence : *fences)
    if (failed(need(fence)))
      return failure();
  SmallVector<unsigned> indices(needed.begin(), needed.end());
  return exec.runSubmissions(opPtr, indices);
}

LogicalResult ExecutorImpl::runTimelineOp(Operation &op, Frame &frame,
                                          unsigned depth) {
  Operation *opPtr = &op;
  return llvm::TypeSwitch<Operation *, LogicalResult>(opPtr)
      .Case([&](hal::FenceCreateOp create) {
        return runFenceCreate(frame, create);
      })
      .Case([&](hal::FenceJoinOp join) { return runFenceJoin(frame, join); })
      .Case([&](hal::DeviceQueueExecuteOp execute) {
        return runQueueExecute(*this, frame, execute, depth);
      })
      .Case([&](hal::DeviceQueueExecuteIndirectOp execute) {
        return runQueueExecuteIndirect(execute, frame, depth);
      })
      .Case([&](hal::DeviceQueueAllocaOp alloca) {
        return runQueueAlloca(*this, frame, alloca, depth);
      })
      .Case([&](hal::DeviceQueueDeallocaOp dealloca) {
        return runQueueDealloca(*this, frame, dealloca, depth);
      })
      .Case([&](hal::FenceAwaitOp await) {
        return runFenceAwait(*this, frame, await);
      })
      .Default([&](Operation *) {
        return op.emitError() << "is not a timeline op";
      });
}

FailureOr<QueuedSubmission> ExecutorImpl::startSubmission(Frame &frame,
                                                          Operation *op,
                                                          ValueRange waitValues,
                                                          Value signalValue,
                                                          unsigned depth) {
  FailureOr<SmallVector<FencePtr>> waits = getFences(frame, waitValues, op);
  FailureOr<FencePtr> signal = getFence(frame, signalValue, op);
  if (failed(waits) || failed(signal))
    return failure();
  if (!(*signal)->parts.empty())
    return op->emitError() << "signals a joined fence";
  if ((*signal)->signaller >= 0 || (*signal)->signalled) {
    InFlightDiagnostic diag =
        op->emitError() << "signals a fence that is already signalled or to "
                           "be signalled: a fence is signalled once";
    if ((*signal)->signaller >= 0)
      diag.attachNote(submissions[(*signal)->signaller].op->getLoc())
          << "its first signaller";
    return failure();
  }
  QueuedSubmission submission;
  submission.op = op;
  submission.depth = depth;
  submission.signal = *signal;
  // Ordered after whatever signals its waits, transitively. A fence nobody
  // signals yet would make the executor guess the order.
  std::function<LogicalResult(const FencePtr &)> orderAfter =
      [&](const FencePtr &fence) -> LogicalResult {
    for (const FencePtr &part : fence->parts)
      if (failed(orderAfter(part)))
        return failure();
    if (!fence->parts.empty() || fence->signalled)
      return success();
    if (fence->signaller < 0) {
      InFlightDiagnostic diag =
          op->emitError() << "waits on a fence that no submission signals yet "
                             "(the executor requires its signaller to be "
                             "queued first)";
      diag.attachNote(fence->op->getLoc()) << "the fence";
      return failure();
    }
    unsigned index = static_cast<unsigned>(fence->signaller);
    submission.waits.insert(index);
    const llvm::BitVector &earlier = submissions[index].after;
    if (submission.after.size() <= index)
      submission.after.resize(index + 1);
    submission.after.set(index);
    submission.after |= earlier;
    return success();
  };
  for (const FencePtr &wait : *waits)
    if (failed(orderAfter(wait)))
      return failure();
  return submission;
}

LogicalResult ExecutorImpl::queueSubmission(QueuedSubmission submission) {
  for (const Access &access : submission.accesses)
    if (failed(checkNotReleased(submission.op, access.range)))
      return failure();
  if (!options.skipTimelineRaces) {
    llvm::BitVector unordered = pendingSubmissions;
    unordered.reset(submission.after);
    for (unsigned index : unordered.set_bits())
      if (failed(checkUnordered(submission.op, submission.accesses,
                                submissions[index])))
        return failure();
  }
  submission.signal->signaller = static_cast<int64_t>(submissions.size());
  pendingSubmissions.resize(submissions.size() + 1);
  pendingSubmissions.set(submissions.size());
  submissions.push_back(std::move(submission));
  return success();
}

LogicalResult ExecutorImpl::checkHostAgainstPending(Operation *op,
                                                    const BufferRef &ref,
                                                    bool writes) {
  for (unsigned index : pendingSubmissions.set_bits()) {
    const QueuedSubmission &submission = submissions[index];
    for (const Access &access : submission.accesses) {
      if (!(writes || access.writes))
        continue;
      std::optional<std::pair<int64_t, int64_t>> overlap =
          getOverlap(ref, access.range);
      if (!overlap)
        continue;
      InFlightDiagnostic diag =
          op->emitError() << "the host " << (writes ? "writes " : "reads ")
                          << describe(ref) << " while a pending submission "
                          << (access.writes ? "writes " : "reads ")
                          << describe(access.range)
                          << ": await its fence first";
      diag.attachNote(submission.op->getLoc()) << "the pending submission";
      return failure();
    }
  }
  return success();
}

LogicalResult
ExecutorImpl::checkBlockingSubmission(Operation *op,
                                      const CommandBufferState &state) {
  // A blocking submission waits for no fence: it is unordered with every
  // pending submission.
  SmallVector<Access> accesses;
  appendAccesses(state.commands, accesses);
  for (const Access &access : accesses)
    if (failed(checkNotReleased(op, access.range)))
      return failure();
  for (unsigned index : pendingSubmissions.set_bits())
    if (failed(checkUnordered(op, accesses, submissions[index])))
      return failure();
  return success();
}

LogicalResult ExecutorImpl::checkReturnTimeline(Operation *op,
                                                ArrayRef<RuntimeValue> results,
                                                unsigned depth) {
  for (auto [index, result] : llvm::enumerate(results)) {
    const BufferRef *ref = std::get_if<BufferRef>(&result);
    if (const auto *view = std::get_if<BufferViewValue>(&result))
      ref = &view->buffer;
    if (!ref || !ref->root)
      continue;
    for (unsigned pending : pendingSubmissions.set_bits()) {
      const QueuedSubmission &submission = submissions[pending];
      for (const Access &access : submission.accesses)
        if (access.writes && getOverlap(*ref, access.range)) {
          InFlightDiagnostic diag = op->emitError()
                                    << "returns result " << index << " ("
                                    << describe(*ref)
                                    << ") while a pending submission writes "
                                    << describe(access.range)
                                    << ": results must be complete at return";
          diag.attachNote(submission.op->getLoc()) << "the pending submission";
          return failure();
        }
    }
  }
  for (unsigned index : pendingSubmissions.set_bits())
    if (const QueuedSubmission &submission = submissions[index];
        submission.depth == depth) {
      InFlightDiagnostic diag = op->emitError()
                                << "returns while a submission it issued is "
                                   "pending: await its fence before returning";
      diag.attachNote(submission.op->getLoc()) << "the pending submission";
      return failure();
    }
  return success();
}

/// A topological order of `indices` (ascending issue order): `order` 1
/// prefers the latest-issued ready submission, later orders a seeded pick.
static SmallVector<unsigned>
getOtherOrder(ArrayRef<unsigned> indices,
              const std::vector<QueuedSubmission> &submissions, unsigned order,
              SplitMix64 &shuffle) {
  SmallVector<unsigned> result;
  std::set<unsigned> done;
  SmallVector<unsigned> left(indices.begin(), indices.end());
  while (!left.empty()) {
    SmallVector<size_t> ready;
    for (auto [position, index] : llvm::enumerate(left))
      if (llvm::all_of(
              submissions[index].after.set_bits(), [&](unsigned earlier) {
                return submissions[earlier].completed || done.count(earlier) ||
                       !llvm::is_contained(left, earlier);
              }))
        ready.push_back(position);
    size_t pick =
        order == 1 ? ready.back() : ready[shuffle.next() % ready.size()];
    result.push_back(left[pick]);
    done.insert(left[pick]);
    left.erase(left.begin() + pick);
  }
  return result;
}

LogicalResult ExecutorImpl::runSubmissions(Operation *awaitOp,
                                           ArrayRef<unsigned> indices) {
  auto runInProgramOrder = [&]() -> LogicalResult {
    if (options.device) {
      // The device runs the group as one (a real one: as queue submissions
      // that wait on each other as the fences say, Device.h).
      SmallVector<SubmissionToRun> group;
      for (unsigned index : indices) {
        QueuedSubmission &queued = submissions[index];
        SubmissionToRun entry;
        entry.op = queued.op;
        entry.commandBuffers = queued.commandBuffers;
        entry.memoizedBy = queued.memoizedBy;
        entry.tables = queued.tables.get();
        for (auto [position, other] : llvm::enumerate(indices))
          if (queued.waits.count(other))
            entry.waits.push_back(position);
        for (const std::vector<Command> &commands : queued.commandBuffers)
          countSubmitted(commands);
        group.push_back(std::move(entry));
      }
      return options.device->runSubmissions(*this, awaitOp, group);
    }
    for (unsigned index : indices)
      for (std::vector<Command> &commands : submissions[index].commandBuffers) {
        CommandBufferState state;
        state.begun = state.ended = true;
        state.commands = commands;
        if (failed(submit(submissions[index].op, state)))
          return failure();
      }
    return success();
  };
  auto complete = [&]() {
    for (unsigned index : indices) {
      submissions[index].completed = true;
      pendingSubmissions.reset(index);
      // Only pending submissions' orders are asked for.
      submissions[index].after = llvm::BitVector();
      submissions[index].signal->signalled = true;
      // Completed work is never run again: drop its commands.
      submissions[index].commandBuffers.clear();
      submissions[index].accesses.clear();
    }
  };
  // Only submissions the fences leave unordered can run in other orders.
  bool unordered = false;
  for (size_t i = 1; i < indices.size() && !unordered; ++i)
    unordered = !submissions[indices[i]].isAfter(indices[i - 1]);
  if (options.orders <= 1 || !unordered) {
    if (failed(runInProgramOrder()))
      return failure();
    complete();
    return success();
  }

  llvm::SetVector<RootBuffer *> roots;
  for (unsigned index : indices)
    for (const Access &access : submissions[index].accesses)
      roots.insert(access.range.root.get());
  SplitMix64 shuffle(options.seed ^ 0x71e11e5eedull);
  if (failed(runInOrders(
          awaitOp, roots.getArrayRef(), "running the submissions it awaits",
          runInProgramOrder,
          [&](unsigned order) -> LogicalResult {
            for (unsigned index :
                 getOtherOrder(indices, submissions, order, shuffle))
              for (const std::vector<Command> &commands :
                   submissions[index].commandBuffers)
                for (const Command &command : commands)
                  if (failed(executeCommand(command, /*record=*/false)))
                    return awaitOp->emitError()
                           << "fails when the submissions it awaits run in "
                              "another order the fences allow (order "
                           << order << "): a missing fence";
            return success();
          },
          [&](unsigned order, RootBuffer &root, int64_t byte,
              const RootBuffer::Snapshot &expected) {
            Operation *then = expected.getLastWriter(byte);
            InFlightDiagnostic diag =
                awaitOp->emitError()
                << "race: the submissions it awaits give different bytes in "
                   "order "
                << order << " than in issue order (byte " << byte << " of "
                << root.getName() << "): a missing fence";
            if (then)
              diag.attachNote(then->getLoc())
                  << "in issue order written by this";
          })))
    return failure();
  complete();
  return success();
}
