//===- FragmentPlan.cpp - everything decided about one fragment -----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything a user's fragment can get wrong is found here, before anything
// is rewritten, with a diagnostic at the op at fault; what is decided on the
// way (resolutions, box plans, alias classes, storage kinds, views) is the
// fragment's plan.
//
//===----------------------------------------------------------------------===//

#include "FragmentPlan.h"
#include "Splats.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "streamhal/Dialect/HAL/IR/DeviceLimits.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "streamhal-fragment-plan"

using namespace mlir;

namespace streamhal {

//===----------------------------------------------------------------------===//
// Per-op checks
//===----------------------------------------------------------------------===//

/// A tensor of the body needs an element type encoding and findable dims.
static LogicalResult checkTensorValue(Value value, Operation *at,
                                      const ErrorReporter &report) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type)
    return success();
  if (!isa<RankedTensorType>(type))
    return report.emitOpError(at) << "has an unranked tensor " << type
                                  << " that cannot be given storage";
  if (!hal::getElementTypeValue(type.getElementType()))
    return report.emitOpError(at)
           << "has a tensor of element type " << type.getElementType()
           << " which has no HAL element type encoding";
  if (type.hasStaticShape() && !util::getStaticByteSize(type))
    return report.emitOpError(at) << "has a tensor " << type
                                  << " whose byte size does not fit in 64 bits";
  if (failed(flow::findDynamicDims(value)))
    return report.emitOpError(at)
           << "produces " << type << " whose dynamic dims cannot be found";
  return success();
}

/// A value made in a fragment gets an allocation of its own, or a slice of
/// the slab, unless it is a view: either way its bytes are allocated, and a
/// device allocates at most `maxAllocation` bytes at once.
static LogicalResult checkAllocationLimit(Value value, Operation *at,
                                          int64_t maxAllocation,
                                          const ErrorReporter &report) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return success();
  std::optional<int64_t> size = util::getStaticByteSize(type);
  if (!size || *size <= maxAllocation)
    return success();
  return report.emitOpError(at) << "makes a " << type << " of " << *size
                                << " bytes, more than the device allocates at "
                                   "once (max_allocation_size = "
                                << maxAllocation << ")";
}

/// Scalars used by recorded commands must be known outside the fragment:
/// fragment arguments or constants (which are hoisted).
static LogicalResult checkScalarOperands(Operation *op, Block &body,
                                         const ErrorReporter &report) {
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    if (isa<ShapedType>(value.getType()))
      continue;
    if (auto argument = dyn_cast<BlockArgument>(value))
      if (argument.getOwner() == &body)
        continue;
    if (value.getDefiningOp<arith::ConstantOp>())
      continue;
    return report.emitOpError(op)
           << "uses scalar operand " << operand.getOperandNumber()
           << " that is neither a fragment argument nor a constant; only "
              "those are known when the commands are recorded";
  }
  return success();
}

static LogicalResult checkSplat(flow::TensorSplatOp op,
                                const ErrorReporter &report) {
  Type elementType = op.getValue().getType();
  if (getSplatPatternMultiplier(elementType))
    return success();
  if (isWideSplatElementType(elementType))
    return checkWideSplat(op, report);
  return report.emitOpError(op)
         << "splats " << elementType
         << " values, but fills take a 32-bit pattern: only 8-, 16-, 32- and "
            "64-bit elements (and complex<f32>) are supported";
}

