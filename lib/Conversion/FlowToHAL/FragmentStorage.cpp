//===- FragmentStorage.cpp - buffer ranges of a fragment's values ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FragmentStorage.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace streamhal {

/// Returns true when a splat defines a member of class `classIndex` with
/// elements narrower than 4 bytes, so that its byte size may not be a
/// multiple of 4: its storage gets room for a fill rounded up to 4.
static bool needsFillPadding(const ValueAliasing &aliasing,
                             unsigned classIndex) {
  for (Value member : aliasing.getClassMembers(classIndex)) {
    auto splat = member.getDefiningOp<flow::TensorSplatOp>();
    if (!splat)
      continue;
    auto type = cast<RankedTensorType>(splat.getType());
    std::optional<int64_t> element =
        util::getElementByteCount(type.getElementType());
    if (!element || *element % 4 == 0)
      continue;
    std::optional<int64_t> size = util::getStaticByteSize(type);
    if (!size || *size % 4 != 0)
      return true;
  }
  return false;
}

/// Returns true when `splat` fills storage of exactly its size (the class of
/// an operand: nothing can be padded) and its size is not known to be a
/// whole number of 4-byte words of which there is at least one: then no
/// filled prefix holds the pattern to copy the tail from, and the splat
/// needs scratch (FragmentStorage::getFillScratch).
static bool needsFillScratch(flow::TensorSplatOp splat, StorageKind kind) {
  if (kind != StorageKind::Input)
    return false;
  auto type = cast<RankedTensorType>(splat.getType());
  std::optional<int64_t> element =
      util::getElementByteCount(type.getElementType());
  if (!element || *element % 4 == 0)
    return false;
  std::optional<int64_t> size = util::getStaticByteSize(type);
  return !size || (*size % 4 != 0 && *size < 4);
}

/// `size` rounded up to a multiple of 4, in the prologue.
static Value alignSizeTo4(FragmentBuilder &state, Value size) {
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return state.getIndex(llvm::alignTo(*constant, 4));
  Value plus3 = state.createInPrologue<arith::AddIOp>(size, state.getIndex(3));
  return state.createInPrologue<arith::AndIOp>(plus3,
                                               state.getIndex(~int64_t(3)));
}

//===----------------------------------------------------------------------===//
// Materialization
//===----------------------------------------------------------------------===//

/// Emits the storage of one fragment, kind by kind.
class FragmentStorage::Materializer {
public:
  Materializer(FragmentStorage &storage, FragmentBuilder &state,
               ValueRange convertedArguments, const OutputAllocation &outputs)
      : plan(storage.plan), state(state), storage(storage),
        kinds(plan.getStorageKinds()), convertedArguments(convertedArguments),
        outputs(outputs) {}

  void run() {
    assignInputs();
    assignOutputs();
    assignConstants();
    assignTransients();
    assignViews();
  }

private:
  void assignInputs();
  void assignOutputs();
  void assignConstants();
  void assignTransients();
  void assignViews();

  void setClassRange(unsigned classIndex, BufferRange range) {
    storage.ranges[classIndex] = range;
  }
  bool hasClassRange(unsigned classIndex) const {
    return storage.ranges[classIndex].buffer != nullptr;
  }

  const FragmentPlan &plan;
  FragmentBuilder &state;
  FragmentStorage &storage;
  ArrayRef<StorageKind> kinds;
  ValueRange convertedArguments;
  const OutputAllocation &outputs;
};

FragmentStorage::FragmentStorage(const FragmentPlan &plan,
                                 FragmentBuilder &builder,
                                 ValueRange convertedArguments,
                                 const OutputAllocation &outputs)
    : plan(plan), ranges(plan.getAliasing().getNumClasses()) {
  Materializer(*this, builder, convertedArguments, outputs).run();
}

void FragmentStorage::Materializer::assignInputs() {
  const ValueAliasing &aliasing = plan.getAliasing();
  Block &body = plan.getFragment().getBody().front();
  for (BlockArgument argument : body.getArguments()) {
    if (!aliasing.getOrdinal(argument))
      continue;
    setClassRange(aliasing.getClassIndex(argument),
                  {convertedArguments[argument.getArgNumber()],
                   state.getValueSize(argument)});
  }
}

