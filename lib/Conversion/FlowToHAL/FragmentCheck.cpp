//===- FragmentCheck.cpp - can a stream fragment be lowered? --------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything a user's fragment can get wrong is found here, before anything
// is rewritten, with a diagnostic at the op at fault. It reuses the
// resolution helpers of the recorder so both agree on what is lowerable.
//
//===----------------------------------------------------------------------===//

#include "CommandRecorder.h"
#include "StoragePlan.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace streamhal {

/// A tensor of the body needs an element type encoding and findable dims.
static LogicalResult checkTensorValue(Value value, Operation *at) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type)
    return success();
  if (!isa<RankedTensorType>(type))
    return at->emitOpError() << "has an unranked tensor " << type
                             << " that cannot be given storage";
  if (!hal::getElementTypeValue(type.getElementType()))
    return at->emitOpError()
           << "has a tensor of element type " << type.getElementType()
           << " which has no HAL element type encoding";
  if (type.hasStaticShape() && !util::getStaticByteSize(type))
    return at->emitOpError() << "has a tensor " << type
                             << " whose byte size does not fit in 64 bits";
  if (failed(flow::findDynamicDims(value)))
    return at->emitOpError()
           << "produces " << type << " whose dynamic dims cannot be found";
  return success();
}

/// Scalars used by recorded commands must be known outside the fragment:
/// fragment arguments or constants (which are hoisted).
static LogicalResult checkScalarOperands(Operation *op, Block &body) {
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    if (isa<ShapedType>(value.getType()))
      continue;
    if (auto argument = dyn_cast<BlockArgument>(value))
      if (argument.getOwner() == &body)
        continue;
    if (value.getDefiningOp<arith::ConstantOp>())
      continue;
    return op->emitOpError()
           << "uses scalar operand " << operand.getOperandNumber()
           << " that is neither a fragment argument nor a constant; only "
              "those are known when the commands are recorded";
  }
  return success();
}

/// What a dispatch's resolution depends on: its callee, its bindings and
/// the types they index into.
using DispatchKey =
    std::pair<std::pair<Attribute, Attribute>, std::pair<TypeRange, TypeRange>>;

static LogicalResult checkDispatch(flow::DispatchOp op,
                                   DenseSet<DispatchKey> &resolved) {
  for (Value result : op.getResults())
    if (!isa<ShapedType>(result.getType()))
      return op.emitOpError() << "returns a " << result.getType()
                              << " value; dispatches inside stream fragments "
                                 "can only produce tensors";
  // Dispatches alike in everything resolution reads resolve alike: check
  // each such kind once (failures are not cached, so each op reports).
  DispatchKey key{{op.getEntryPointAttr(),
                   op->getAttr(flow::DispatchOp::getBindingsAttrName())},
                  {op.getArguments().getTypes(), op.getResultTypes()}};
  if (resolved.contains(key))
    return success();
  if (failed(resolveDispatch(op)))
    return failure();
  resolved.insert(key);
  return success();
}

static LogicalResult checkSplat(flow::TensorSplatOp op) {
  Type elementType = op.getValue().getType();
  if (!getSplatPatternMultiplier(elementType))
    return op.emitOpError() << "splats " << elementType
                            << " values, but fills take a 32-bit pattern: "
                               "only 8-, 16- and 32-bit elements are "
                               "supported";
  return success();
}

/// Slices and updates: the same planning the recorder does, on the body's
/// own values.
static LogicalResult checkBoxCopy(Operation *op) {
  return planBoxCopy(op, getCopyBox(op, [](Value value) { return value; }));
}

LogicalResult checkStreamFragmentLowerable(flow::ExStreamFragmentOp fragment) {
  bool ok = true;
  Block &body = fragment.getBody().front();
  DenseSet<DispatchKey> resolvedDispatches;
  for (BlockArgument argument : body.getArguments())
    ok &= succeeded(checkTensorValue(argument, fragment));
  for (Operation &op : body.without_terminator()) {
    LogicalResult checked =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](flow::DispatchOp dispatch) {
              return checkDispatch(dispatch, resolvedDispatches);
            })
            .Case([](flow::TensorSplatOp splat) { return checkSplat(splat); })
            .Case<flow::TensorSliceOp, flow::TensorUpdateOp>(
                [](Operation *boxCopy) { return checkBoxCopy(boxCopy); })
            .Case([](arith::ConstantOp constant) -> LogicalResult {
              // Only scalars are hoisted; a tensor constant would get storage
              // that nothing ever fills.
              if (isa<ShapedType>(constant.getType()))
                return constant.emitOpError()
                       << "defines a " << constant.getType()
                       << " constant inside a stream fragment; only scalar "
                          "constants can be hoisted (tensor contents belong "
                          "in a hal.constant.subspan or a flow.tensor.splat)";
              return success();
            })
            .Case<flow::TensorCloneOp, flow::TensorReshapeOp,
                  hal::ConstantSubspanOp>([](Operation *) { return success(); })
            .Default([](Operation *other) {
              return other->emitOpError()
                     << "is an unexpected op in stream fragment: '"
                     << other->getName() << "' cannot be recorded";
            });
    ok &= succeeded(checked);
    if (!isa<arith::ConstantOp>(op))
      ok &= succeeded(checkScalarOperands(&op, body));
    for (Value result : op.getResults())
      ok &= succeeded(checkTensorValue(result, &op));
  }
  if (!ok)
    return failure();
  ValueAliasing aliasing(fragment);
  return classifyAliasClasses(fragment, aliasing);
}

} // namespace streamhal
