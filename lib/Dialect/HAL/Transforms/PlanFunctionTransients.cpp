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
// submission a piece's lifetime also covers every later submission that may
// run concurrently with one of its own (SubmissionOrder), so that bytes are
// only shared along dependencies and the schedule keeps its concurrency
// (docs/lowering.md, "Transients per function").
//
//===----------------------------------------------------------------------===//

#include "TransientSlabs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/Analysis/SubmissionOrder.h"
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

/// How many earlier submissions that may run concurrently with one the
/// order keeps exactly (SubmissionOrder); with more, fewer submissions are
/// known to be ordered and fewer bytes shared.
constexpr unsigned kMaxConcurrentExceptions = 32;

/// A run of memory to place: a slice of a fragment's pack, or a whole
/// allocation, with its size and closed lifetime on the block's timeline.
struct Piece {
  Value size;
  int64_t start = 0;
  int64_t end = 0;
};

/// A piece's lifetime, and whether it was widened (its start moved back or
/// its end moved on) to cover submissions its own may run concurrently
/// with.
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

/// The submissions of one block in order, and which are known to be
/// ordered after which.
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
  /// Decides, once the block is read, how the lifetimes of each pair of
  /// submissions that may run concurrently are made to overlap.
  void planConcurrentLifetimes();

  /// Positions of each submission's `hal.command_buffer.create` and
  /// `hal.ex.submit_and_wait`.
  SmallVector<int64_t> createPositions;
  SmallVector<int64_t> submitPositions;
  SubmissionOrder order{kMaxConcurrentExceptions};
  /// Per submission: the first earlier one its lifetimes start at (itself
  /// unless it moves them back), and the last later one they end at.
  std::vector<int64_t> startAt, endAt;

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
      syncPrefix = timeline.submitPositions.size();
  }
  timeline.planConcurrentLifetimes();
  return timeline;
}

void BlockTimeline::addSubmission(hal::ExSubmitAndWaitOp submit,
                                  int64_t syncPrefix, BufferResolver &resolver,
                                  bool async) {
  Value commandBuffer = submit.getCommandBuffer();
  int64_t index = submitPositions.size();
  submissionOf[commandBuffer] = index;
  createPositions.push_back(positions.lookup(commandBuffer.getDefiningOp()));
  submitPositions.push_back(positions.lookup(submit));
  if (!async) {
    // Each blocking submission completes before the next starts.
    order.add({}, index);
    return;
  }
  // Direct dependencies by root: read after write, write after read or
  // write. Two ranges of one root count as one; a dependency missed (an
  // unknown root) only makes fewer submissions ordered, which shares fewer
  // bytes.
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
  llvm::erase(dependencies, index);
  order.add(dependencies, syncPrefix);
}

void BlockTimeline::planConcurrentLifetimes() {
  // Bytes two concurrent submissions use must not be shared: the later
  // one's lifetimes start back at the earlier one (it "covers back"), or
  // the earlier one's end at the later one (it "covers on"). A submission
  // concurrent with several earlier ones covers back, so that those keep
  // sharing among themselves (a shortcut computed after a chain); one
  // concurrent with a single earlier one leaves it to cover on, so that
  // one long-lived branch (a clone read much later) does not keep every
  // later submission from sharing.
  int64_t count = order.size();
  startAt.resize(count);
  for (int64_t k = 0; k < count; ++k)
    startAt[k] = order.countConcurrentBefore(k) >= 2
                     ? order.getFirstConcurrentBefore(k)
                     : k;
  endAt = order.computeLastConcurrent(
      [&](int64_t later) { return startAt[later] != later; });
}

