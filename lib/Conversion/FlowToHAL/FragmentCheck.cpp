//===- FragmentCheck.cpp - can a stream fragment be lowered? --------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything a user's module can get wrong is found here, before anything
// is rewritten, with a diagnostic at the op at fault: each fragment by
// building its plan (FragmentPlan.cpp), and what surrounds fragments by the
// checks below.
//
//===----------------------------------------------------------------------===//

#include "FragmentPlan.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "streamhal/Analysis/OperandStorage.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Dialect/HAL/IR/ElementTypes.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace streamhal {

LogicalResult checkStreamFragmentLowerable(flow::ExStreamFragmentOp fragment,
                                           FragmentPlanCache *plans,
                                           OperandStorage *storage,
                                           AnalysisManager *analyses) {
  // Which operands may be one buffer, traced through the function while it
  // is still intact (a pattern cannot look outside its fragment).
  SmallVector<unsigned> operandGroups = storage
                                            ? storage->groupOperands(fragment)
                                            : groupOperandStorage(fragment);
  std::optional<AnalysisManager> fragmentAnalyses;
  if (analyses)
    fragmentAnalyses = analyses->nest(fragment);
  FailureOr<std::unique_ptr<FragmentPlan>> plan = FragmentPlan::build(
      fragment, plans ? plans->getCopyPolicy() : CopyPolicy::Elide,
      operandGroups, ErrorReporter(/*enabled=*/true),
      fragmentAnalyses ? &*fragmentAnalyses : nullptr);
  if (failed(plan))
    return failure();
  if (plans)
    plans->insert(fragment, std::move(*plan));
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

LogicalResult checkFlowToHALLowerable(ModuleOp module, FragmentPlanCache *plans,
                                      AnalysisManager *analyses) {
  bool ok = true;
  std::optional<OperandStorage> ownStorage;
  if (!analyses)
    ownStorage.emplace();
  OperandStorage &storage =
      analyses ? analyses->getAnalysis<OperandStorage>() : *ownStorage;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Executables keep their own device code.
    if (isa<hal::ExecutableOp>(op))
      return WalkResult::skip();
    if (auto fragment = dyn_cast<flow::ExStreamFragmentOp>(op)) {
      ok &= succeeded(
          checkStreamFragmentLowerable(fragment, plans, &storage, analyses));
      return WalkResult::skip();
    }
    ok &= succeeded(checkHostElementType(op)) &&
          succeeded(checkOutsideFragments(op));
    return WalkResult::advance();
  });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// FragmentPlanCache
//===----------------------------------------------------------------------===//

FragmentPlanCache::FragmentPlanCache(CopyPolicy copies) : copies(copies) {}
FragmentPlanCache::~FragmentPlanCache() = default;

llvm::hash_code FragmentPlanCache::stampFragment(Operation *fragment) {
  llvm::hash_code stamp = llvm::hash_combine(
      fragment->getAttrDictionary().getAsOpaquePointer(),
      fragment->hashProperties(), fragment->getNumOperands());
  // Values inside the body are the body's own (a fragment is isolated from
  // above), so their identities are stable while the fragment is.
  fragment->walk([&](Operation *op) {
    if (op == fragment)
      return;
    stamp = llvm::hash_combine(stamp, op, op->getName().getAsOpaquePointer(),
                               op->getAttrDictionary().getAsOpaquePointer(),
                               op->hashProperties());
    for (Value operand : op->getOperands())
      stamp = llvm::hash_combine(stamp, operand.getAsOpaquePointer());
    for (Type type : op->getResultTypes())
      stamp = llvm::hash_combine(stamp, type.getAsOpaquePointer());
  });
  return stamp;
}

const FragmentPlan *FragmentPlanCache::lookup(Operation *fragment,
                                              bool *stale) const {
  auto it = plans.find(fragment);
  if (it == plans.end())
    return nullptr;
  if (it->second.stamp != stampFragment(fragment)) {
    if (stale)
      *stale = true;
    return nullptr;
  }
  return it->second.plan.get();
}

void FragmentPlanCache::insert(Operation *fragment,
                               std::unique_ptr<FragmentPlan> plan) {
  plans[fragment] = {stampFragment(fragment), std::move(plan)};
}

} // namespace streamhal

//===----------------------------------------------------------------------===//
// FragmentPlanView
//===----------------------------------------------------------------------===//

namespace streamhal {

flow::ExStreamFragmentOp FragmentPlanView::getFragment() const {
  return plan->getFragment();
}
const ValueAliasing &FragmentPlanView::getAliasing() const {
  return plan->getAliasing();
}
const LivenessIntervals &FragmentPlanView::getLiveness() const {
  return plan->getLiveness();
}
const BoxGeometry &FragmentPlanView::getBoxes() const {
  return plan->getBoxes();
}
const StorageViews &FragmentPlanView::getViews() const {
  return plan->getViews();
}
CopyPolicy FragmentPlanView::getCopyPolicy() const {
  return plan->getCopyPolicy();
}
StorageKind FragmentPlanView::getStorageKind(Value tensor) const {
  return plan->getStorageKind(tensor);
}

std::optional<FragmentPlanView>
FragmentPlanView::lookup(const FragmentPlanCache &plans, Operation *fragment) {
  if (const FragmentPlan *plan = plans.lookup(fragment))
    return FragmentPlanView(*plan);
  return std::nullopt;
}

} // namespace streamhal
