//===- CommandRecorder.cpp - recording a fragment's commands --------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CommandRecorder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace streamhal {

/// More runs than this in one non-contiguous copy is almost surely a bug in
/// the program; refuse rather than emit millions of commands.
static constexpr int64_t kMaxCopyRuns = 1 << 16;

//===----------------------------------------------------------------------===//
// Splat patterns
//===----------------------------------------------------------------------===//

std::optional<uint32_t> getSplatPatternMultiplier(Type elementType) {
  if (!elementType.isIntOrFloat())
    return std::nullopt;
  switch ((elementType.getIntOrFloatBitWidth() + 7) / 8) {
  case 1:
    return 0x01010101u;
  case 2:
    return 0x00010001u;
  case 4:
    return 1u;
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Box copies
//===----------------------------------------------------------------------===//

SmallVector<OpFoldResult> getBoxLengths(Operation *op) {
  if (auto slice = dyn_cast<flow::TensorSliceOp>(op))
    return getAsOpFoldResult(slice.getLengths());
  auto update = cast<flow::TensorUpdateOp>(op);
  auto type = cast<ShapedType>(update.getUpdate().getType());
  SmallVector<OpFoldResult> lengths;
  ValueRange dims = update.getUpdateDims();
  unsigned dynamicIndex = 0;
  Builder builder(op->getContext());
  for (int64_t dim : type.getShape()) {
    if (!ShapedType::isDynamic(dim))
      lengths.push_back(builder.getIndexAttr(dim));
    else if (dynamicIndex < dims.size())
      lengths.push_back(dims[dynamicIndex++]);
  }
  return lengths;
}

ValueRange getBoxOuterDims(Operation *op) {
  if (auto slice = dyn_cast<flow::TensorSliceOp>(op))
    return slice.getSourceDims();
  return cast<flow::TensorUpdateOp>(op).getTargetDims();
}

/// Returns the extent of dimension `dim` of a tensor as a constant or value.
static OpFoldResult getOuterExtent(ShapedType type, ValueRange dims,
                                   unsigned dim) {
  if (!type.isDynamicDim(dim))
    return Builder(type.getContext()).getIndexAttr(type.getDimSize(dim));
  unsigned dynamicIndex = 0;
  for (unsigned d = 0; d < dim; ++d)
    if (type.isDynamicDim(d))
      ++dynamicIndex;
  return dims[dynamicIndex];
}

/// True when both extents are provably equal.
static bool isSameExtent(OpFoldResult a, OpFoldResult b) {
  std::optional<int64_t> constantA = getConstantIntValue(a);
  std::optional<int64_t> constantB = getConstantIntValue(b);
  if (constantA && constantB)
    return *constantA == *constantB;
  return isa<Value>(a) && isa<Value>(b) && cast<Value>(a) == cast<Value>(b);
}

FailureOr<BoxCopyPlan> planBoxCopy(Operation *op, ShapedType outerType,
                                   ValueRange outerDims, ValueRange starts,
                                   ArrayRef<OpFoldResult> lengths) {
  int64_t rank = outerType.getRank();
  if (static_cast<int64_t>(lengths.size()) != rank ||
      static_cast<int64_t>(starts.size()) != rank ||
      outerDims.size() != outerType.getNumDynamicDims())
    return op->emitOpError() << "has a malformed box for " << outerType;

  // The box is contiguous when, after the leading unit dims and one more,
  // every dim covers the whole outer dim.
  int64_t firstNonUnit = 0;
  while (firstNonUnit < rank &&
         getConstantIntValue(lengths[firstNonUnit]) == std::optional(1))
    ++firstNonUnit;
  bool contiguous = true;
  for (int64_t dim = firstNonUnit + 1; dim < rank; ++dim)
    if (!isSameExtent(lengths[dim], getOuterExtent(outerType, outerDims, dim)))
      contiguous = false;
  BoxCopyPlan plan;
  if (contiguous) {
    plan.contiguous = true;
    return plan;
  }

  // Static boxes become one copy per contiguous run.
  SmallVector<int64_t> staticStarts, staticLengths;
  for (int64_t dim = 0; dim < rank; ++dim) {
    std::optional<int64_t> start = getConstantIntValue(starts[dim]);
    std::optional<int64_t> length = getConstantIntValue(lengths[dim]);
    if (!start || !length || outerType.isDynamicDim(dim))
      return op->emitOpError()
             << "copies a non-contiguous box of " << outerType
             << " whose shape or offsets are dynamic; only static "
                "non-contiguous boxes can be split into contiguous copies";
    staticStarts.push_back(*start);
    staticLengths.push_back(*length);
  }
  ArrayRef<int64_t> shape = outerType.getShape();
  // `runDim` is the last dim that does not cover its outer dim: a run spans
  // it and every full dim after it.
  int64_t runDim = rank - 1;
  while (runDim > 0 && staticLengths[runDim] == shape[runDim])
    --runDim;
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t dim = rank - 2; dim >= 0; --dim)
    strides[dim] = strides[dim + 1] * shape[dim + 1];
  plan.runElements = staticLengths[runDim] * strides[runDim];
  int64_t runCount = 1;
  for (int64_t dim = 0; dim < runDim; ++dim)
    runCount *= staticLengths[dim];
  if (runCount > kMaxCopyRuns)
    return op->emitOpError()
           << "would need " << runCount
           << " separate copies for a non-contiguous box "
              "of "
           << outerType << " (the limit is " << kMaxCopyRuns << ")";
  // Enumerate the run origins in row-major order like an odometer.
  SmallVector<int64_t> position(staticStarts.begin(),
                                staticStarts.begin() + runDim);
  for (int64_t run = 0; run < runCount; ++run) {
    int64_t offset = staticStarts[runDim] * strides[runDim];
    for (int64_t dim = 0; dim < runDim; ++dim)
      offset += position[dim] * strides[dim];
    plan.runOuterOffsets.push_back(offset);
    for (int64_t dim = runDim - 1; dim >= 0; --dim) {
      if (++position[dim] < staticStarts[dim] + staticLengths[dim])
        break;
      position[dim] = staticStarts[dim];
    }
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// CommandRecorder
//===----------------------------------------------------------------------===//

void CommandRecorder::record() {
  RewriterBase &rewriter = state.getRewriter();
  MLIRContext *context = rewriter.getContext();
  Location loc = state.getLoc();
  Value device = state.getDevice();
  auto create = hal::CommandBufferCreateOp::create(
      rewriter, loc, hal::CommandBufferType::get(context), device,
      hal::CommandBufferModeAttr::get(
          context, hal::CommandBufferMode::OneShot |
                       hal::CommandBufferMode::AllowInlineExecution),
      hal::CommandCategoryAttr::get(context,
                                    hal::CommandCategory::Transfer |
                                        hal::CommandCategory::Dispatch));
  // Constants made while recording must dominate every command.
  state.setPrologueAnchor(create);
  commandBuffer = create.getResult();
  hal::CommandBufferBeginOp::create(rewriter, loc, commandBuffer);

  Block &body = state.getFragment().getBody().front();
  for (Operation &op : body.without_terminator()) {
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](flow::DispatchOp dispatch) { recordDispatch(dispatch); })
        .Case([&](flow::TensorSplatOp splat) { recordSplat(splat); })
        .Case([&](flow::TensorCloneOp clone) { recordClone(clone); })
        .Case([&](flow::TensorSliceOp slice) { recordSlice(slice); })
        .Case([&](flow::TensorUpdateOp update) { recordUpdate(update); })
        // Reshapes alias, constant subspans are mapped and constants were
        // hoisted: nothing to record.
        .Default([](Operation *) {});
  }

  hal::CommandBufferEndOp::create(rewriter, loc, commandBuffer);
  hal::ExSubmitAndWaitOp::create(rewriter, loc, device, commandBuffer);
}

BarrierPlacer::Placement BarrierPlacer::place(Operation *command) {
  if (policy == BarrierPolicy::Full)
    return Placement::After;
  SmallVector<BufferAccess> accesses;
  command->walk([&](Operation *nested) {
    llvm::append_range(accesses, computeCommandAccesses(nested));
  });
  bool conflicts = llvm::any_of(accesses, [&](const BufferAccess &access) {
    return pending.findConflict(access) != nullptr;
  });
  if (conflicts)
    pending.clear();
  for (const BufferAccess &access : accesses)
    pending.add(access);
  return conflicts ? Placement::Before : Placement::None;
}

void CommandRecorder::finishCommand(Operation *command) {
  ++numCommands;
  BarrierPlacer::Placement placement = barriers.place(command);
  if (placement == BarrierPlacer::Placement::None)
    return;
  RewriterBase &rewriter = state.getRewriter();
  OpBuilder::InsertionGuard guard(rewriter);
  if (placement == BarrierPlacer::Placement::Before)
    rewriter.setInsertionPoint(command);
  else
    rewriter.setInsertionPointAfter(command);
  MLIRContext *context = rewriter.getContext();
  hal::CommandBufferExecutionBarrierOp::create(
      rewriter, state.getLoc(), commandBuffer,
      hal::ExecutionStageAttr::get(context, hal::ExecutionStage::CommandRetire |
                                                hal::ExecutionStage::Dispatch),
      hal::ExecutionStageAttr::get(context, hal::ExecutionStage::CommandIssue |
                                                hal::ExecutionStage::Dispatch),
      hal::ExecutionBarrierFlagAttr::get(context,
                                         hal::ExecutionBarrierFlag::None));
  ++numBarriers;
}

void CommandRecorder::recordCopy(Value source, Value sourceOffset, Value target,
                                 Value targetOffset, Value length) {
  auto copy = hal::CommandBufferCopyBufferOp::create(
      state.getRewriter(), state.getLoc(), commandBuffer, source, sourceOffset,
      target, targetOffset, length);
  finishCommand(copy);
}

void CommandRecorder::recordSplat(flow::TensorSplatOp op) {
  RewriterBase &rewriter = state.getRewriter();
  Value value = state.lookupScalar(op.getValue());
  Type type = value.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Type i32 = rewriter.getI32Type();
  Value pattern = value;
  // Floats fill with their bits; narrow values are zero-extended and then
  // repeated across the 32-bit pattern by one multiply.
  if (isa<FloatType>(type))
    pattern = state.createInPrologue<arith::BitcastOp>(
        rewriter.getIntegerType(width), pattern);
  if (width < 32)
    pattern = state.createInPrologue<arith::ExtUIOp>(i32, pattern);
  uint32_t multiplier = getSplatPatternMultiplier(type).value_or(1);
  if (multiplier != 1)
    pattern = state.createInPrologue<arith::MulIOp>(
        pattern, state.getI32(static_cast<int32_t>(multiplier)));
  BufferRange range = state.getRange(op.getResult());
  auto fill = hal::CommandBufferFillBufferOp::create(
      rewriter, op.getLoc(), commandBuffer, range.buffer, state.getIndex(0),
      range.length, pattern);
  finishCommand(fill);
}

void CommandRecorder::recordClone(flow::TensorCloneOp op) {
  // The result's own length: the source may be a larger constant range.
  BufferRange source = state.getRange(op.getOperand());
  BufferRange target = state.getRange(op.getResult());
  recordCopy(source.buffer, state.getIndex(0), target.buffer, state.getIndex(0),
             state.getValueSize(op.getResult()));
}

void CommandRecorder::recordSlice(flow::TensorSliceOp op) {
  recordBoxCopy(op, op.getSource(), op.getResult(), op.getStartIndices(),
                /*intoOuter=*/false);
}

void CommandRecorder::recordUpdate(flow::TensorUpdateOp op) {
  recordBoxCopy(op, op.getTarget(), op.getUpdate(), op.getStartIndices(),
                /*intoOuter=*/true);
}

void CommandRecorder::recordBoxCopy(Operation *op, Value outer, Value inner,
                                    ValueRange starts, bool intoOuter) {
  auto outerType = cast<ShapedType>(outer.getType());
  SmallVector<Value> outerDims = state.lookupScalars(getBoxOuterDims(op));
  SmallVector<Value> outerStarts = state.lookupScalars(starts);
  SmallVector<OpFoldResult> lengths = getBoxLengths(op);
  for (OpFoldResult &length : lengths)
    if (auto value = dyn_cast<Value>(length))
      length = state.lookupScalar(value);
  FailureOr<BoxCopyPlan> plan =
      planBoxCopy(op, outerType, outerDims, outerStarts, lengths);
  if (failed(plan))
    return; // rejected by the fragment check
  BufferRange outerRange = state.getRange(outer);
  BufferRange innerRange = state.getRange(inner);
  auto copy = [&](Value outerOffset, Value innerOffset, Value length) {
    if (intoOuter)
      recordCopy(innerRange.buffer, innerOffset, outerRange.buffer, outerOffset,
                 length);
    else
      recordCopy(outerRange.buffer, outerOffset, innerRange.buffer, innerOffset,
                 length);
  };

  if (plan->contiguous) {
    SmallVector<Value> shape;
    unsigned dynamicIndex = 0;
    for (int64_t dim : outerType.getShape())
      shape.push_back(ShapedType::isDynamic(dim) ? outerDims[dynamicIndex++]
                                                 : state.getIndex(dim));
    Value offset = state.createInPrologue<hal::AllocatorComputeOffsetOp>(
        state.getRewriter().getIndexType(), state.getAllocator(), outerStarts,
        shape, state.getElementType(outerType.getElementType()),
        state.getEncoding());
    copy(offset, state.getIndex(0), state.getValueSize(inner));
    return;
  }
  std::optional<int64_t> elementBytes =
      util::getElementByteCount(outerType.getElementType());
  int64_t runBytes = plan->runElements * elementBytes.value_or(1);
  for (auto [run, outerOffset] : llvm::enumerate(plan->runOuterOffsets))
    copy(state.getIndex(outerOffset * elementBytes.value_or(1)),
         state.getIndex(static_cast<int64_t>(run) * runBytes),
         state.getIndex(runBytes));
}

} // namespace streamhal