void FragmentStorage::Materializer::assignOutputs() {
  const ValueAliasing &aliasing = plan.getAliasing();
  RewriterBase &rewriter = state.getRewriter();
  MLIRContext *context = rewriter.getContext();
  Operation *terminator = plan.getFragment().getBody().front().getTerminator();
  // A class returned at several positions is one buffer, and so is the root
  // of returned views: the host may read it when it may read any of those
  // results.
  const StorageViews &views = plan.getViews();
  SmallVector<bool> hostReadableRoots(kinds.size(), false);
  for (auto [index, returned] : llvm::enumerate(terminator->getOperands()))
    if (aliasing.getOrdinal(returned) &&
        index < outputs.hostReadableResults.size() &&
        outputs.hostReadableResults[index])
      hostReadableRoots[views.getRoot(aliasing.getClassIndex(returned))] = true;
  for (Value returned : terminator->getOperands()) {
    if (!aliasing.getOrdinal(returned))
      continue;
    // A returned view is a subspan of its root's output, sized for the
    // root.
    unsigned classIndex = views.getRoot(aliasing.getClassIndex(returned));
    // Inputs and values returned twice already have a range.
    if (kinds[classIndex] != StorageKind::Output || hasClassRange(classIndex))
      continue;
    hal::MemoryType memoryType =
        hal::MemoryType::DeviceLocal | hal::MemoryType::HostVisible;
    hal::BufferUsage usage = hal::BufferUsage::All;
    if (outputs.memoryType) {
      memoryType = *outputs.memoryType;
    } else if (!hostReadableRoots[classIndex]) {
      memoryType = hal::MemoryType::DeviceLocal;
      usage = hal::BufferUsage::Dispatch | hal::BufferUsage::Transfer;
    }
    Value size =
        state.getValueSize(aliasing.getClassMembers(classIndex).front());
    // A splat of narrow elements fills a length rounded up to 4: the
    // allocation has the room, the result is its first `size` bytes.
    Value allocated = size;
    bool padded = needsFillPadding(aliasing, classIndex);
    if (padded)
      allocated = alignSizeTo4(state, size);
    auto allocation = hal::AllocatorAllocateOp::create(
        rewriter, state.getLoc(), hal::BufferType::get(context),
        state.getAllocator(), hal::MemoryTypeAttr::get(context, memoryType),
        hal::BufferUsageAttr::get(context, usage), allocated);
    if (!padded || allocated == size) {
      setClassRange(classIndex, {allocation.getResult(), size});
      continue;
    }
    auto result = hal::BufferSubspanOp::create(
        rewriter, state.getLoc(), hal::BufferType::get(context),
        allocation.getResult(), state.getIndex(0), size);
    setClassRange(classIndex, {result.getResult(), size, allocation.getResult(),
                               allocated});
  }
}

void FragmentStorage::Materializer::assignConstants() {
  const ValueAliasing &aliasing = plan.getAliasing();
  RewriterBase &rewriter = state.getRewriter();
  Block &body = plan.getFragment().getBody().front();
  for (auto constant : body.getOps<hal::ConstantSubspanOp>()) {
    // A copied constant has its own storage; the recorder fills it.
    if (plan.getStorageKind(constant.getResult()) != StorageKind::Constant)
      continue;
    Value pool =
        state.getGlobalBuffer(constant.getRuntimeBufferAttr().getAttr());
    util::ByteRangeAttr range = constant.getRuntimeRange();
    Value length = state.getIndex(range.getLength());
    auto subspan = hal::BufferSubspanOp::create(
        rewriter, constant.getLoc(),
        hal::BufferType::get(rewriter.getContext()), pool,
        state.getIndex(range.getOffset()), length);
    setClassRange(aliasing.getClassIndex(constant.getResult()),
                  {subspan.getResult(), length});
  }
}

