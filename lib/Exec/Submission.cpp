//===- Submission.cpp - Reference executor: running command buffers -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// At `submit_and_wait` the recorded commands run batch by batch (a batch is
// what lies between two barriers). Inside a batch the device may run
// commands in any order, so two commands whose concrete byte ranges overlap
// on one root with a write are a race; every batch also runs in several
// orders and must give the same bytes.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include <map>

using namespace mlir;
using namespace streamhal;
using namespace streamhal::exec;

SmallVector<Access> Command::getAccesses() const {
  SmallVector<Access> accesses;
  switch (kind) {
  case Kind::Fill:
    accesses.push_back({target, false, true});
    break;
  case Kind::Copy:
    accesses.push_back({source, true, false});
    accesses.push_back({target, false, true});
    break;
  case Kind::Dispatch:
    for (const Binding &binding : bindings)
      accesses.push_back({binding.range, binding.reads, binding.writes});
    break;
  case Kind::Barrier:
    break;
  }
  return accesses;
}

mlir::Operation *DispatchRecord::Read::getWriter(int64_t byte) const {
  auto it =
      llvm::upper_bound(writers, byte, [](int64_t at, const WriterRun &run) {
        return at < run.start;
      });
  return it == writers.begin() ? nullptr : std::prev(it)->writer;
}

static std::string describeRange(const BufferRef &ref) {
  return formatRange(ref.offset, ref.length) + " of " + ref.root->getName();
}

/// The last writers of `ref`'s bytes as runs counted from its start.
static SmallVector<DispatchRecord::Read::WriterRun>
getWriterRuns(const BufferRef &ref) {
  SmallVector<DispatchRecord::Read::WriterRun> runs;
  for (const StateRun &run : ref.root->getRuns(ref.offset, ref.length))
    if (runs.empty() || runs.back().writer != run.state.writer)
      runs.push_back({run.start - ref.offset, run.state.writer});
  return runs;
}

void ExecutorImpl::clearTrace() {
  trace.clear();
  memory->used -= traceBytes;
  traceBytes = 0;
}

/// Returns true when two concrete accesses touch a common byte of one root
/// and at least one writes.
static bool conflict(const Access &a, const Access &b) {
  if (a.range.root != b.range.root || !(a.writes || b.writes))
    return false;
  return std::max(a.range.offset, b.range.offset) <
         std::min(a.range.offset + a.range.length,
                  b.range.offset + b.range.length);
}

namespace {

/// The bytes a batch's commands read and write so far, per root, as maximal
/// disjoint runs: whether a new access conflicts with any of them is two
/// lookups, not a comparison with every access of the batch (batches of a
/// 100,000-dispatch fragment hold thousands).
class BatchFootprint {
public:
  bool conflictsWith(const Access &access) const {
    if (access.range.length <= 0)
      return false;
    auto it = roots.find(access.range.root.get());
    if (it == roots.end())
      return false;
    const Runs &runs = it->second;
    return touches(runs.written, access.range) ||
           (access.writes && touches(runs.read, access.range));
  }
  void add(const Access &access) {
    if (access.range.length <= 0)
      return;
    Runs &runs = roots[access.range.root.get()];
    if (access.reads)
      insert(runs.read, access.range);
    if (access.writes)
      insert(runs.written, access.range);
  }
  void clear() { roots.clear(); }

private:
  /// First byte -> one past the last, of runs that neither overlap nor touch.
  using RunMap = std::map<int64_t, int64_t>;
  struct Runs {
    RunMap read, written;
  };

  static bool touches(const RunMap &runs, const BufferRef &range) {
    int64_t end = range.offset + range.length;
    auto next = runs.upper_bound(range.offset);
    if (next != runs.end() && next->first < end)
      return true;
    return next != runs.begin() && std::prev(next)->second > range.offset;
  }
  static void insert(RunMap &runs, const BufferRef &range) {
    int64_t begin = range.offset, end = range.offset + range.length;
    auto run = runs.upper_bound(begin);
    if (run != runs.begin() && std::prev(run)->second >= begin)
      --run;
    // Every run overlapping or touching [begin, end) merges into one.
    while (run != runs.end() && run->first <= end) {
      begin = std::min(begin, run->first);
      end = std::max(end, run->second);
      run = runs.erase(run);
    }
    runs.emplace(begin, end);
  }

  llvm::DenseMap<RootBuffer *, Runs> roots;
};

} // namespace

/// The fewest barriers `commands` need in their order: one right before
/// each command that conflicts with a command since the last one. Moving
/// any barrier later would put a conflicting pair in one batch, so no
/// placement for this order has fewer.
static uint64_t countMinimumBarriers(ArrayRef<Command> commands) {
  uint64_t barriers = 0;
  BatchFootprint batch;
  for (const Command &command : commands) {
    if (command.kind == Command::Kind::Barrier)
      continue;
    SmallVector<Access> accesses = command.getAccesses();
    bool conflicts = llvm::any_of(accesses, [&](const Access &access) {
      return batch.conflictsWith(access);
    });
    if (conflicts) {
      ++barriers;
      batch.clear();
    }
    for (const Access &access : accesses)
      batch.add(access);
  }
  return barriers;
}

