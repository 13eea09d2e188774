//===- ScheduleSubmissions.cpp - queue submissions ordered by fences ------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A block is walked in order with the list of submissions that are still
// pending (submitted, not yet awaited). A new submission waits on exactly the
// pending ones one of its accesses conflicts with (read-after-write,
// write-after-read, write-after-write on a root buffer; the model of
// docs/concurrency.md, now across command buffers), minus those another
// awaited fence already orders. The host awaits a pending submission only
// when it touches bytes the submission may write (or, for a host write, may
// read), and everything at a call, a region that may touch buffers, and at
// the block's terminator: the calling convention is synchronous, so a
// function returns finished results and leaves no work behind.
//
//===----------------------------------------------------------------------===//

#include "streamhal/Dialect/HAL/Transforms/ScheduleSubmissions.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/Analysis/WorkCounters.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"
#include <set>

#define DEBUG_TYPE "hal-schedule-submissions"

namespace streamhal::hal {
#define GEN_PASS_DEF_SCHEDULESUBMISSIONSPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal {
namespace {

/// A set of submission numbers kept as every number below `prefix` and the
/// others one by one: what a submission is ordered after is, on a chain, all
/// the submissions before it, which a bit vector per submission made
/// quadratic in time and memory; here it is one number.
class SubmissionSet {
public:
  bool contains(unsigned index) const {
    return index < prefix || rest.count(index);
  }
  void insert(unsigned index) {
    if (index >= prefix)
      rest.insert(index);
    compact();
  }
  void merge(const SubmissionSet &other) {
    prefix = std::max(prefix, other.prefix);
    rest.insert(other.rest.begin(), other.rest.end());
    compact();
  }

private:
  /// Folds the numbers that continue the prefix into it.
  void compact() {
    while (!rest.empty() && *rest.begin() <= prefix) {
      if (*rest.begin() == prefix)
        ++prefix;
      rest.erase(rest.begin());
    }
  }
  unsigned prefix = 0;
  std::set<unsigned> rest;
};

/// A submission that has been queued and not yet awaited.
struct PendingSubmission {
  /// The fence it signals.
  Value fence;
  /// The queue.execute, for debug output.
  Operation *op = nullptr;
  /// Its number among the scope's submissions.
  unsigned index = 0;
  /// What its commands read and write, indexed on the first query (a
  /// function of one fragment never asks).
  SmallVector<BufferAccess> accessList;
  std::unique_ptr<AccessBatch> accesses;
  /// The first access of the submission that conflicts with `access`.
  const BufferAccess *findConflict(const BufferAccess &access) {
    if (!accesses) {
      accesses = std::make_unique<AccessBatch>();
      for (const BufferAccess &listed : accessList)
        accesses->add(listed);
    }
    return accesses->findConflict(access);
  }
  /// Its commands could not all be found (a command buffer from outside the
  /// scope): it may touch any byte.
  bool touchesAnything = false;
  /// Submissions (by index) a chain of fences orders before it.
  SubmissionSet orderedAfter;
};

/// How an op that is not a submission relates to pending work.
enum class HostUse {
  /// Touches no byte of any buffer on the host.
  None,
  /// `hal.buffer.load` / `hal.buffer.store`: touches the bytes of its buffer.
  Access,
  /// May touch anything (a call, an unknown op with buffer operands, a
  /// region that may): every pending submission must have completed.
  Everything,
};

class SubmissionScheduler {
public:
  explicit SubmissionScheduler(Operation *scope)
      : commandAccesses(scope, resolver) {
    // Commands by command buffer (operand 0 of every command op), wherever
    // they are nested (device switch cases).
    for (Operation *command : commandAccesses.getCommands())
      if (command->getNumOperands() > 0)
        commandsOf[command->getOperand(0)].push_back(command);
  }

  void scheduleBlock(Block &block);

