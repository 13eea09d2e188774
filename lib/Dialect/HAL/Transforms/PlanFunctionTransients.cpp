//===- PlanFunctionTransients.cpp - one transient slab per function -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The conversion plans transient memory one fragment at a time: a slab per
// fragment and an allocation per value passed between fragments. This pass
// re-plans a whole block: every such piece of device-only memory gets a
// lifetime on the block's op order (its first and last command), and one
// pack places them all, so that a fragment's transients reuse the bytes of
// the values an earlier fragment no longer needs. With asynchronous
// submission the lifetimes also cover the submissions a piece's own
// submissions do not depend on, so that bytes are only shared along
// dependencies and the schedule keeps its concurrency (docs/lowering.md,
// "Transients per function").
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/IR/Transients.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "hal-plan-function-transients"

namespace streamhal::hal {
#define GEN_PASS_DEF_PLANFUNCTIONTRANSIENTSPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal {
namespace {

/// A run of memory to place: a slice of a fragment's pack, or a whole
/// allocation, with its size and closed lifetime on the block's timeline.
struct Piece {
  Value size;
  int64_t start = 0;
  int64_t end = 0;
};

/// A piece's lifetime, and whether its start was moved back to cover
/// submissions its own may run concurrently with.
struct Lifetime {
  int64_t start = 0;
  int64_t end = 0;
  bool covers = false;
  void merge(const Lifetime &other) {
    start = std::min(start, other.start);
    end = std::max(end, other.end);
    covers |= other.covers;
  }
};

/// What one or more pieces come from, replaced together: a fragment's pack
/// with its slab (one piece per slice), or one allocation (one piece). A
/// fragment whose submission may run concurrently with earlier ones keeps
/// its pack, moved to the function slab, and its slab is one piece
/// (`slabPack`): its slices share bytes among themselves only.
struct Group {
  Operation *owner = nullptr;
  hal::AllocatorPackOp pack;
  hal::AllocatorAllocateOp allocation;
  SmallVector<Piece> pieces;
  hal::AllocatorPackOp slabPack;
};

/// The submissions of one block in order, with for each the prefix of
/// earlier submissions it is known to be ordered after.
class BlockTimeline {
public:
  /// Returns std::nullopt when the block's recording is not the blocking
  /// form this pass plans (queue submissions, or command buffers recorded
  /// across each other).
  static std::optional<BlockTimeline> build(Block &block, bool async);

  int64_t getPosition(Operation *op) const {
    Operation *ancestor = block->findAncestorOpInBlock(*op);
    return ancestor ? positions.lookup(ancestor) : -1;
  }

  /// The lifetime of the buffer `value` from its commands, or std::nullopt
  /// when something other than a command of a submission of this block uses
  /// it (or one of its subspans).
  std::optional<Lifetime> getLifetime(Value value) const;

private:
  void addSubmission(hal::ExSubmitAndWaitOp submit, int64_t syncPrefix,
                     BufferResolver &resolver, bool async);

  Block *block = nullptr;
  DenseMap<Operation *, int64_t> positions;
  /// Index of the submission of each command buffer.
  DenseMap<Value, int64_t> submissionOf;
  /// Position of each submission's `hal.command_buffer.create`.
  SmallVector<int64_t> createPositions;
  /// Every submission before prefix[k] is ordered before submission k.
  SmallVector<int64_t> prefix;

