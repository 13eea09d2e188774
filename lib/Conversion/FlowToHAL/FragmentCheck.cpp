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
#include "FragmentAnalysis.h"
#include "StoragePlan.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "streamhal/Dialect/HAL/IR/DeviceLimits.h"
#include "streamhal/Analysis/OperandStorage.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
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

/// A value made in a fragment gets an allocation of its own, or a slice of
/// the slab, unless it is a view: either way its bytes are allocated, and a
/// device allocates at most `maxAllocation` bytes at once.
static LogicalResult checkAllocationLimit(Value value, Operation *at,
                                          int64_t maxAllocation) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return success();
  std::optional<int64_t> size = util::getStaticByteSize(type);
  if (!size || *size <= maxAllocation)
    return success();
  return at->emitOpError() << "makes a " << type << " of " << *size
                           << " bytes, more than the device allocates at "
                              "once (max_allocation_size = "
                           << maxAllocation << ")";
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
  if (getSplatPatternMultiplier(elementType))
    return success();
  if (isWideSplatElementType(elementType))
    return checkWideSplat(op);
  return op.emitOpError()
         << "splats " << elementType
         << " values, but fills take a 32-bit pattern: only 8-, 16-, 32- and "
            "64-bit elements (and complex<f32>) are supported";
}

/// Slices and updates: the same planning the recorder does, on the body's
/// own values.
static LogicalResult checkBoxCopy(Operation *op) {
  return planBoxCopy(op, getCopyBox(op, [](Value value) { return value; }));
}

FailureOr<std::unique_ptr<FragmentAnalysisCache::Entry>>
analyzeStreamFragment(flow::ExStreamFragmentOp fragment) {
  bool ok = true;
  Block &body = fragment.getBody().front();
  DenseSet<DispatchKey> resolvedDispatches;
  for (BlockArgument argument : body.getArguments())
    ok &= succeeded(checkTensorValue(argument, fragment));
  int64_t maxAllocation = hal::getDeviceLimits(fragment).maxAllocationSize;
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
    for (Value result : op.getResults()) {
      ok &= succeeded(checkTensorValue(result, &op));
      ok &= succeeded(checkAllocationLimit(result, &op, maxAllocation));
    }
  }
  if (!ok)
    return failure();
  auto entry = std::make_unique<FragmentAnalysisCache::Entry>();
  entry->aliasing = std::make_unique<ValueAliasing>(fragment);
  FailureOr<SmallVector<StorageKind>> kinds =
      classifyAliasClasses(fragment, *entry->aliasing);
  if (failed(kinds))
    return failure();
  entry->kinds = std::move(*kinds);
  return entry;
}

LogicalResult checkStreamFragmentLowerable(flow::ExStreamFragmentOp fragment,
                                           FragmentAnalysisCache *analyses) {
  FailureOr<std::unique_ptr<FragmentAnalysisCache::Entry>> entry =
      analyzeStreamFragment(fragment);
  if (failed(entry))
    return failure();
  // Which operands may be one buffer, traced through the function while it
  // is still intact (a pattern cannot look outside its fragment).
  (*entry)->operandGroups = groupOperandStorage(fragment);
  if (analyses)
    analyses->insert(fragment, std::move(*entry));
  return success();
}

//===----------------------------------------------------------------------===//
// Whole modules
//===----------------------------------------------------------------------===//

/// Host element access and buffer view creation need an element type
/// encoding; reported up front so that the conversion itself cannot fail.
static LogicalResult checkHostElementType(Operation *op) {
  Type encodedType = llvm::TypeSwitch<Operation *, Type>(op)
                         .Case([](flow::TensorLoadOp load) {
                           return load.getSource().getType();
                         })
                         .Case([](flow::TensorStoreOp store) {
                           return store.getTarget().getType();
                         })
                         .Case([](hal::TensorCastOp cast) {
                           return cast.getSource().getType();
                         })
                         .Default([](Operation *) { return Type(); });
  auto shaped = dyn_cast_or_null<ShapedType>(encodedType);
  if (!shaped || hal::getElementTypeValue(shaped.getElementType()))
    return success();
  return op->emitOpError() << "uses element type " << shaped.getElementType()
                           << " which has no HAL element type encoding";
}

/// Outside fragments, flow ops other than host element access cannot be
/// lowered, and tensors may only flow through the ops the boundary patterns
/// convert: any other op would keep a tensor no buffer can stand for.
static LogicalResult checkOutsideFragments(Operation *op) {
  if (isa<flow::FlowDialect>(op->getDialect())) {
    if (isa<flow::TensorLoadOp, flow::TensorStoreOp>(op))
      return success();
    return op->emitOpError()
           << "can only be lowered inside a flow.ex.stream.fragment";
  }
  if (isa<func::FuncOp, func::ReturnOp, func::CallOp, util::GlobalOp,
          util::GlobalLoadOp, util::GlobalStoreOp, util::GlobalAddressOp,
          util::GlobalLoadIndirectOp, util::GlobalStoreIndirectOp,
          util::InitializerOp, util::ReturnOp, hal::TensorCastOp,
          hal::ConstantSubspanOp>(op))
    return success();
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  if (llvm::any_of(op->getOperandTypes(), isTensor) ||
      llvm::any_of(op->getResultTypes(), isTensor))
    return op->emitOpError()
           << "uses tensors outside a flow.ex.stream.fragment; only function "
              "boundaries, util globals (direct or through pointers), "
              "hal.tensor.cast, "
              "hal.constant.subspan and flow.tensor.load/store can be lowered "
              "there";
  return success();
}

LogicalResult checkFlowToHALLowerable(ModuleOp module,
                                      FragmentAnalysisCache *analyses) {
  bool ok = true;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Executables keep their own device code.
    if (isa<hal::ExecutableOp>(op))
      return WalkResult::skip();
    if (auto fragment = dyn_cast<flow::ExStreamFragmentOp>(op)) {
      ok &= succeeded(checkStreamFragmentLowerable(fragment, analyses));
      return WalkResult::skip();
    }
    ok &= succeeded(checkHostElementType(op)) &&
          succeeded(checkOutsideFragments(op));
    return WalkResult::advance();
  });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// FragmentAnalysisCache
//===----------------------------------------------------------------------===//

FragmentAnalysisCache::FragmentAnalysisCache() = default;
FragmentAnalysisCache::~FragmentAnalysisCache() = default;

const FragmentAnalysisCache::Entry *
FragmentAnalysisCache::lookup(Operation *fragment) const {
  auto it = entries.find(fragment);
  return it == entries.end() ? nullptr : it->second.get();
}

void FragmentAnalysisCache::insert(Operation *fragment,
                                   std::unique_ptr<Entry> entry) {
  entries[fragment] = std::move(entry);
}

} // namespace streamhal