  SubmissionCounts counts;

private:
  void submit(hal::ExSubmitAndWaitOp op);
  /// Awaits the pending submissions in `awaited` (and with them all they are
  /// ordered after) right before `op`; `why` goes to the debug output.
  void awaitSubmissions(Operation *op, ArrayRef<unsigned> awaited, bool join,
                        StringRef why);
  void awaitEverything(Operation *op, bool join, StringRef why);
  /// The pending submissions (positions in `pending`) that conflict with a
  /// host access of `buffer`.
  SmallVector<unsigned> findConflicting(Value buffer, bool writes);
  HostUse classify(Operation *op) const;

  /// Declared before commandAccesses, which is built with it.
  BufferResolver resolver;
  CommandAccesses commandAccesses;
  DenseMap<Value, SmallVector<Operation *>> commandsOf;
  std::vector<PendingSubmission> pending;
  unsigned nextIndex = 0;

  /// The pending submissions (by number) that may conflict with `access`: a
  /// superset, from which accesses of other roots that cannot alias are
  /// left out, and reads when the access only reads. Newest first, each
  /// once. Replaces a comparison with every pending submission: a function
  /// of many fragments has that many pending until it returns.
  SmallVector<unsigned> findCandidates(ArrayRef<BufferAccess> accesses,
                                       bool touchesAnything);
  /// Indexes the accesses of the newest pending submission.
  void indexPending(ArrayRef<BufferAccess> accesses);
  /// Drops the index entries of submissions no longer pending.
  void reindexPending();