  /// Per root (value, global): the last submission that wrote it and the
  /// ones that read it since.
  struct RootUsers {
    int64_t lastWriter = -1;
    SmallVector<int64_t> readers;
  };
  DenseMap<std::pair<Value, Attribute>, RootUsers> rootUsers;
};

std::optional<BlockTimeline> BlockTimeline::build(Block &block, bool async) {
  BlockTimeline timeline;
  timeline.block = &block;
  BufferResolver resolver;
  int64_t position = 0;
  int64_t syncPrefix = 0;
  int64_t lastSubmitPosition = -1;
  for (Operation &op : block) {
    timeline.positions[&op] = position++;
    if (isa<hal::DeviceQueueExecuteOp>(op))
      return std::nullopt;
    if (isa<hal::CommandBufferCreateOp>(op)) {
      // Recording must not start before the previous submission.
      if (timeline.positions[&op] < lastSubmitPosition)
        return std::nullopt;
      continue;
    }
    if (auto submit = dyn_cast<hal::ExSubmitAndWaitOp>(op)) {
      auto create =
          submit.getCommandBuffer().getDefiningOp<hal::CommandBufferCreateOp>();
      if (!create || create->getBlock() != &block ||
          timeline.submissionOf.count(submit.getCommandBuffer()) ||
          timeline.positions[create] < lastSubmitPosition)
        return std::nullopt;
      lastSubmitPosition = timeline.positions[&op];
      timeline.addSubmission(submit, syncPrefix, resolver, async);
      continue;
    }
    // The host waits for everything pending before a call or an op with
    // regions (docs/async.md): later submissions follow every earlier one.
    if (isa<CallOpInterface>(op) ||
        (op.getNumRegions() && !isa<hal::DeviceSwitchOp>(op)))
      syncPrefix = timeline.createPositions.size();
  }
  return timeline;
}

void BlockTimeline::addSubmission(hal::ExSubmitAndWaitOp submit,
                                  int64_t syncPrefix, BufferResolver &resolver,
                                  bool async) {
  Value commandBuffer = submit.getCommandBuffer();
  int64_t index = createPositions.size();
  submissionOf[commandBuffer] = index;
  createPositions.push_back(positions.lookup(commandBuffer.getDefiningOp()));
  if (!async) {
    // Each blocking submission completes before the next starts.
    prefix.push_back(index);
    return;
  }
  // Direct dependencies by root: read after write, write after read or
  // write. Two ranges of one root count as one; a dependency missed (an
  // unknown root) only makes the prefix shorter, which shares fewer bytes.
  SmallVector<int64_t> dependencies;
  SmallVector<std::pair<std::pair<Value, Attribute>, bool>> touched;
  for (Operation *user : commandBuffer.getUsers()) {
    if (!isBufferCommand(user))
      continue;
    for (const BufferAccess &access : resolver.getAccesses(user)) {
      if (access.root.kind == BufferRootKind::Unknown)
        continue;
      std::pair<Value, Attribute> key{access.root.value, access.root.global};
      RootUsers &users = rootUsers[key];
      if (users.lastWriter >= 0)
        dependencies.push_back(users.lastWriter);
      if (access.writes)
        llvm::append_range(dependencies, users.readers);
      touched.push_back({key, access.writes});
    }
  }
  for (auto [key, writes] : touched) {
    RootUsers &users = rootUsers[key];
    if (writes) {
      users.lastWriter = index;
      users.readers.clear();
    } else if (users.readers.empty() || users.readers.back() != index) {
      users.readers.push_back(index);
    }
  }
  // Submission q is ordered before `index` with all of q's own prefix.
  int64_t known = syncPrefix;
  for (int64_t q : dependencies)
    known = std::max(known, prefix[q]);
  llvm::sort(dependencies);
  for (int64_t q : dependencies)
    if (q == known)
      ++known;
  prefix.push_back(std::min(known, index));
}

std::optional<Lifetime> BlockTimeline::getLifetime(Value value) const {
  std::optional<Lifetime> lifetime;
  bool onlyCommands = forEachRecordingUse(value, [&](Operation *user) {
    auto submission = submissionOf.find(user->getOperand(0));
    if (submission == submissionOf.end())
      return false;
    int64_t position = getPosition(user);
    int64_t k = submission->second;
    // Bytes of submissions this one is not ordered after stay apart.
    bool covers = prefix[k] < k;
    Lifetime here{covers ? createPositions[prefix[k]] : position, position,
                  covers};
    if (!lifetime)
      lifetime = here;
    lifetime->merge(here);
    return true;
  });
  if (!onlyCommands)
    return std::nullopt;
  return lifetime;
}

/// The group of a fragment's pack, when it has the conversion's shape: its
/// total is the size of exactly one device-only allocation, which is used
/// only through subspans at the pack's offsets.
std::optional<Group> matchFragmentSlab(hal::AllocatorPackOp pack,
                                       const BlockTimeline &timeline) {
  if (pack.getOffset() || !pack.getTotalLength().hasOneUse())
    return std::nullopt;
  auto slab = dyn_cast<hal::AllocatorAllocateOp>(
      *pack.getTotalLength().getUsers().begin());
  if (!slab || slab->getBlock() != pack->getBlock() ||
      !hal::isDeviceOnlyTransient(slab) ||
      slab.getAllocator() != pack.getAllocator())
    return std::nullopt;
  for (Operation *user : slab.getResult().getUsers()) {
    auto subspan = dyn_cast<hal::BufferSubspanOp>(user);
    if (!subspan || subspan.getSourceBuffer() != slab.getResult() ||
        subspan.getSourceOffset().getDefiningOp() != pack)
      return std::nullopt;
  }
  Group group{pack, pack, slab, {}, {}};
  std::optional<Lifetime> whole;
  for (auto slice : pack.getSlices()) {
    Piece piece{slice.size, timeline.getPosition(pack),
                timeline.getPosition(pack)};
    std::optional<Lifetime> lifetime;
    for (Operation *user : slice.offset.getUsers()) {
      auto subspan = dyn_cast<hal::BufferSubspanOp>(user);
      if (!subspan || subspan.getSourceBuffer() != slab.getResult())
        return std::nullopt;
      auto range = timeline.getLifetime(subspan.getResult());
      if (!range && !subspan.getResult().use_empty())
        return std::nullopt;
      if (!range)
        continue;
      if (!lifetime)
        lifetime = range;
      lifetime->merge(*range);
    }
    if (lifetime) {
      piece.start = lifetime->start;
      piece.end = lifetime->end;
      if (!whole)
        whole = lifetime;
      whole->merge(*lifetime);
    }
    group.pieces.push_back(piece);
  }
  if (whole && whole->covers) {
    // Concurrent with earlier work: the slab is one piece, its own pack
    // places the slices inside it.
    group.slabPack = pack;
    group.pack = {};
    group.pieces = {{pack.getTotalLength(), whole->start, whole->end}};
  }
  return group;
}

/// Whether `value` is available at position `insertion` of `block`: a
/// constant (made again there), or defined before it or outside the block.
bool isAvailableAt(Value value, Block &block, int64_t insertion,
                   const BlockTimeline &timeline) {
  if (matchPattern(value, m_Constant()))
    return true;
  // A value the block uses from elsewhere comes from an enclosing block.
  Operation *definition = value.getDefiningOp();
  if (!definition || definition->getBlock() != &block)
    return true;
  return timeline.getPosition(definition) < insertion;
}

/// The groups of `block` in block order: fragment slabs of the conversion's
/// shape and device-only allocations only commands use.
SmallVector<Group> collectGroups(Block &block, const BlockTimeline &timeline) {
  SmallVector<Group> groups;
  DenseSet<Operation *> slabs;
  for (Operation &op : block) {
    if (auto pack = dyn_cast<hal::AllocatorPackOp>(op)) {
      if (std::optional<Group> group = matchFragmentSlab(pack, timeline)) {
        slabs.insert(group->allocation);
        groups.push_back(std::move(*group));
      }
      continue;
    }
    auto allocation = dyn_cast<hal::AllocatorAllocateOp>(op);
    if (!allocation || slabs.contains(allocation) ||
        !hal::isDeviceOnlyTransient(allocation))
      continue;
    std::optional<Lifetime> lifetime =
        timeline.getLifetime(allocation.getResult());
    if (!lifetime)
      continue;
    groups.push_back(
        {allocation,
         {},
         allocation,
         {{allocation.getResultSize(), lifetime->start, lifetime->end}},
         {}});
  }
  return groups;
}

/// Re-plans the pieces of `block`; returns the number of pieces placed.
unsigned planBlock(Block &block, bool async) {
  std::optional<BlockTimeline> timeline = BlockTimeline::build(block, async);
  if (!timeline)
    return 0;
  SmallVector<Group> groups = collectGroups(block, *timeline);
  if (groups.empty())
    return 0;

  // The slab is allocated where the first group was; a group whose size or
  // allocator is not known there keeps its own memory.
  Operation *insertion = groups.front().owner;
  int64_t insertionPosition = timeline->getPosition(insertion);
  Value allocator = groups.front().allocation.getAllocator();
  auto isPlaceable = [&](Group &group) {
    if (group.allocation.getAllocator() != allocator)
      return false;
    // A kept pack moves to the slab: what it reads must be known there.
    if (group.slabPack)
      return llvm::all_of(group.slabPack->getOperands(), [&](Value operand) {
        return isAvailableAt(operand, block, insertionPosition, *timeline);
      });
    return llvm::all_of(group.pieces, [&](const Piece &piece) {
      return isAvailableAt(piece.size, block, insertionPosition, *timeline);
    });
  };
  llvm::erase_if(groups, [&](Group &group) {
    bool keep = isPlaceable(group);
    LLVM_DEBUG(if (!keep) llvm::dbgs()
               << "keeps its own memory (size or allocator not known at the "
                  "slab): "
               << *group.owner << "\n");
    return !keep;
  });

  // Kept packs go first, their constant operands with them.
  for (Group &group : groups) {
    if (!group.slabPack || group.slabPack.getOperation() == insertion)
      continue;
    for (OpOperand &operand : group.slabPack->getOpOperands()) {
      Operation *definition = operand.get().getDefiningOp();
      if (definition && definition->getBlock() == &block &&
          timeline->getPosition(definition) >= insertionPosition &&
          matchPattern(operand.get(), m_Constant()))
        operand.set(OpBuilder(insertion).clone(*definition)->getResult(0));
    }
    group.slabPack->moveBefore(insertion);
  }
  // After a kept pack that was first, whose total is one of the sizes.
  OpBuilder builder(insertion);
  if (isa<hal::AllocatorPackOp>(insertion) &&
      llvm::any_of(groups, [&](Group &group) {
        return group.slabPack.getOperation() == insertion;
      }))
    builder.setInsertionPointAfter(insertion);
  Location loc = insertion->getLoc();
  SmallVector<Attribute> intervals;
  SmallVector<Value> sizes;
  llvm::SmallDenseMap<int64_t, Value> constants;
  for (const Group &group : groups) {
    for (const Piece &piece : group.pieces) {
      intervals.push_back(builder.getIndexAttr(piece.start));
      intervals.push_back(builder.getIndexAttr(piece.end));
      APInt constant;
      Value size = piece.size;
      if (matchPattern(size, m_ConstantInt(&constant))) {
        Value &materialized = constants[constant.getSExtValue()];
        if (!materialized)
          materialized = arith::ConstantIndexOp::create(
              builder, loc, constant.getSExtValue());
        size = materialized;
      }
      sizes.push_back(size);
      LLVM_DEBUG(llvm::dbgs() << "piece [" << piece.start << ", " << piece.end
                              << "] of " << *group.owner << "\n");
    }
  }
  Type indexType = builder.getIndexType();
  SmallVector<Type> offsetTypes(sizes.size(), indexType);
  auto pack = hal::AllocatorPackOp::create(
      builder, loc, indexType, offsetTypes, allocator,
      /*offset=*/Value(), builder.getArrayAttr(intervals), sizes);
  auto slab = hal::AllocatorAllocateOp::create(
      builder, loc, hal::BufferType::get(builder.getContext()), allocator,
      groups.front().allocation.getMemoryTypesAttr(),
      groups.front().allocation.getBufferUsageAttr(), pack.getTotalLength());
  slab->setAttr(hal::kFunctionTransientsAttrName, builder.getUnitAttr());

  unsigned next = 0;
  for (Group &group : groups) {
    if (group.pack) {
      for (Value offset : group.pack.getPackedOffsets())
        offset.replaceAllUsesWith(pack.getPackedOffsets()[next++]);
      group.allocation.getResult().replaceAllUsesWith(slab.getResult());
      group.allocation.erase();
      group.pack.erase();
      continue;
    }
    builder.setInsertionPoint(group.allocation);
    auto subspan = hal::BufferSubspanOp::create(
        builder, group.allocation.getLoc(), group.allocation.getType(),
        slab.getResult(), pack.getPackedOffsets()[next++],
        group.pieces.front().size);
    group.allocation.getResult().replaceAllUsesWith(subspan.getResult());
    group.allocation.erase();
  }
  return next;
}

struct PlanFunctionTransientsPass
    : public hal::impl::PlanFunctionTransientsPassBase<
          PlanFunctionTransientsPass> {
  using Base::Base;

  void runOnOperation() override {
    bool async = submission == SubmissionPolicy::Async;
    SmallVector<Block *> blocks;
    getOperation().walk([&](Operation *op) {
      if (!isa<func::FuncOp, util::InitializerOp>(op))
        return;
      // Recording inside a device switch belongs to its enclosing block.
      op->walk([&](Block *block) {
        if (!isa<hal::DeviceSwitchOp>(block->getParentOp()))
          blocks.push_back(block);
      });
    });
    for (Block *block : blocks) {
      unsigned pieces = planBlock(*block, async);
      numPieces += pieces;
      numSlabs += pieces ? 1 : 0;
    }
  }
};

} // namespace
} // namespace streamhal
