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
  auto begin = hal::CommandBufferBeginOp::create(rewriter, loc, commandBuffer);

  Block &body = state.getFragment().getBody().front();
  for (Operation &op : body.without_terminator()) {
    // A view shares its source's storage, a sunk update value already sits
    // in its target: nothing to copy.
    if (state.getViews().isViewOp(&op))
      continue;
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](flow::DispatchOp dispatch) { recordDispatch(dispatch); })
        .Case([&](flow::TensorSplatOp splat) { recordSplat(splat); })
        .Case([&](flow::TensorCloneOp clone) { recordClone(clone); })
        .Case([&](flow::TensorSliceOp slice) { recordSlice(slice); })
        .Case([&](flow::TensorUpdateOp update) { recordUpdate(update); })
        .Case([&](hal::ConstantSubspanOp constant) {
          recordConstantCopy(constant);
        })
        // Reshapes alias and constants were hoisted: nothing to record.
        .Default([](Operation *) {});
  }

  hal::CommandBufferEndOp::create(rewriter, loc, commandBuffer);
  hal::ExSubmitAndWaitOp::create(rewriter, loc, device, commandBuffer);
  // The same placement as --hal-place-barriers on this command buffer
  // alone, so the pattern API gives commands that do not race.
  numBarriers = placeBarriers(begin, barriers, rewriter);
}

void CommandRecorder::finishCommand(Operation *) { ++numCommands; }

void CommandRecorder::recordCopy(Value source, Value sourceOffset, Value target,
                                 Value targetOffset, Value length) {
  auto copy = hal::CommandBufferCopyBufferOp::create(
      state.getRewriter(), state.getLoc(), commandBuffer, source, sourceOffset,
      target, targetOffset, length);
  finishCommand(copy);
}

void CommandRecorder::recordSplat(flow::TensorSplatOp op) {
  if (isWideSplatElementType(op.getValue().getType())) {
    recordWideSplat(op);
    return;
  }
  RewriterBase &rewriter = state.getRewriter();
  BufferRange range = state.getRange(op.getResult());
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
  // Fills take 4-byte aligned lengths: padded storage is filled with its
  // rounded length; otherwise (storage sized exactly, such as an operand)
  // the aligned prefix is filled and the tail copied from it (the pattern
  // repeats every 4 bytes).
  if (range.fillBuffer) {
    finishCommand(hal::CommandBufferFillBufferOp::create(
        rewriter, op.getLoc(), commandBuffer, range.fillBuffer,
        state.getIndex(0), range.fillLength, pattern));
    return;
  }
  std::optional<int64_t> length = getConstantIntValue(range.length);
  if (!length || *length % 4 == 0 || *length < 4) {
    finishCommand(hal::CommandBufferFillBufferOp::create(
        rewriter, op.getLoc(), commandBuffer, range.buffer, state.getIndex(0),
        range.length, pattern));
    return;
  }
  int64_t prefix = llvm::alignDown(*length, 4);
  finishCommand(hal::CommandBufferFillBufferOp::create(
      rewriter, op.getLoc(), commandBuffer, range.buffer, state.getIndex(0),
      state.getIndex(prefix), pattern));
  recordCopy(range.buffer, state.getIndex(0), range.buffer,
             state.getIndex(prefix), state.getIndex(*length - prefix));
}

void CommandRecorder::recordClone(flow::TensorCloneOp op) {
  // The result's own length: the source may be a larger constant range.
  BufferRange source = state.getRange(op.getOperand());
  BufferRange target = state.getRange(op.getResult());
  recordCopy(source.buffer, state.getIndex(0), target.buffer, state.getIndex(0),
             state.getValueSize(op.getResult()));
}

void CommandRecorder::recordConstantCopy(hal::ConstantSubspanOp op) {
  // A constant read in place is a view of its pool: nothing to copy.
  if (state.getStorageKind(op.getResult()) == StorageKind::Constant)
    return;
  util::ByteRangeAttr range = op.getRuntimeRange();
  BufferRange target = state.getRange(op.getResult());
  // The storage's own length: the whole byte range for a transient copy,
  // exactly the value for a returned one.
  recordCopy(state.getGlobalBuffer(op.getRuntimeBufferAttr().getAttr()),
             state.getIndex(range.getOffset()), target.buffer,
             state.getIndex(0), target.length);
}

void CommandRecorder::recordSlice(flow::TensorSliceOp op) {
  recordBoxCopy(op, op.getSource(), op.getResult(), /*intoOuter=*/false);
}

void CommandRecorder::recordUpdate(flow::TensorUpdateOp op) {
  recordBoxCopy(op, op.getTarget(), op.getUpdate(), /*intoOuter=*/true);
}

void CommandRecorder::recordBoxCopy(Operation *op, Value outer, Value inner,
                                    bool intoOuter) {
  CopyBox box =
      getCopyBox(op, [&](Value value) { return state.lookupScalar(value); });
  FailureOr<BoxCopyPlan> plan = planBoxCopy(op, box);
  assert(succeeded(plan) && "box copies are planned by the fragment check");
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

  // Byte offset of the box's first element: a constant when the starts and
  // the outer shape are, else computed from them at run time.
  std::optional<int64_t> staticBase;
  Value base = state.getBoxOffset(box, &staticBase);
  int64_t elementBytes =
      util::getElementByteCount(box.outerType.getElementType()).value_or(1);
  if (plan->contiguous) {
    copy(base, state.getIndex(0), state.getValueSize(inner));
    return;
  }
  int64_t runBytes = plan->runElements * elementBytes;
  for (auto [run, delta] : llvm::enumerate(plan->runDeltas)) {
    int64_t deltaBytes = delta * elementBytes;
    Value outerOffset = staticBase ? state.getIndex(*staticBase + deltaBytes)
                        : deltaBytes == 0
                            ? base
                            : state.createInPrologue<arith::AddIOp>(
                                  base, state.getIndex(deltaBytes));
    copy(outerOffset, state.getIndex(static_cast<int64_t>(run) * runBytes),
         state.getIndex(runBytes));
  }
}

} // namespace streamhal