void FragmentStorage::Materializer::assignTransients() {
  const ValueAliasing &aliasing = plan.getAliasing();
  const StorageViews &views = plan.getViews();
  SmallVector<unsigned> transientClasses;
  SmallVector<Attribute> intervals;
  SmallVector<Value> sizes, valueSizes;
  RewriterBase &rewriter = state.getRewriter();
  for (unsigned classIndex = 0, e = kinds.size(); classIndex < e;
       ++classIndex) {
    if (kinds[classIndex] != StorageKind::Transient)
      continue;
    // The root of views stays live as long as any of them.
    auto [start, end] = views.getRootInterval(classIndex);
    transientClasses.push_back(classIndex);
    intervals.push_back(rewriter.getIndexAttr(start));
    intervals.push_back(rewriter.getIndexAttr(end));
    // A copied constant keeps its whole byte range, as a view of the pool
    // would: dispatches bind the whole range of a constant operand.
    Value leader = aliasing.getClassMembers(classIndex).front();
    if (auto constant = leader.getDefiningOp<hal::ConstantSubspanOp>())
      sizes.push_back(state.getIndex(constant.getRuntimeRange().getLength()));
    else if (needsFillPadding(aliasing, classIndex))
      sizes.push_back(alignSizeTo4(state, state.getValueSize(leader)));
    else
      sizes.push_back(state.getValueSize(leader));
    valueSizes.push_back(state.getValueSize(leader));
  }
  storage.numTransients = transientClasses.size();
  // Fill scratch lives for its splat's op only: it is filled and copied
  // from by the splat's own commands.
  SmallVector<Operation *> scratchSplats;
  const LivenessIntervals &liveness = plan.getLiveness();
  for (auto splat :
       plan.getFragment().getBody().front().getOps<flow::TensorSplatOp>()) {
    unsigned classIndex =
        views.getRoot(aliasing.getClassIndex(splat.getResult()));
    if (!needsFillScratch(splat, kinds[classIndex]))
      continue;
    int64_t index = liveness.getOpIndex(splat);
    scratchSplats.push_back(splat);
    intervals.push_back(rewriter.getIndexAttr(index));
    intervals.push_back(rewriter.getIndexAttr(index));
    sizes.push_back(state.getIndex(4));
  }
  if (sizes.empty())
    return;

  Location loc = state.getLoc();
  MLIRContext *context = rewriter.getContext();
  Type indexType = rewriter.getIndexType();
  SmallVector<Type> offsetTypes(sizes.size(), indexType);
  auto pack = hal::AllocatorPackOp::create(
      rewriter, loc, indexType, offsetTypes, state.getAllocator(),
      /*offset=*/Value(), rewriter.getArrayAttr(intervals), sizes);
  auto slab = hal::AllocatorAllocateOp::create(
      rewriter, loc, hal::BufferType::get(context), state.getAllocator(),
      hal::MemoryTypeAttr::get(context, hal::MemoryType::DeviceLocal),
      hal::BufferUsageAttr::get(context, hal::BufferUsage::Dispatch |
                                             hal::BufferUsage::Transfer),
      pack.getTotalLength());
  for (auto [index, classIndex] : llvm::enumerate(transientClasses)) {
    auto subspan = hal::BufferSubspanOp::create(
        rewriter, loc, hal::BufferType::get(context), slab.getResult(),
        pack.getPackedOffsets()[index], sizes[index]);
    // A padded slice keeps the value's length for everything but fills.
    Value leader = aliasing.getClassMembers(classIndex).front();
    if (sizes[index] != valueSizes[index] &&
        !leader.getDefiningOp<hal::ConstantSubspanOp>())
      setClassRange(classIndex, {subspan.getResult(), valueSizes[index],
                                 subspan.getResult(), sizes[index]});
    else
      setClassRange(classIndex, {subspan.getResult(), sizes[index]});
  }
  for (auto [index, splat] : llvm::enumerate(scratchSplats)) {
    size_t piece = transientClasses.size() + index;
    storage.fillScratch[splat] =
        hal::BufferSubspanOp::create(
            rewriter, loc, hal::BufferType::get(context), slab.getResult(),
            pack.getPackedOffsets()[piece], sizes[piece])
            .getResult();
  }
}

void FragmentStorage::Materializer::assignViews() {
  const ValueAliasing &aliasing = plan.getAliasing();
  const StorageViews &views = plan.getViews();
  RewriterBase &rewriter = state.getRewriter();
  Block &body = plan.getFragment().getBody().front();
  auto lookup = [&](Value value) { return state.lookupScalar(value); };
  // In op order, so that the storage a view sits in has its range (a view
  // of a view, an update sunk into a view, ...).
  for (Operation &op : body.without_terminator()) {
    if (!views.isViewOp(&op))
      continue;
    Value view = StorageViews::getViewedValue(&op);
    unsigned classIndex = aliasing.getClassIndex(view);
    // The outer value the view sits in: a slice's or clone's source, an
    // update's target.
    auto update = dyn_cast<flow::TensorUpdateOp>(op);
    Value outer = update ? update.getTarget() : op.getOperand(0);
    BufferRange source = storage.getRange(outer);
    Value length = state.getValueSize(view);
    // A clone of a whole source of the same size is the source's range.
    if (isa<flow::TensorCloneOp>(op) && length == source.length) {
      setClassRange(classIndex, source);
      continue;
    }
    Value offset = isa<flow::TensorCloneOp>(op)
                       ? state.getIndex(0)
                       : state.getBoxOffset(getCopyBox(&op, lookup));
    auto subspan = hal::BufferSubspanOp::create(
        rewriter, op.getLoc(), hal::BufferType::get(rewriter.getContext()),
        source.buffer, offset, length);
    setClassRange(classIndex, {subspan.getResult(), length});
  }
}

} // namespace streamhal
