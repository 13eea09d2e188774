//===- FlowToHALPass.cpp - the convert-flow-to-hal-patterns pass ----------===//
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
#include "streamhal/Conversion/Passes.h"
#include "streamhal/Dialect/Flow/IR/FlowOps.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/Util/IR/UtilOps.h"

namespace streamhal {
#define GEN_PASS_DEF_CONVERTFLOWTOHALPATTERNSPASS
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

struct ConvertFlowToHALPatternsPass
    : public impl::ConvertFlowToHALPatternsPassBase<
          ConvertFlowToHALPatternsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // Without copy on write, in-place writes would clobber values still
    // needed: silent wrong results. Refused up front.
    if (!module->hasAttr(flow::kCopyOnWriteAttrName)) {
      module.emitError()
          << "convert-flow-to-hal-patterns lowers a module after copy on "
             "write: run flow-materialize-copy-on-write first (or the "
             "convert-flow-to-hal pipeline, which runs every step)";
      return signalPassFailure();
    }

    // Check everything first so that a bad module fails with precise
    // diagnostics and is left untouched; the plans are kept for the
    // patterns. Their analyses (operand storage, alias classes, liveness,
    // boxes) are the analysis manager's, shared with any other pass that
    // asks; the conversion invalidates them all.
    AnalysisManager analyses = getAnalysisManager();
    FragmentPlanCache plans(copies);
    if (failed(checkFlowToHALLowerable(module, &plans, &analyses)))
      return signalPassFailure();

    // Which outputs the host may read, from the uses of the tensors before
    // anything is rewritten, with the same alias classes.
    const HostReadability &hostReadability = getAnalysis<HostReadability>();

    FlowToHALStatistics statistics;
    FlowToHALOptions options;
    options.outputMemoryType = outputMemoryType;
    options.copies = copies;
    options.statistics = &statistics;
    options.plans = &plans;
    options.hostReadability = &hostReadability;

    FlowToHALTypeConverter typeConverter(context);
    ConversionTarget target(*context);
    populateFlowToHALLegality(target, typeConverter);
    RewritePatternSet patterns(context);
    populateFlowToHALPatterns(context, typeConverter, patterns, options);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // The module is HAL now: the flow-level marker has nothing to say.
    module->removeAttr(flow::kCopyOnWriteAttrName);

    numFragments += statistics.fragments;
    numTransientSlices += statistics.transientSlices;
    numCommands += statistics.commands;
    numViews += statistics.views;
  }
};

} // namespace
} // namespace streamhal