static LogicalResult checkTensorConstant(arith::ConstantOp constant,
                                         const ErrorReporter &report) {
  // Only scalars are hoisted; a tensor constant would get storage that
  // nothing ever fills.
  if (!isa<ShapedType>(constant.getType()))
    return success();
  return report.emitOpError(constant)
         << "defines a " << constant.getType()
         << " constant inside a stream fragment; only scalar constants can be "
            "hoisted (tensor contents belong in a hal.constant.subspan or a "
            "flow.tensor.splat)";
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<StorageKind>>
classifyAliasClasses(flow::ExStreamFragmentOp fragment,
                     const ValueAliasing &aliasing,
                     const ErrorReporter &report) {
  SmallVector<StorageKind> kinds(aliasing.getNumClasses(),
                                 StorageKind::Transient);
  // The value that fixed a class's storage (an operand or a constant).
  SmallVector<Value> fixedBy(aliasing.getNumClasses());
  auto fix = [&](Value value, StorageKind kind, Operation *at) {
    unsigned classIndex = aliasing.getClassIndex(value);
    if (Value previous = fixedBy[classIndex]) {
      InFlightDiagnostic diag =
          report.emitOpError(at)
          << "maps a value to two storages: it aliases both ";
      auto describe = [&](Value v) {
        if (auto arg = dyn_cast<BlockArgument>(v))
          diag << "fragment operand " << arg.getArgNumber();
        else
          diag << "the constant subspan at " << v.getLoc();
      };
      describe(previous);
      diag << " and ";
      describe(value);
      return failure();
    }
    fixedBy[classIndex] = value;
    kinds[classIndex] = kind;
    return success();
  };

  Block &body = fragment.getBody().front();
  for (BlockArgument argument : body.getArguments())
    if (aliasing.getOrdinal(argument) &&
        failed(fix(argument, StorageKind::Input, fragment)))
      return failure();
  for (auto constant : body.getOps<hal::ConstantSubspanOp>())
    if (failed(fix(constant.getResult(), StorageKind::Constant, constant)))
      return failure();
  // Constant storage is read-only: a constant class that is written in
  // place or returned (the caller may write a result) gets its own storage.
  SmallVector<bool> written(aliasing.getNumClasses(), false);
  auto markWritten = [&](Value target) {
    if (aliasing.getOrdinal(target))
      written[aliasing.getClassIndex(target)] = true;
  };
  for (Operation &op : body.without_terminator()) {
    if (auto update = dyn_cast<flow::TensorUpdateOp>(op))
      markWritten(update.getTarget());
    else if (auto dispatch = dyn_cast<flow::DispatchOp>(op))
      for (unsigned result = 0, e = dispatch.getNumResults(); result < e;
           ++result)
        if (std::optional<unsigned> operand =
                dispatch.getTiedResultOperandIndex(result))
          markWritten(dispatch->getOperand(*operand));
  }
  // Device rule: a dispatch binds a range at a multiple of the offset
  // alignment. A constant whose byte range starts elsewhere in its pool
  // (the pool's layout was made for some other device) is copied into
  // aligned storage when a dispatch binds it.
  int64_t alignment =
      std::max<int64_t>(hal::getSlabAlignments(fragment).offset, 1);
  for (Operation &op : body.without_terminator())
    if (auto dispatch = dyn_cast<flow::DispatchOp>(op))
      for (Value operand : dispatch.getArguments()) {
        // The operand may be a reshape of the constant: any member of its
        // class is bound at the constant's pool offset.
        if (!aliasing.getOrdinal(operand))
          continue;
        Value fixed = fixedBy[aliasing.getClassIndex(operand)];
        auto constant = fixed ? fixed.getDefiningOp<hal::ConstantSubspanOp>()
                              : hal::ConstantSubspanOp();
        if (constant && constant.getRuntimeRange().getOffset() % alignment != 0)
          markWritten(operand);
      }
  Operation *terminator = body.getTerminator();
  SmallVector<bool> returned(aliasing.getNumClasses(), false);
  for (Value value : terminator->getOperands())
    if (aliasing.getOrdinal(value))
      returned[aliasing.getClassIndex(value)] = true;
  for (unsigned classIndex = 0, e = kinds.size(); classIndex < e;
       ++classIndex) {
    if (!fixedBy[classIndex] && returned[classIndex])
      kinds[classIndex] = StorageKind::Output;
    else if (kinds[classIndex] == StorageKind::Constant &&
             (returned[classIndex] || written[classIndex]))
      kinds[classIndex] =
          returned[classIndex] ? StorageKind::Output : StorageKind::Transient;
  }
  return kinds;
}

/// Applies the views of a fragment to the storage kinds of its classes: a
/// view class becomes StorageKind::View, and a transient root whose group
/// holds a returned view becomes an output.
static void applyStorageViews(const StorageViews &views,
                              MutableArrayRef<StorageKind> kinds) {
  for (unsigned classIndex = 0, e = kinds.size(); classIndex < e;
       ++classIndex) {
    if (views.isView(classIndex))
      kinds[classIndex] = StorageKind::View;
    else if (kinds[classIndex] == StorageKind::Transient &&
             views.isRootReturned(classIndex))
      kinds[classIndex] = StorageKind::Output;
  }
}

//===----------------------------------------------------------------------===//
// FragmentPlan
//===----------------------------------------------------------------------===//

/// What a dispatch's resolution depends on: its callee, its bindings and
/// the types they index into.
using DispatchKey =
    std::pair<std::pair<Attribute, Attribute>, std::pair<TypeRange, TypeRange>>;

FailureOr<std::unique_ptr<FragmentPlan>>
FragmentPlan::build(flow::ExStreamFragmentOp fragment, CopyPolicy copies,
                    ArrayRef<unsigned> operandGroups,
                    const ErrorReporter &report, AnalysisManager *analyses) {
  std::unique_ptr<FragmentPlan> plan(new FragmentPlan(fragment, copies));
  bool ok = true;
  Block &body = fragment.getBody().front();
  for (BlockArgument argument : body.getArguments())
    ok &= succeeded(checkTensorValue(argument, fragment, report));
  int64_t maxAllocation = hal::getDeviceLimits(fragment).maxAllocationSize;
  // Dispatches alike in everything resolution reads resolve alike: each
  // such kind is resolved once (failures are not kept, so each op reports).
  DenseMap<DispatchKey, unsigned> resolutionByKey;
  auto resolve = [&](flow::DispatchOp dispatch) -> LogicalResult {
    for (Value result : dispatch.getResults())
      if (!isa<ShapedType>(result.getType()))
        return report.emitOpError(dispatch)
               << "returns a " << result.getType()
               << " value; dispatches inside stream fragments can only "
                  "produce tensors";
    DispatchKey key{
        {dispatch.getEntryPointAttr(),
         dispatch->getAttr(flow::DispatchOp::getBindingsAttrName())},
        {dispatch.getArguments().getTypes(), dispatch.getResultTypes()}};
    auto known = resolutionByKey.find(key);
    if (known == resolutionByKey.end()) {
      FailureOr<SmallVector<ResolvedVariant>> variants =
          resolveDispatch(dispatch, report);
      if (failed(variants))
        return failure();
      known = resolutionByKey.try_emplace(key, plan->resolutions.size()).first;
      plan->resolutions.push_back(std::move(*variants));
    }
    plan->resolutionOf[dispatch] = known->second;
    return success();
  };
  for (Operation &op : body.without_terminator()) {
    LogicalResult checked =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](flow::DispatchOp dispatch) { return resolve(dispatch); })
            .Case([&](flow::TensorSplatOp splat) {
              return checkSplat(splat, report);
            })
            .Case([&](arith::ConstantOp constant) {
              return checkTensorConstant(constant, report);
            })
            // Boxes are planned below, all at once.
            .Case<flow::TensorSliceOp, flow::TensorUpdateOp,
                  flow::TensorCloneOp, flow::TensorReshapeOp,
                  hal::ConstantSubspanOp>([](Operation *) { return success(); })
            .Default([&](Operation *other) {
              return report.emitOpError(other)
                     << "is an unexpected op in stream fragment: '"
                     << other->getName() << "' cannot be recorded";
            });
    ok &= succeeded(checked);
    if (!isa<arith::ConstantOp>(op))
      ok &= succeeded(checkScalarOperands(&op, body, report));
    for (Value result : op.getResults()) {
      ok &= succeeded(checkTensorValue(result, &op, report));
      ok &= succeeded(checkAllocationLimit(result, &op, maxAllocation, report));
    }
  }
  if (analyses) {
    plan->boxes = &analyses->getAnalysis<BoxGeometry>();
    // The analysis is silent: a box that cannot be planned is planned
    // again, reporting (an error path only).
    if (!plan->boxes->isValid() && report.isReporting())
      (void)BoxGeometry(fragment, report);
  } else {
    plan->ownedBoxes = std::make_unique<BoxGeometry>(fragment, report);
    plan->boxes = plan->ownedBoxes.get();
  }
  ok &= plan->boxes->isValid();
  if (!ok)
    return failure();

  if (analyses) {
    plan->aliasing = &analyses->getAnalysis<ValueAliasing>();
  } else {
    plan->ownedAliasing = std::make_unique<ValueAliasing>(fragment);
    plan->aliasing = plan->ownedAliasing.get();
  }
  FailureOr<SmallVector<StorageKind>> kinds =
      classifyAliasClasses(fragment, *plan->aliasing, report);
  if (failed(kinds))
    return failure();
  plan->kinds = std::move(*kinds);
  if (analyses) {
    // Unioned over the manager's alias classes, the ones read above.
    plan->liveness = &analyses->getAnalysis<LivenessIntervals>();
  } else {
    plan->ownedLiveness =
        std::make_unique<LivenessIntervals>(fragment, *plan->aliasing);
    plan->liveness = plan->ownedLiveness.get();
  }
  plan->views = std::make_unique<StorageViews>(
      fragment, *plan->liveness, *plan->boxes, copies == CopyPolicy::Elide,
      operandGroups, hal::getSlabAlignments(fragment).offset);
  applyStorageViews(*plan->views, plan->kinds);
  LLVM_DEBUG({
    llvm::dbgs() << "plan of the fragment at " << fragment.getLoc() << ":\n";
    plan->print(llvm::dbgs());
  });
  return plan;
}