void ExecutorImpl::countSubmitted(ArrayRef<Command> commands) {
  commandCounts.executed += commands.size();
  barrierCounts.recorded +=
      llvm::count_if(commands, [](const Command &command) {
        return command.kind == Command::Kind::Barrier;
      });
  barrierCounts.minimum += countMinimumBarriers(commands);
  for (const Command &command : commands) {
    if (command.kind == Command::Kind::Barrier)
      continue;
    for (const Access &access : command.getAccesses())
      liveBytes.access(access.range.root->getSerial(), access.range.offset,
                       access.range.length, access.reads, access.writes);
    liveBytes.step();
  }
}

void ExecutorImpl::countTransients(ArrayRef<RuntimeValue> results) {
  // The buffers results live in are the caller's from now on, not
  // transients.
  llvm::DenseSet<uint64_t> returned;
  for (const RuntimeValue &result : results) {
    const BufferRef *buffer = std::get_if<BufferRef>(&result);
    if (auto *view = std::get_if<BufferViewValue>(&result))
      buffer = &view->buffer;
    if (buffer && buffer->root)
      returned.insert(buffer->root->getSerial());
  }
  auto isReturned = [&](uint64_t root) { return returned.contains(root); };
  memoryCounts.resultAllocations = llvm::count_if(
      returned, [&](uint64_t root) { return allocatedRoots.contains(root); });
  memoryCounts.transientAllocations =
      liveBytes.countTracked([&](uint64_t root) {
        return isReturned(root) || !allocatedRoots.contains(root);
      });
  memoryCounts.transientBytes = liveBytes.getTrackedBytes(isReturned);
  memoryCounts.transientLivePeak = liveBytes.getPeak(isReturned);
}

LogicalResult ExecutorImpl::submit(Operation *op, CommandBufferState &state) {
  if (!state.begun || !state.ended)
    return op->emitError() << "submits a command buffer that was not begun "
                              "and ended";
  if (state.memoizedBy)
    return op->emitError() << "submits a memoized command buffer without its "
                              "bindings and uniforms";
  if (failed(checkResubmission(op, state, "the command buffer")))
    return failure();
  countSubmitted(state.commands);
  // The device runs the commands (Device.h); the reference model unless
  // --device says otherwise.
  LogicalResult ran = options.device
                          ? options.device->run(*this, op, state.commands)
                          : runOnModel(state.commands);
  if (failed(ran))
    return failure();
  // A one-shot command buffer runs once; a reusable one keeps its commands
  // for the next submission.
  if (state.oneShot)
    state.commands.clear();
  return success();
}

LogicalResult ExecutorImpl::runOnModel(ArrayRef<Command> commands) {
  SmallVector<const Command *> batch;
  for (const Command &command : commands) {
    if (command.kind != Command::Kind::Barrier) {
      batch.push_back(&command);
      continue;
    }
    if (failed(runBatch(batch)))
      return failure();
    batch.clear();
  }
  return runBatch(batch);
}

/// Reports a race between two commands of one batch, if any: the first
/// command that conflicts with an earlier one, against the first of those.
static LogicalResult checkRaces(ArrayRef<const Command *> batch) {
  SmallVector<SmallVector<Access>> accesses;
  for (const Command *command : batch)
    accesses.push_back(command->getAccesses());
  // The footprint finds the first racing command; only its report compares
  // it with the commands before it one by one.
  BatchFootprint footprint;
  size_t later = 0;
  for (; later < batch.size(); ++later) {
    if (llvm::any_of(accesses[later], [&](const Access &access) {
          return footprint.conflictsWith(access);
        }))
      break;
    for (const Access &access : accesses[later])
      footprint.add(access);
  }
  if (later == batch.size())
    return success();
  for (size_t earlier = 0; earlier < later; ++earlier)
    for (const Access &a : accesses[later])
      for (const Access &b : accesses[earlier]) {
        if (!conflict(a, b))
          continue;
        int64_t begin = std::max(a.range.offset, b.range.offset);
        int64_t end = std::min(a.range.offset + a.range.length,
                               b.range.offset + b.range.length);
        InFlightDiagnostic diag =
            batch[later]->op->emitError()
            << "races with '" << batch[earlier]->op->getName()
            << "' in the same barrier-delimited batch: it "
            << (a.writes ? "writes " : "reads ") << describeRange(a.range)
            << ", the other " << (b.writes ? "writes " : "reads ")
            << describeRange(b.range) << " (overlap [" << begin << ", " << end
            << "))";
        diag.attachNote(batch[earlier]->op->getLoc())
            << "the other command of the race";
        return failure();
      }
  llvm_unreachable("the footprint found a conflict the pairs do not have");
}