  /// A pending submission's access of a root, with its constant byte
  /// range when it has one.
  struct RootUser {
    unsigned index;
    std::optional<std::pair<int64_t, int64_t>> bounds;
  };
  /// Pending submissions by the roots they read and write. A write of a
  /// constant range drops the users whose constant ranges it covers: it is
  /// ordered after them, and whatever conflicts with them conflicts with
  /// it, so a slab whose bytes many submissions reuse keeps short lists.
  struct RootUsers {
    SmallVector<RootUser> readers, writers;
  };
  DenseMap<std::tuple<int, Value, Attribute>, RootUsers> usersOf;
  /// Users of the roots that may share bytes with other roots (all but
  /// allocations that do not escape).
  RootUsers aliasableUsers;
  /// Pending submissions that may touch any byte.
  SmallVector<unsigned> touchingAnything;
  /// Position in `pending` of each pending submission, by number.
  DenseMap<unsigned, unsigned> positionOf;
  /// Per submission number, the last query that listed it (deduplication).
  std::vector<unsigned> listedBy;
  unsigned queries = 0;
};

} // namespace

/// Returns true when a chain of fences orders submission `index` before
/// `submission`.
static bool isOrderedAfter(const PendingSubmission &submission,
                           unsigned index) {
  return submission.orderedAfter.contains(index);
}

/// Ops that use buffers without touching their bytes on the host: views,
/// recording, references stored in globals, the timeline itself.
static bool isTransparentBufferUser(Operation *op) {
  return isa<
      hal::BufferSubspanOp, hal::BufferViewCreateOp, hal::BufferViewBufferOp,
      hal::BufferViewDimOp, hal::TensorCastOp, hal::CommandBufferCreateOp,
      hal::CommandBufferBeginOp, hal::CommandBufferEndOp,
      hal::CommandBufferFillBufferOp, hal::CommandBufferCopyBufferOp,
      hal::CommandBufferPushDescriptorSetOp, hal::CommandBufferPushConstantsOp,
      hal::CommandBufferDispatchSymbolOp, hal::CommandBufferExecutionBarrierOp,
      hal::FenceCreateOp, hal::FenceJoinOp, hal::FenceAwaitOp,
      hal::DeviceQueueExecuteOp, hal::ReturnOp, util::GlobalStoreOp,
      util::GlobalStoreIndirectOp>(op);
}

static bool isBufferLike(Type type) {
  return isa<hal::BufferType, hal::BufferViewType>(type);
}

HostUse SubmissionScheduler::classify(Operation *op) const {
  if (isa<hal::BufferLoadOp, hal::BufferStoreOp>(op))
    return HostUse::Access;
  if (isa<CallOpInterface>(op))
    return HostUse::Everything;
  if (op->getNumRegions() > 0) {
    // A region holding anything but recording (a device switch records) may
    // run host code at any time: finish everything before it.
    WalkResult walk = op->walk([&](Operation *nested) {
      if (nested == op)
        return WalkResult::advance();
      if (isa<hal::ExSubmitAndWaitOp>(nested) ||
          classify(nested) != HostUse::None ||
          (nested->hasTrait<OpTrait::IsTerminator>() &&
           !isa<hal::ReturnOp>(nested)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return walk.wasInterrupted() ? HostUse::Everything : HostUse::None;
  }
  if (isTransparentBufferUser(op))
    return HostUse::None;
  if (llvm::any_of(op->getOperandTypes(), isBufferLike))
    return HostUse::Everything;
  return HostUse::None;
}

void SubmissionScheduler::submit(hal::ExSubmitAndWaitOp op) {
  PendingSubmission submission;
  submission.index = nextIndex++;
  SmallVector<BufferAccess> accesses;
  // A command buffer from elsewhere (an argument) may hold any command.
  submission.touchesAnything =
      !op.getCommandBuffer().getDefiningOp<hal::CommandBufferCreateOp>();
  auto commands = commandsOf.find(op.getCommandBuffer());
  if (commands != commandsOf.end())
    for (Operation *command : commands->second)
      llvm::append_range(accesses, commandAccesses.getAccesses(command));

  // The pending submissions it depends on, newest first: one that a
  // dependency found already is ordered after needs no fence of its own
  // (only a newer one can be ordered after it), and no conflict test.
  SmallVector<unsigned> candidates =
      findCandidates(accesses, submission.touchesAnything);
  countWork(Work::SubmissionComparisons, candidates.size());
  SmallVector<unsigned> waitsOn;
  for (unsigned index : candidates) {
    if (isOrderedAfter(submission, index))
      continue;
    PendingSubmission &earlier = pending[positionOf.lookup(index)];
    const BufferAccess *conflict = nullptr;
    bool depends = submission.touchesAnything || earlier.touchesAnything;
    for (const BufferAccess &access : accesses) {
      if (depends)
        break;
      conflict = earlier.findConflict(access);
      depends = conflict != nullptr;
    }
    if (!depends)
      continue;
    LLVM_DEBUG({
      llvm::dbgs() << "submission " << submission.index << " waits on "
                   << earlier.index << ": ";
      if (conflict)
        conflict->print(llvm::dbgs());
      else
        llvm::dbgs() << "unknown accesses";
      llvm::dbgs() << "\n";
    });
    submission.orderedAfter.merge(earlier.orderedAfter);
    submission.orderedAfter.insert(index);
    waitsOn.push_back(index);
  }
  // Fences in the order of the submissions.
  llvm::sort(waitsOn);
  SmallVector<Value> waits;
  for (unsigned index : waitsOn)
    waits.push_back(pending[positionOf.lookup(index)].fence);

  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value fence = hal::FenceCreateOp::create(
      builder, loc, hal::FenceType::get(op.getContext()), op.getDevice());
  auto execute = hal::DeviceQueueExecuteOp::create(
      builder, loc, op.getDevice(), waits, fence,
      ValueRange{op.getCommandBuffer()});
  submission.fence = fence;
  submission.op = execute;
  counts.submissions++;
  counts.waits += waits.size();
  op.erase();
  positionOf[submission.index] = pending.size();
  pending.push_back(std::move(submission));
  indexPending(accesses);
  pending.back().accessList = std::move(accesses);
}

SmallVector<unsigned>
SubmissionScheduler::findCandidates(ArrayRef<BufferAccess> accesses,
                                    bool touchesAnything) {
  ++queries;
  listedBy.resize(nextIndex, 0);
  SmallVector<unsigned> candidates;
  auto list = [&](unsigned index) {
    if (listedBy[index] == queries || !positionOf.count(index))
      return;
    listedBy[index] = queries;
    candidates.push_back(index);
  };
  auto listUsers = [&](const RootUsers &users, const BufferAccess &access,
                       bool sameRoot) {
    std::optional<std::pair<int64_t, int64_t>> bounds;
    if (sameRoot)
      bounds = access.range.getConstantBounds();
    auto listIfOverlapping = [&](const RootUser &user) {
      if (bounds && user.bounds &&
          (user.bounds->second <= bounds->first ||
           bounds->second <= user.bounds->first))
        return;
      list(user.index);
    };
    for (const RootUser &user : users.writers)
      listIfOverlapping(user);
    if (access.writes)
      for (const RootUser &user : users.readers)
        listIfOverlapping(user);
  };
  bool everything = touchesAnything;
  for (const BufferAccess &access : accesses) {
    if (access.root.kind == BufferRootKind::Unknown)
      everything = true;
    if (everything)
      break;
    auto own = usersOf.find({static_cast<int>(access.root.kind),
                             access.root.value, access.root.global});
    if (own != usersOf.end())
      listUsers(own->second, access, /*sameRoot=*/true);
    if (access.root.kind != BufferRootKind::Allocation || access.root.escapes)
      listUsers(aliasableUsers, access, /*sameRoot=*/false);
  }
  if (everything)
    for (const PendingSubmission &submission : pending)
      list(submission.index);
  for (unsigned index : touchingAnything)
    list(index);
  llvm::sort(candidates, std::greater<unsigned>());
  return candidates;
}

void SubmissionScheduler::indexPending(ArrayRef<BufferAccess> accesses) {
  const PendingSubmission &submission = pending.back();
  unsigned index = submission.index;
  bool anything = submission.touchesAnything;
  // What the submission does per root: one reader and one writer entry
  // each, and the constant ranges it writes.
  struct RootSummary {
    std::optional<RootUser> reader, writer;
    SmallVector<std::pair<int64_t, int64_t>> written;
  };
  // One entry per kind of access: the hull of the constant ranges, or no
  // bounds once one range is not constant.
  auto addToEntry = [](std::optional<RootUser> &entry, unsigned index,
                       std::optional<std::pair<int64_t, int64_t>> bounds) {
    if (!entry) {
      entry = RootUser{index, bounds};
      return;
    }
    if (!entry->bounds || !bounds) {
      entry->bounds = std::nullopt;
      return;
    }
    entry->bounds = {std::min(entry->bounds->first, bounds->first),
                     std::max(entry->bounds->second, bounds->second)};
  };
  llvm::MapVector<std::tuple<int, Value, Attribute>, RootSummary> summaries;
  RootSummary aliasable;
  for (const BufferAccess &access : accesses) {
    if (access.root.kind == BufferRootKind::Unknown) {
      anything = true;
      continue;
    }
    std::optional<std::pair<int64_t, int64_t>> bounds =
        access.range.getConstantBounds();
    RootSummary &summary = summaries[{static_cast<int>(access.root.kind),
                                      access.root.value, access.root.global}];
    if (access.reads)
      addToEntry(summary.reader, index, bounds);
    if (access.writes)
      addToEntry(summary.writer, index, bounds);
    if (access.writes && bounds && bounds->first < bounds->second)
      summary.written.push_back(*bounds);
    // Ranges of different roots are not comparable: no bounds there.
    if (access.root.kind != BufferRootKind::Allocation || access.root.escapes) {
      if (access.reads)
        addToEntry(aliasable.reader, index, std::nullopt);
      if (access.writes)
        addToEntry(aliasable.writer, index, std::nullopt);
    }
  }
  auto append = [](RootUsers &users, const RootSummary &summary) {
    if (summary.reader)
      users.readers.push_back(*summary.reader);
    if (summary.writer)
      users.writers.push_back(*summary.writer);
  };
  for (auto &[key, summary] : summaries) {
    RootUsers &users = usersOf[key];
    if (!summary.written.empty()) {
      // The union of the written ranges as disjoint runs; an earlier entry
      // inside one run is covered by this submission's writes.
      llvm::sort(summary.written);
      SmallVector<std::pair<int64_t, int64_t>> runs;
      for (auto range : summary.written) {
        if (!runs.empty() && range.first <= runs.back().second)
          runs.back().second = std::max(runs.back().second, range.second);
        else
          runs.push_back(range);
      }
      auto covered = [&](const RootUser &user) {
        if (!user.bounds || user.bounds->first >= user.bounds->second)
          return false;
        auto run = llvm::upper_bound(
            runs, user.bounds->first,
            [](int64_t value, const std::pair<int64_t, int64_t> &r) {
              return value < r.first;
            });
        if (run == runs.begin())
          return false;
        --run;
        return run->first <= user.bounds->first &&
               user.bounds->second <= run->second;
      };
      llvm::erase_if(users.readers, covered);
      llvm::erase_if(users.writers, covered);
    }
    append(users, summary);
  }
  append(aliasableUsers, aliasable);
  if (anything)
    touchingAnything.push_back(index);
}

void SubmissionScheduler::reindexPending() {
  positionOf.clear();
  for (auto [position, submission] : llvm::enumerate(pending))
    positionOf[submission.index] = position;
  auto prune = [&](SmallVector<RootUser> &list) {
    llvm::erase_if(list, [&](const RootUser &user) {
      return !positionOf.count(user.index);
    });
  };
  for (auto &entry : usersOf) {
    prune(entry.second.readers);
    prune(entry.second.writers);
  }
  prune(aliasableUsers.readers);
  prune(aliasableUsers.writers);
  llvm::erase_if(touchingAnything,
                 [&](unsigned index) { return !positionOf.count(index); });
}

void SubmissionScheduler::awaitSubmissions(Operation *op,
                                           ArrayRef<unsigned> awaited,
                                           bool join, StringRef why) {
  if (awaited.empty())
    return;
  // Awaiting a submission completes all it is ordered after: await only the
  // ones no other awaited one is ordered after.
  // One awaited submission is implied by another when that one is ordered
  // after it: when it is in the union of what they are ordered after (no
  // submission is ordered after itself).
  SubmissionSet done;
  for (unsigned position : awaited)
    done.merge(pending[position].orderedAfter);
  SmallVector<Value> fences;
  for (unsigned position : awaited)
    if (!done.contains(pending[position].index))
      fences.push_back(pending[position].fence);
  for (unsigned position : awaited)
    done.insert(pending[position].index);
  LLVM_DEBUG({
    llvm::dbgs() << "await " << fences.size() << " fence(s) before ";
    op->print(llvm::dbgs(), OpPrintingFlags().skipRegions());
    llvm::dbgs() << ": " << why << "\n";
  });
  OpBuilder builder(op);
  if (join && fences.size() > 1)
    fences = {hal::FenceJoinOp::create(
        builder, op->getLoc(), hal::FenceType::get(op->getContext()), fences)};
  hal::FenceAwaitOp::create(builder, op->getLoc(), fences);
  counts.awaits++;
  llvm::erase_if(pending, [&](const PendingSubmission &submission) {
    return done.contains(submission.index);
  });
  if (pending.empty()) {
    positionOf.clear();
    usersOf.clear();
    aliasableUsers = RootUsers();
    touchingAnything.clear();
  } else {
    reindexPending();
  }
}

void SubmissionScheduler::awaitEverything(Operation *op, bool join,
                                          StringRef why) {
  SmallVector<unsigned> all =
      llvm::to_vector(llvm::seq<unsigned>(0, pending.size()));
  awaitSubmissions(op, all, join, why);
}

SmallVector<unsigned> SubmissionScheduler::findConflicting(Value buffer,
                                                           bool writes) {
  // The whole buffer the host addresses: sound, and the lowering's host
  // accesses read whole small results anyway.
  BufferAccess access;
  std::tie(access.root, access.range) = resolver.resolve(buffer);
  access.reads = !writes;
  access.writes = writes;
  SmallVector<unsigned> conflicting;
  SmallVector<unsigned> candidates = findCandidates(access, false);
  countWork(Work::SubmissionComparisons, candidates.size());
  for (unsigned index : candidates) {
    unsigned position = positionOf.lookup(index);
    PendingSubmission &submission = pending[position];
    if (submission.touchesAnything || submission.findConflict(access))
      conflicting.push_back(position);
  }
  // In the order of the submissions.
  llvm::sort(conflicting);
  return conflicting;
}

void SubmissionScheduler::scheduleBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto submitOp = dyn_cast<hal::ExSubmitAndWaitOp>(op)) {
      submit(submitOp);
      continue;
    }
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      // Results complete at return, and nothing pending outlives the block.
      bool returns = op.hasTrait<OpTrait::ReturnLike>() &&
                     isa_and_nonnull<FunctionOpInterface, util::InitializerOp>(
                         op.getParentOp());
      awaitEverything(&op, /*join=*/returns,
                      returns ? "return: results complete, no work left"
                              : "end of block");
      continue;
    }
    switch (classify(&op)) {
    case HostUse::None:
      break;
    case HostUse::Access: {
      bool writes = isa<hal::BufferStoreOp>(op);
      Value buffer = writes ? cast<hal::BufferStoreOp>(op).getTargetBuffer()
                            : cast<hal::BufferLoadOp>(op).getSourceBuffer();
      awaitSubmissions(&op, findConflicting(buffer, writes), /*join=*/false,
                       writes ? "host write of bytes pending work touches"
                              : "host read of bytes pending work writes");
      break;
    }
    case HostUse::Everything:
      awaitEverything(&op, /*join=*/false,
                      "a call or region that may touch any buffer");
      // Whatever its regions submit is finished inside them.
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          scheduleBlock(nested);
      break;
    }
  }
  // A block without terminator (a graph region) leaves nothing pending
  // either: await at its end.
  if (!pending.empty()) {
    OpBuilder builder = OpBuilder::atBlockEnd(&block);
    auto marker = hal::FenceAwaitOp::create(
        builder, block.getParent()->getLoc(), ValueRange{pending.back().fence});
    awaitEverything(marker, /*join=*/false,
                    "end of a block without terminator");
    marker.erase();
  }
}

SubmissionCounts scheduleSubmissions(Operation *scope) {
  SubmissionCounts total;
  auto schedule = [&](Operation *root) {
    SubmissionScheduler scheduler(root);
    for (Region &region : root->getRegions())
      for (Block &block : region)
        scheduler.scheduleBlock(block);
    total.submissions += scheduler.counts.submissions;
    total.waits += scheduler.counts.waits;
    total.awaits += scheduler.counts.awaits;
  };
  scope->walk([&](Operation *op) {
    if (isa<FunctionOpInterface, util::InitializerOp>(op))
      schedule(op);
  });
  return total;
}

namespace {
struct ScheduleSubmissionsPass
    : public hal::impl::ScheduleSubmissionsPassBase<ScheduleSubmissionsPass> {
  void runOnOperation() override {
    SubmissionCounts counts = scheduleSubmissions(getOperation());
    numSubmissions += counts.submissions;
    numWaits += counts.waits;
    numAwaits += counts.awaits;
  }
};
} // namespace

} // namespace streamhal
