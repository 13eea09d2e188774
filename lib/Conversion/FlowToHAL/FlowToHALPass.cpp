//===- FlowToHALPass.cpp - the convert-flow-to-hal pass -------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FragmentPlan.h"
#include "PatternGroups.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "streamhal/Analysis/HostReadability.h"
#include "streamhal/Analysis/OperandStorage.h"
#include "streamhal/Conversion/Passes.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/Flow/Transforms/CopyOnWrite.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"
#include "llvm/ADT/SetVector.h"

namespace streamhal {
#define GEN_PASS_DEF_CONVERTFLOWTOHALPASS
#include "streamhal/Conversion/Passes.h.inc"
} // namespace streamhal

using namespace mlir;

namespace streamhal {

//===----------------------------------------------------------------------===//
// Type converter, patterns, legality
//===----------------------------------------------------------------------===//

FlowToHALTypeConverter::FlowToHALTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([context](RankedTensorType) -> Type {
    return hal::BufferType::get(context);
  });
  // A pointer to a global converts with the global: !util.ptr<tensor<..>>
  // becomes !util.ptr<!hal.buffer>.
  addConversion([this](util::PtrType type) -> std::optional<Type> {
    Type target = convertType(type.getTargetType());
    if (!target)
      return std::nullopt;
    return util::PtrType::get(type.getContext(), target);
  });
}

void populateFlowToHALPatterns(MLIRContext *context,
                               TypeConverter &typeConverter,
                               RewritePatternSet &patterns,
                               const FlowToHALOptions &options) {
  populateBoundaryPatterns(context, typeConverter, patterns);
  populateStreamFragmentPatterns(context, typeConverter, patterns, options);
}

void populateFlowToHALLegality(ConversionTarget &target,
                               TypeConverter &typeConverter) {
  target.addLegalDialect<arith::ArithDialect, hal::HALDialect>();
  target.addIllegalDialect<flow::FlowDialect>();
  target.addIllegalOp<hal::TensorCastOp, hal::ConstantSubspanOp>();
  // Executables keep their own (tensor-typed) device code untouched.
  target.markOpRecursivelyLegal<hal::ExecutableOp>();
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
    return typeConverter.isSignatureLegal(op.getFunctionType()) &&
           typeConverter.isLegal(&op.getBody());
  });
  target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp, util::GlobalLoadOp,
                               util::GlobalStoreOp, util::GlobalAddressOp,
                               util::GlobalLoadIndirectOp,
                               util::GlobalStoreIndirectOp>(
      [&](Operation *op) { return typeConverter.isLegal(op); });
  target.addDynamicallyLegalOp<util::GlobalOp>(
      [&](util::GlobalOp op) { return typeConverter.isLegal(op.getType()); });
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {

struct ConvertFlowToHALPass
    : public impl::ConvertFlowToHALPassBase<ConvertFlowToHALPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // Check everything first so that a bad module fails with precise
    // diagnostics and is left untouched.
    auto plans = std::make_unique<FragmentPlanCache>(copies);
    if (failed(checkFlowToHALLowerable(module, plans.get())))
      return signalPassFailure();
    // Value semantics first: every copy a tie would otherwise lose becomes
    // an explicit clone, so the storage plan may write in place wherever
    // the IR says it may. The fragments of the functions it changed (what
    // a fragment's plan reads of its function may have changed too) and
    // the fragments whose targets moved are planned again; every other plan
    // still holds, so each fragment is planned once unless its IR changed.
    flow::CopyOnWriteStats copyOnWrite = flow::materializeCopyOnWrite(module);
    SetVector<Operation *> replan;
    for (Operation *scope : copyOnWrite.changedScopes)
      scope->walk(
          [&](flow::ExStreamFragmentOp fragment) { replan.insert(fragment); });
    module.walk([&](flow::ExStreamFragmentOp fragment) {
      if (flow::emplaceUpdateTargets(fragment) != 0)
        replan.insert(fragment);
    });
    bool replanned = true;
    OperandStorage storage;
    for (Operation *fragment : replan)
      replanned &= succeeded(checkStreamFragmentLowerable(
          cast<flow::ExStreamFragmentOp>(fragment), plans.get(), &storage));
    if (!replanned)
      return signalPassFailure();

    // Which outputs the host may read, from the uses of the tensors before
    // anything is rewritten; the alias classes come from the check.
    HostReadability hostReadability(
        module,
        [&](flow::ExStreamFragmentOp fragment) -> const ValueAliasing * {
          const FragmentPlan *plan = plans->lookup(fragment);
          return plan ? &plan->getAliasing() : nullptr;
        });

    FlowToHALStatistics statistics;
    FlowToHALOptions options;
    options.outputMemoryType = outputMemoryType;
    options.barriers = barriers;
    options.copies = copies;
    options.statistics = &statistics;
    options.plans = plans.get();
    options.hostReadability = &hostReadability;

    FlowToHALTypeConverter typeConverter(context);
    ConversionTarget target(*context);
    populateFlowToHALLegality(target, typeConverter);
    RewritePatternSet patterns(context);
    populateFlowToHALPatterns(context, typeConverter, patterns, options);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // Fragments are recorded with blocking submissions; async ones are a
    // rewrite of those (one implementation, also a pass of its own).
    if (submission == SubmissionPolicy::Async)
      scheduleSubmissions(module);

    numFragments += statistics.fragments;
    numTransientSlices += statistics.transientSlices;
    numCommands += statistics.commands;
    numBarriers += statistics.barriers;
    numViews += statistics.views;
  }
};

} // namespace
} // namespace streamhal