/// Fails with an error at `command`'s op when a byte of `ref`, its `what`,
/// was never written.
static LogicalResult checkInitialized(const Command &command,
                                      const BufferRef &ref, StringRef what) {
  if (std::optional<int64_t> poison =
          ref.root->findUninitialized(ref.offset, ref.length))
    return command.op->emitError()
           << "reads uninitialized memory: byte " << *poison << " of "
           << ref.root->getName() << " (in its " << what << " "
           << describeRange(ref) << ") was never written";
  return success();
}

/// Runs a fill command: its pattern over its target, page by page.
static LogicalResult executeFill(ExecutorImpl &exec, const Command &command) {
  const BufferRef &target = command.target;
  if (failed(exec.reserveMemory(
          command.op,
          target.root->getUnmaterializedBytes(target.offset, target.length),
          "the fill")))
    return failure();
  // Page by page: a fill of 4 GiB needs no 4 GiB of pattern. Pieces are
  // a multiple of 4 bytes long, so the pattern runs on.
  std::vector<uint8_t> piece;
  for (int64_t done = 0; done < target.length;) {
    piece.resize(std::min(kPageBytes, target.length - done));
    for (size_t i = 0; i < piece.size(); ++i)
      piece[i] = static_cast<uint8_t>(command.pattern >> (8 * (i % 4)));
    target.root->write(target.offset + done, piece, command.op);
    done += static_cast<int64_t>(piece.size());
  }
  return success();
}

/// Runs a copy command: its initialized source bytes onto its target.
static LogicalResult executeCopy(ExecutorImpl &exec, const Command &command) {
  if (failed(checkInitialized(command, command.source, "source range")) ||
      failed(
          exec.reserveMemory(command.op,
                             command.target.root->getUnmaterializedBytes(
                                 command.target.offset, command.target.length),
                             "the copy")))
    return failure();
  command.target.root->copyFrom(*command.source.root, command.source.offset,
                                command.target.offset, command.target.length,
                                command.op);
  return success();
}

/// Runs a dispatch command on the reference model: its outputs from the
/// hash of its inputs; with `record`, appends it to the dispatch trace.
static LogicalResult executeDispatch(ExecutorImpl &exec, const Command &command,
                                     bool record) {
  DispatchInputs inputs;
  inputs.entrySymbol = command.entrySymbol;
  DispatchRecord traced;
  traced.op = command.op;
  traced.entrySymbol = command.entrySymbol;
  // Memory: a copy of every Read binding (kept by the trace when
  // recording), the largest output, and the pages the outputs add.
  int64_t readTotal = 0, largestWrite = 0, newPages = 0;
  for (const Command::Binding &binding : command.bindings) {
    const BufferRef &range = binding.range;
    if (binding.reads) {
      if (failed(checkInitialized(command, range, "binding")))
        return failure();
      readTotal += range.length;
    }
    if (binding.writes) {
      largestWrite = std::max(largestWrite, range.length);
      newPages +=
          range.root->getUnmaterializedBytes(range.offset, range.length);
    }
  }
  if (failed(exec.reserveMemory(command.op, readTotal + largestWrite + newPages,
                                "the dispatch")))
    return failure();
  std::vector<std::vector<uint8_t>> readBytes;
  for (const Command::Binding &binding : command.bindings)
    if (binding.reads)
      readBytes.push_back(binding.range.root->readBytes(binding.range.offset,
                                                        binding.range.length));
  size_t next = 0;
  for (const Command::Binding &binding : command.bindings)
    if (binding.reads)
      inputs.reads.push_back({binding.set, binding.binding, readBytes[next++]});
  inputs.pushConstants = command.pushConstants;
  inputs.workgroups = command.workgroups;
  uint64_t hash = hashDispatchInputs(inputs);
  if (record) {
    // Before the outputs overwrite them: the bytes and writers read.
    next = 0;
    for (const Command::Binding &binding : command.bindings) {
      if (!binding.reads)
        continue;
      DispatchRecord::Read read;
      read.set = binding.set;
      read.binding = binding.binding;
      read.bytes = std::move(readBytes[next++]);
      read.writers = getWriterRuns(binding.range);
      traced.reads.push_back(std::move(read));
    }
    exec.traceBytes += readTotal;
    exec.memory->used += readTotal;
  }
  for (const Command::Binding &binding : command.bindings) {
    if (!binding.writes)
      continue;
    std::vector<uint8_t> out(binding.range.length);
    expandDispatchOutput(hash, binding.set, binding.binding, out);
    binding.range.root->write(binding.range.offset, out, command.op);
  }
  if (record) {
    traced.pushConstants = command.pushConstants;
    traced.workgroups = command.workgroups;
    exec.trace.push_back(std::move(traced));
  }
  return success();
}

