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
// CommandRecorder
//===----------------------------------------------------------------------===//

void CommandRecorder::record() {
  RewriterBase &rewriter = builder.getRewriter();
  MLIRContext *context = rewriter.getContext();
  Location loc = builder.getLoc();
  Value device = builder.getDevice();
  auto create = hal::CommandBufferCreateOp::create(
      rewriter, loc, hal::CommandBufferType::get(context), device,
      hal::CommandBufferModeAttr::get(
          context, hal::CommandBufferMode::OneShot |
                       hal::CommandBufferMode::AllowInlineExecution),
      hal::CommandCategoryAttr::get(context,
                                    hal::CommandCategory::Transfer |
                                        hal::CommandCategory::Dispatch));
  // Constants made while recording must dominate every command.
  builder.setPrologueAnchor(create);
  commandBuffer = create.getResult();
  hal::CommandBufferBeginOp::create(rewriter, loc, commandBuffer);

  Block &body = plan.getFragment().getBody().front();
  for (Operation &op : body.without_terminator()) {
    // A view shares its source's storage, a sunk update value already sits
    // in its target: nothing to copy.
    if (plan.getViews().isViewOp(&op))
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
}

void CommandRecorder::finishCommand(Operation *) { ++numCommands; }

void CommandRecorder::recordCopy(Value source, Value sourceOffset, Value target,
                                 Value targetOffset, Value length) {
  auto copy = hal::CommandBufferCopyBufferOp::create(
      builder.getRewriter(), builder.getLoc(), commandBuffer, source,
      sourceOffset, target, targetOffset, length);
  finishCommand(copy);
}

void CommandRecorder::recordClone(flow::TensorCloneOp op) {
  // The result's own length: the source may be a larger constant range.
  BufferRange source = storage.getRange(op.getOperand());
  BufferRange target = storage.getRange(op.getResult());
  recordCopy(source.buffer, builder.getIndex(0), target.buffer,
             builder.getIndex(0), builder.getValueSize(op.getResult()));
}

void CommandRecorder::recordConstantCopy(hal::ConstantSubspanOp op) {
  // A constant read in place is a view of its pool: nothing to copy.
  if (plan.getStorageKind(op.getResult()) == StorageKind::Constant)
    return;
  util::ByteRangeAttr range = op.getRuntimeRange();
  BufferRange target = storage.getRange(op.getResult());
  // The storage's own length: the whole byte range for a transient copy,
  // exactly the value for a returned one.
  recordCopy(builder.getGlobalBuffer(op.getRuntimeBufferAttr().getAttr()),
             builder.getIndex(range.getOffset()), target.buffer,
             builder.getIndex(0), target.length);
}

void CommandRecorder::recordSlice(flow::TensorSliceOp op) {
  recordBoxCopy(op, op.getSource(), op.getResult(), /*intoOuter=*/false);
}

void CommandRecorder::recordUpdate(flow::TensorUpdateOp op) {
  recordBoxCopy(op, op.getTarget(), op.getUpdate(), /*intoOuter=*/true);
}

void CommandRecorder::recordBoxCopy(Operation *op, Value outer, Value inner,
                                    bool intoOuter) {
  // The plan's box, its values mapped to values outside the fragment.
  CopyBox box =
      getCopyBox(op, [&](Value value) { return builder.lookupScalar(value); });
  const BoxCopyPlan &boxPlan = plan.getBoxPlan(op);
  BufferRange outerRange = storage.getRange(outer);
  BufferRange innerRange = storage.getRange(inner);
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
  Value base = builder.getBoxOffset(box, &staticBase);
  int64_t elementBytes =
      util::getElementByteCount(box.outerType.getElementType()).value_or(1);
  if (boxPlan.contiguous) {
    copy(base, builder.getIndex(0), builder.getValueSize(inner));
    return;
  }
  int64_t runBytes = boxPlan.runElements * elementBytes;
  for (auto [run, delta] : llvm::enumerate(boxPlan.runDeltas)) {
    int64_t deltaBytes = delta * elementBytes;
    Value outerOffset = staticBase ? builder.getIndex(*staticBase + deltaBytes)
                        : deltaBytes == 0
                            ? base
                            : builder.createInPrologue<arith::AddIOp>(
                                  base, builder.getIndex(deltaBytes));
    copy(outerOffset, builder.getIndex(static_cast<int64_t>(run) * runBytes),
         builder.getIndex(runBytes));
  }
}

} // namespace streamhal