std::optional<Lifetime> BlockTimeline::getLifetime(Value value) const {
  std::optional<Lifetime> lifetime;
  bool onlyCommands = forEachRecordingUse(value, [&](Operation *user) {
    auto submission = submissionOf.find(user->getOperand(0));
    if (submission == submissionOf.end())
      return false;
    int64_t position = getPosition(user);
    int64_t k = submission->second;
    bool covers = startAt[k] != k || endAt[k] != k;
    Lifetime here{startAt[k] != k ? createPositions[startAt[k]] : position,
                  endAt[k] != k ? submitPositions[endAt[k]] : position, covers};
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

/// Makes sizes known where the slab is allocated: a value defined before
/// that position (or outside the block) is known there; one the block
/// computes later from known values, by ops without effects or regions
/// (shape arithmetic), is computed again there.
class SizeMaterializer {
public:
  SizeMaterializer(Block &block, Operation *insertion,
                   const BlockTimeline &timeline)
      : block(block), position(timeline.getPosition(insertion)),
        timeline(timeline), builder(insertion) {}

  /// Whether `value` is known at the slab or can be computed there.
  bool canMaterialize(Value value, unsigned depth = 0) {
    if (isDefinedBefore(value))
      return true;
    auto memo = materializable.find(value);
    if (memo != materializable.end())
      return memo->second;
    Operation *definition = value.getDefiningOp();
    bool result = definition && depth < kMaxDepth &&
                  !definition->getNumRegions() &&
                  isMemoryEffectFree(definition) &&
                  llvm::all_of(definition->getOperands(), [&](Value operand) {
                    return canMaterialize(operand, depth + 1);
                  });
    materializable[value] = result;
    return result;
  }

  /// `value` at the slab, computed again there when it is not known yet
  /// (canMaterialize must hold).
  Value materialize(Value value) {
    if (isDefinedBefore(value))
      return value;
    if (Value copy = copies.lookupOrNull(value))
      return copy;
    Operation *definition = value.getDefiningOp();
    for (Value operand : definition->getOperands())
      copies.map(operand, materialize(operand));
    Operation *clone = builder.clone(*definition, copies);
    LLVM_DEBUG(llvm::dbgs()
               << "computes a size again at the slab: " << *definition << "\n");
    return clone->getResult(cast<OpResult>(value).getResultNumber());
  }

private:
  /// Size expressions are shallow; deeper ones keep their own memory.
  static constexpr unsigned kMaxDepth = 64;

  bool isDefinedBefore(Value value) const {
    Operation *definition = value.getDefiningOp();
    if (!definition || definition->getBlock() != &block)
      return true;
    return timeline.getPosition(definition) < position;
  }

  Block &block;
  int64_t position;
  const BlockTimeline &timeline;
  OpBuilder builder;
  DenseMap<Value, bool> materializable;
  IRMapping copies;
};

/// The lifetime of `allocation` when its one use is the transient buffer a
/// call of this block passes its callee: the call only. The host waits
/// for all work before a call, and a callee's own work is done when it
/// returns (docs/async.md), so the bytes are free on either side.
std::optional<Lifetime> getCallLifetime(hal::AllocatorAllocateOp allocation,
                                        const BlockTimeline &timeline,
                                        SymbolTableCollection &symbols) {
  Value buffer = allocation.getResult();
  if (!buffer.hasOneUse())
    return std::nullopt;
  OpOperand &use = *buffer.use_begin();
  auto call = dyn_cast<func::CallOp>(use.getOwner());
  if (!call || call->getBlock() != allocation->getBlock() ||
      use.getOperandNumber() + 1 != call.getNumOperands())
    return std::nullopt;
  auto callee =
      symbols.lookupNearestSymbolFrom<func::FuncOp>(call, call.getCalleeAttr());
  if (!callee || !hal::takesCallerTransients(callee))
    return std::nullopt;
  int64_t position = timeline.getPosition(call);
  return Lifetime{position, position, false};
}

/// The groups of `block` in block order: fragment slabs of the conversion's
/// shape, device-only allocations only commands use, and the transient
/// buffers calls pass their callees.
SmallVector<Group> collectGroups(Block &block, const BlockTimeline &timeline,
                                 SymbolTableCollection &symbols) {
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
      lifetime = getCallLifetime(allocation, timeline, symbols);
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

/// Whether `a` and `b` are one allocator: the same value, or both the
/// allocator of the shared device (each call site asks for it again).
bool isSameAllocator(Value a, Value b) {
  if (a == b)
    return true;
  auto isShared = [](Value allocator) {
    auto op = allocator.getDefiningOp<hal::DeviceAllocatorOp>();
    return op && op.getDevice().getDefiningOp<hal::ExSharedDeviceOp>();
  };
  return isShared(a) && isShared(b);
}

/// Re-plans the pieces of `block`; returns the number of pieces placed.
unsigned planBlock(Block &block, bool async, SymbolTableCollection &symbols) {
  std::optional<BlockTimeline> timeline = BlockTimeline::build(block, async);
  if (!timeline)
    return 0;
  SmallVector<Group> groups = collectGroups(block, *timeline, symbols);
  if (groups.empty())
    return 0;

  // The slab is allocated where the first group was; a group whose size or
  // allocator is not known there keeps its own memory.
  Operation *insertion = groups.front().owner;
  SizeMaterializer known(block, insertion, *timeline);
  Value allocator = groups.front().allocation.getAllocator();
  auto isPlaceable = [&](Group &group) {
    if (!isSameAllocator(group.allocation.getAllocator(), allocator))
      return false;
    // A kept pack moves to the slab: what it reads must be known there.
    if (group.slabPack)
      return llvm::all_of(group.slabPack->getOperands(), [&](Value operand) {
        return known.canMaterialize(operand);
      });
    return llvm::all_of(group.pieces, [&](const Piece &piece) {
      return known.canMaterialize(piece.size);
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

  // Kept packs go first, what they read with them.
  for (Group &group : groups) {
    if (!group.slabPack || group.slabPack.getOperation() == insertion)
      continue;
    for (OpOperand &operand : group.slabPack->getOpOperands())
      operand.set(known.materialize(operand.get()));
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
  // Keyed by attribute: DenseMapInfo<int64_t> multiplies, so sizes that are
  // multiples of a large power of two would share buckets.
  llvm::SmallDenseMap<Attribute, Value> constants;
  for (const Group &group : groups) {
    for (const Piece &piece : group.pieces) {
      intervals.push_back(builder.getIndexAttr(piece.start));
      intervals.push_back(builder.getIndexAttr(piece.end));
      APInt constant;
      Value size = known.materialize(piece.size);
      if (matchPattern(size, m_ConstantInt(&constant))) {
        Value &materialized =
            constants[builder.getIndexAttr(constant.getSExtValue())];
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
    ModuleOp module = getOperation();
    DenseSet<Operation *> recursive;
    SymbolTableCollection symbols;
    auto calls = collectCalls(module);
    // Callees first: a callee's slab becomes a piece of its callers' plans.
    for (Operation *op : orderCalleesFirst(module, recursive)) {
      SmallVector<Block *> blocks;
      // Recording inside a device switch belongs to its enclosing block.
      op->walk([&](Block *block) {
        if (!isa<hal::DeviceSwitchOp>(block->getParentOp()))
          blocks.push_back(block);
      });
      for (Block *block : blocks) {
        unsigned pieces = planBlock(*block, async, symbols);
        numPieces += pieces;
        numSlabs += pieces ? 1 : 0;
      }
      auto function = dyn_cast<func::FuncOp>(op);
      if (!function || !function.isPrivate() || function.isExternal() ||
          recursive.contains(op) || hal::takesCallerTransients(function))
        continue;
      auto callsOf = calls.find(function.getSymNameAttr());

      if (callsOf == calls.end() || !callsOf->second)
        continue;
      ArrayRef<func::CallOp> sites = *callsOf->second;
      if (!sites.empty() &&
          llvm::all_of(sites,
                       [&](func::CallOp call) {
                         return call.getNumOperands() ==
                                function.getNumArguments();
                       }) &&
          lendSlabToCallers(function, sites)) {
        ++numLentSlabs;
        LLVM_DEBUG(llvm::dbgs() << "@" << function.getSymName()
                                << " takes its slab from its " << sites.size()
                                << " call(s)\n");
      }
    }
  }
};

} // namespace
} // namespace streamhal