LogicalResult ExecutorImpl::executeCommand(const Command &command,
                                           bool record) {
  for (const Access &access : command.getAccesses())
    if (access.writes && access.range.root->isReadOnly())
      return command.op->emitError()
             << "writes " << describeRange(access.range)
             << ", constant storage (an immutable global) that is read-only";
  switch (command.kind) {
  case Command::Kind::Barrier:
    return success();
  case Command::Kind::Fill:
    return executeFill(*this, command);
  case Command::Kind::Copy:
    return executeCopy(*this, command);
  case Command::Kind::Dispatch:
    return executeDispatch(*this, command, record);
  }
  return success();
}

LogicalResult ExecutorImpl::runBatch(ArrayRef<const Command *> batch) {
  if (batch.empty())
    return success();
  if (failed(checkRaces(batch)))
    return failure();
  if (options.orders <= 1 || batch.size() == 1) {
    for (const Command *command : batch)
      if (failed(executeCommand(*command, /*record=*/true)))
        return failure();
    return success();
  }

  // Every root the batch touches, in first-touch order.
  llvm::SetVector<RootBuffer *> roots;
  for (const Command *command : batch)
    for (const Access &access : command->getAccesses())
      roots.insert(access.range.root.get());
  SplitMix64 shuffle(options.seed ^ 0x5eed0f0bde5ull);
  return runInOrders(
      batch.front()->op, roots.getArrayRef(),
      "running its barrier-delimited batch",
      [&]() -> LogicalResult {
        for (const Command *command : batch)
          if (failed(executeCommand(*command, /*record=*/true)))
            return failure();
        return success();
      },
      [&](unsigned order) -> LogicalResult {
        SmallVector<const Command *> permuted(batch.begin(), batch.end());
        if (order == 1) {
          std::reverse(permuted.begin(), permuted.end());
        } else {
          for (size_t i = permuted.size() - 1; i > 0; --i)
            std::swap(permuted[i], permuted[shuffle.next() % (i + 1)]);
        }
        for (const Command *command : permuted)
          if (failed(executeCommand(*command, /*record=*/false)))
            return batch.front()->op->emitError()
                   << "fails when its barrier-delimited batch runs in another "
                      "order (order "
                   << order << "): a race";
        return success();
      },
      [&](unsigned order, RootBuffer &root, int64_t byte,
          const RootBuffer::Snapshot &expected) {
        Operation *now = root.getLastWriter(byte);
        Operation *then = expected.getLastWriter(byte);
        Operation *blamed = now ? now : batch.front()->op;
        InFlightDiagnostic diag =
            blamed->emitError()
            << "race: its barrier-delimited batch gives different bytes in "
               "order "
            << order << " than in program order (byte " << byte << " of "
            << root.getName() << ")";
        if (then)
          diag.attachNote(then->getLoc()) << "in program order written by this";
      });
}

LogicalResult ExecutorImpl::runInOrders(
    Operation *user, ArrayRef<RootBuffer *> roots, const Twine &what,
    function_ref<LogicalResult()> runFirst,
    function_ref<LogicalResult(unsigned order)> runOther,
    function_ref<void(unsigned order, RootBuffer &root, int64_t byte,
                      const RootBuffer::Snapshot &expected)>
        reportDifference) {
  // The snapshots hold copies of the roots' pages while the work reruns.
  int64_t held = 0;
  llvm::scope_exit release([&] { memory->used -= held; });
  auto hold = [&]() -> LogicalResult {
    int64_t bytes = 0;
    for (RootBuffer *root : roots)
      bytes += root->getMaterializedBytes();
    if (failed(reserveMemory(
            user, bytes, what + " in " + Twine(options.orders) + " orders")))
      return failure();
    held += bytes;
    memory->used += bytes;
    return success();
  };
  if (failed(hold()))
    return failure();
  SmallVector<RootBuffer::Snapshot> before;
  for (RootBuffer *root : roots)
    before.push_back(root->snapshot());
  if (failed(runFirst()) || failed(hold()))
    return failure();
  SmallVector<RootBuffer::Snapshot> expected;
  for (RootBuffer *root : roots)
    expected.push_back(root->snapshot());

  for (unsigned order = 1; order < options.orders; ++order) {
    for (auto [root, saved] : llvm::zip(roots, before))
      root->restore(saved);
    if (failed(runOther(order)))
      return failure();
    for (auto [root, result] : llvm::zip(roots, expected))
      if (std::optional<int64_t> difference = root->firstDifference(result)) {
        reportDifference(order, *root, *difference, result);
        return failure();
      }
  }
  for (auto [root, result] : llvm::zip(roots, expected))
    root->restore(result);
  return success();
}