ArrayRef<ResolvedVariant> FragmentPlan::getVariants(flow::DispatchOp op) const {
  auto it = resolutionOf.find(op);
  assert(it != resolutionOf.end() && "every dispatch of a plan is resolved");
  return resolutions[it->second];
}

/// The name of a storage kind, for printing.
static StringRef getStorageKindName(StorageKind kind) {
  switch (kind) {
  case StorageKind::Input:
    return "input";
  case StorageKind::Constant:
    return "constant";
  case StorageKind::Output:
    return "output";
  case StorageKind::Transient:
    return "transient";
  case StorageKind::View:
    return "view";
  }
  llvm_unreachable("unknown storage kind");
}

void FragmentPlan::print(llvm::raw_ostream &os) const {
  for (auto [classIndex, kind] : llvm::enumerate(kinds)) {
    os << "class " << classIndex << ": " << getStorageKindName(kind) << " ";
    liveness->printClassInterval(os, classIndex);
    os << "\n";
  }
  views->print(os);
  boxes->print(os);
  for (auto dispatch :
       getFragment().getBody().front().getOps<flow::DispatchOp>())
    os << "dispatch at " << dispatch.getLoc() << ": resolution "
       << resolutionOf.lookup(dispatch) << ", " << getVariants(dispatch).size()
       << " variant(s)\n";
}

void FragmentPlan::dump() const { print(llvm::errs()); }

} // namespace streamhal
