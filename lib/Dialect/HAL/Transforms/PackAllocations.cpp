//===- PackAllocations.cpp - materialize hal.allocator.pack ---------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replaces hal.allocator.pack with index math: constant-size slices are
// placed by the packing library, dynamic-size slices are grouped by their SSA
// size value and laid end to end after the static part.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "streamhal/Dialect/HAL/IR/DeviceLimits.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "streamhal/Packing/Packing.h"
#include "llvm/ADT/MapVector.h"
#include <cmath>
#include <limits>

namespace streamhal::hal {
#define GEN_PASS_DEF_PACKALLOCATIONSPASS
#include "streamhal/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace streamhal::hal

using namespace mlir;

namespace streamhal::hal {
namespace {

/// The constant a slice size stands for: a constant, or a
/// `hal.allocator.compute_size` whose operands are all constants (the
/// lowering's sizes reach the pack before any canonicalization).
std::optional<int64_t> getStaticSize(Value size) {
  APInt constant;
  if (matchPattern(size, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  auto computeSize = size.getDefiningOp<AllocatorComputeSizeOp>();
  if (!computeSize)
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : computeSize->getOperands()) {
    Attribute attr;
    matchPattern(operand, m_Constant(&attr));
    operands.push_back(attr);
  }
  SmallVector<OpFoldResult> folded;
  if (failed(computeSize->fold(operands, folded)) || folded.size() != 1)
    return std::nullopt;
  auto attr = dyn_cast_or_null<IntegerAttr>(dyn_cast<Attribute>(folded[0]));
  if (!attr)
    return std::nullopt;
  return attr.getValue().getSExtValue();
}

/// Builds the index math of one pack.
class PackMaterializer {
public:
  PackMaterializer(RewriterBase &rewriter, AllocatorPackOp op,
                   SlabAlignments alignments, int64_t packId)
      : rewriter(rewriter), op(op), loc(op.getLoc()), alignments(alignments),
        packId(packId) {}

  /// Replaces the pack; fails with a diagnostic on unusable sizes.
  LogicalResult run(const packing::PackingOptions &options,
                    uint64_t &staticSlices, uint64_t &dynamicSlices,
                    uint64_t &staticBytes);

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  /// `value` rounded up to a multiple of `alignment`.
  Value alignUp(Value value, int64_t alignment) {
    if (alignment <= 1)
      return value;
    APInt known;
    if (matchPattern(value, m_ConstantInt(&known)))
      return constant(packing::alignTo(known.getSExtValue(), alignment));
    Value bumped =
        arith::AddIOp::create(rewriter, loc, value, constant(alignment - 1));
    Value units =
        arith::DivUIOp::create(rewriter, loc, bumped, constant(alignment));
    return arith::MulIOp::create(rewriter, loc, units, constant(alignment));
  }
  /// Aligns an offset unless every range is already offset-aligned.
  Value alignOffset(Value value) {
    return alignments.range % alignments.offset == 0
               ? value
               : alignUp(value, alignments.offset);
  }
  Value add(Value lhs, Value rhs) {
    if (matchPattern(lhs, m_Zero()))
      return rhs;
    return arith::AddIOp::create(rewriter, loc, lhs, rhs);
  }

  /// Marks the subspans of the slab at the offset of dynamic slice `index`
  /// with the lane it got (PackLane).
  void markLane(unsigned index, const PackLane &lane);

  RewriterBase &rewriter;
  AllocatorPackOp op;
  Location loc;
  SlabAlignments alignments;
  /// The `pack` of the PackLanes of this pack.
  int64_t packId;
};

void PackMaterializer::markLane(unsigned index, const PackLane &lane) {
  Value offset = op->getResult(index + 1);
  Value size = op.getSlices()[index].size;
  for (Operation *user : offset.getUsers()) {
    auto subspan = dyn_cast<BufferSubspanOp>(user);
    // Only a subspan of the slab itself, no longer than the slice, lies in
    // the slice's bytes.
    if (!subspan || subspan.getSourceOffset() != offset ||
        !subspan.getSourceBuffer().getDefiningOp<AllocatorAllocateOp>() ||
        subspan.getLength() != size)
      continue;
    lane.set(subspan);
  }
}

LogicalResult PackMaterializer::run(const packing::PackingOptions &options,
                                    uint64_t &staticSlices,
                                    uint64_t &dynamicSlices,
                                    uint64_t &staticBytes) {
  SmallVector<AllocatorPackOp::Slice> slices = op.getSlices();
  SmallVector<Value> offsets(slices.size());
  rewriter.setInsertionPoint(op);

  // Static slices: the packing library places them.
  packing::PackingProblem problem;
  problem.lifetimes = packing::LifetimeConvention::Closed;
  problem.offsetAlignment = alignments.offset;
  problem.sizeAlignment = alignments.range;
  SmallVector<unsigned> staticIndices;
  llvm::MapVector<Value, SmallVector<unsigned>> dynamicGroups;
  for (auto [index, slice] : llvm::enumerate(slices)) {
    std::optional<int64_t> size = getStaticSize(slice.size);
    if (!size) {
      dynamicGroups[slice.size].push_back(index);
      continue;
    }
    if (*size < 0)
      return op.emitOpError()
             << "slice " << index << " has negative size " << *size;
    staticIndices.push_back(index);
    problem.buffers.push_back({slice.start, slice.end, *size});
  }
  if (llvm::Error error = packing::verifyProblem(problem))
    return op.emitOpError() << "cannot pack its static slices: "
                            << llvm::toString(std::move(error));
  packing::PackingResult packed = packing::pack(problem, options);
  if (llvm::Error error = packing::validatePacking(problem, packed))
    return op.emitOpError() << "packer produced an invalid packing: "
                            << llvm::toString(std::move(error));
  for (auto [index, offset] : llvm::zip_equal(staticIndices, packed.offsets))
    offsets[index] = constant(offset);
  int64_t staticEnd = staticIndices.empty() ? 0 : packed.slabSize;
  // The slab is one allocation (maxMemoryAllocationSize on a device).
  if (int64_t limit = getDeviceLimits(op).maxAllocationSize; staticEnd > limit)
    return op.emitOpError() << "packs its static slices into " << staticEnd
                            << " bytes, more than the device allocates at once "
                               "(max_allocation_size = "
                            << limit << ")";
  staticSlices += staticIndices.size();
  staticBytes += staticEnd;

  // Dynamic slices: one group per size value, after the static part. Inside
  // a group, slices with disjoint lifetimes share a lane (interval
  // partitioning by start time uses the fewest lanes).
  int64_t minDynamicOffset = packing::alignTo(staticEnd, alignments.offset);
  Value end = constant(minDynamicOffset);
  // Lanes are numbered across the groups of the pack.
  int64_t nextLane = 0;
  for (auto &[size, members] : dynamicGroups) {
    dynamicSlices += members.size();
    SmallVector<unsigned> byStart(members);
    llvm::stable_sort(byStart, [&](unsigned a, unsigned b) {
      return slices[a].start < slices[b].start;
    });
    SmallVector<int64_t> laneEnds;
    DenseMap<unsigned, unsigned> laneOf;
    for (unsigned index : byStart) {
      auto free = llvm::find_if(laneEnds, [&](int64_t laneEnd) {
        return laneEnd < slices[index].start;
      });
      unsigned lane = free - laneEnds.begin();
      if (free == laneEnds.end())
        laneEnds.push_back(slices[index].end);
      else
        *free = slices[index].end;
      laneOf[index] = lane;
    }
    Value stride = alignOffset(alignUp(size, alignments.range));
    Value base = alignOffset(end);
    SmallVector<Value> laneOffsets;
    for (unsigned lane = 0; lane < laneEnds.size(); ++lane)
      laneOffsets.push_back(
          lane == 0 ? base
                    : add(base, arith::MulIOp::create(rewriter, loc, stride,
                                                      constant(lane))));
    for (unsigned index : members) {
      offsets[index] = laneOffsets[laneOf[index]];
      markLane(index, {packId, nextLane + laneOf[index], minDynamicOffset});
    }
    nextLane += laneEnds.size();
    end = laneEnds.size() == 1
              ? add(base, stride)
              : add(base, arith::MulIOp::create(
                              rewriter, loc, stride,
                              constant(static_cast<int64_t>(laneEnds.size()))));
  }
  Value total = dynamicGroups.empty() ? constant(staticEnd)
                                      : alignUp(end, alignments.range);

  if (Value base = op.getOffset())
    for (Value &offset : offsets)
      offset = arith::AddIOp::create(rewriter, loc, base, offset);

  SmallVector<Value> replacements{total};
  llvm::append_range(replacements, offsets);
  rewriter.replaceOp(op, replacements);
  return success();
}

struct PackAllocationsPass
    : public impl::PackAllocationsPassBase<PackAllocationsPass> {
  using Base::Base;

  /// Rejects unusable option values when the options are parsed, before
  /// any pass runs.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    if (std::optional<std::string> problem = checkTimeLimit())
      return errorHandler(*problem);
    return success();
  }

  /// Describes what is wrong with the time limit, if anything.
  std::optional<std::string> checkTimeLimit() const {
    if (std::isnan(timeLimit) || timeLimit < 0)
      return "invalid time-limit '" + std::to_string(timeLimit) +
             "' for --hal-pack-allocations: expected a number of seconds >= 0";
    return std::nullopt;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Options set from C++ do not go through initializeOptions.
    if (std::optional<std::string> problem = checkTimeLimit()) {
      module.emitError() << *problem;
      return signalPassFailure();
    }
    packing::PackingOptions options;
    options.strategy = strategy;
    options.timeLimitSeconds = timeLimit;
    SlabAlignments alignments = getSlabAlignments(module);

    SmallVector<AllocatorPackOp> packs;
    module.walk([&](AllocatorPackOp op) { packs.push_back(op); });
    IRRewriter rewriter(&getContext());
    uint64_t staticSlices = 0, dynamicSlices = 0, staticBytes = 0;
    bool failedAny = false;
    // Pack ids continue after those of an earlier run, so that lanes of
    // different packs never compare equal.
    int64_t nextPackId = 0;
    module.walk([&](BufferSubspanOp subspan) {
      std::optional<PackLane> lane = PackLane::get(subspan);
      if (lane && lane->pack >= nextPackId &&
          lane->pack < std::numeric_limits<int64_t>::max())
        nextPackId = lane->pack + 1;
    });
    for (AllocatorPackOp op : packs) {
      PackMaterializer materializer(rewriter, op, alignments, nextPackId++);
      failedAny |= failed(
          materializer.run(options, staticSlices, dynamicSlices, staticBytes));
    }
    numPacks += packs.size();
    numStaticSlices += staticSlices;
    numDynamicSlices += dynamicSlices;
    numSlabBytes += staticBytes;
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
} // namespace streamhal::hal
