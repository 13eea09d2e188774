//===- StreamFragmentPattern.cpp - lowering flow.ex.stream.fragment -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fragment pattern wires the stages together: analyses, storage plan,
// command recording, then the fragment's results become output buffers.
//
//===----------------------------------------------------------------------===//

#include "CommandRecorder.h"
#include "FragmentAnalysis.h"
#include "PatternGroups.h"
#include "StoragePlan.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "streamhal/Conversion/FlowToHAL/HostReadability.h"

using namespace mlir;

namespace streamhal {
namespace {

struct StreamFragmentLowering
    : public OpConversionPattern<flow::ExStreamFragmentOp> {
  StreamFragmentLowering(const TypeConverter &typeConverter,
                         MLIRContext *context, const FlowToHALOptions &options)
      : OpConversionPattern(typeConverter, context), options(options) {}

  LogicalResult
  matchAndRewrite(flow::ExStreamFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The up-front check analysed the fragment already when it ran with a
    // cache; otherwise analyse it here, silently: user errors are reported
    // by checkFlowToHALLowerable, a pattern only declines.
    const FragmentAnalysisCache::Entry *analysis =
        options.analyses ? options.analyses->lookup(op) : nullptr;
    std::unique_ptr<FragmentAnalysisCache::Entry> ownAnalysis;
    if (!analysis) {
      ScopedDiagnosticHandler silence(op.getContext(),
                                      [](Diagnostic &) { return success(); });
      FailureOr<std::unique_ptr<FragmentAnalysisCache::Entry>> analysed =
          analyzeStreamFragment(op);
      if (failed(analysed))
        return rewriter.notifyMatchFailure(
            op, "fragment cannot be lowered; checkFlowToHALLowerable reports "
                "why");
      ownAnalysis = std::move(*analysed);
      analysis = ownAnalysis.get();
    }
    const ValueAliasing &aliasing = *analysis->aliasing;
    LivenessIntervals liveness(op, aliasing);
    StorageViews views(
        op, liveness,
        [](Operation *boxOp) {
          CopyBox box = getCopyBox(boxOp, [](Value value) { return value; });
          ScopedDiagnosticHandler silence(
              boxOp->getContext(), [](Diagnostic &) { return success(); });
          FailureOr<BoxCopyPlan> plan = planBoxCopy(boxOp, box);
          return succeeded(plan) && plan->contiguous;
        },
        options.copies == CopyPolicy::Elide, analysis->operandGroups,
        hal::getSlabAlignments(op).offset);
    SmallVector<StorageKind> kinds(analysis->kinds);
    applyStorageViews(views, kinds);

    rewriter.setInsertionPoint(op);
    FragmentState state(rewriter, op, adaptor.getArguments(), aliasing,
                        liveness, views, kinds);
    Block &body = op.getBody().front();
    // Dims of block arguments are the fragment's own (unconverted) operands;
    // map them to their converted values so that a size computed from them
    // and one computed from the matching block argument are the same value.
    for (auto [original, converted] :
         llvm::zip_equal(op->getOperands(), adaptor.getOperands()))
      if (!ValueAliasing::isTrackedType(original.getType()))
        state.mapScalar(original, converted);
    for (auto [argument, converted] :
         llvm::zip_equal(body.getArguments(), adaptor.getArguments()))
      if (!aliasing.getOrdinal(argument))
        state.mapScalar(argument, converted);
    for (auto constant : body.getOps<arith::ConstantOp>())
      state.mapScalar(constant.getResult(), state.hoistConstant(constant));

    // Without the analysis the host may read every result.
    SmallVector<bool> hostReadableResults;
    for (Value result : op->getResults())
      hostReadableResults.push_back(
          !options.hostReadability ||
          options.hostReadability->isHostReadable(result));
    StoragePlan plan(state, options.outputMemoryType, hostReadableResults);
    plan.materialize();
    CommandRecorder recorder(state, options.barriers);
    recorder.record();

    SmallVector<Value> results;
    for (Value returned : body.getTerminator()->getOperands())
      results.push_back(aliasing.getOrdinal(returned)
                            ? state.getRange(returned).buffer
                            : state.lookupScalar(returned));
    rewriter.replaceOp(op, results);

    if (FlowToHALStatistics *statistics = options.statistics) {
      ++statistics->fragments;
      statistics->transientSlices += plan.getNumTransients();
      statistics->commands += recorder.getNumCommands();
      statistics->barriers += recorder.getNumBarriers();
      statistics->views += views.getNumViews();
    }
    return success();
  }

private:
  FlowToHALOptions options;
};

} // namespace

void populateStreamFragmentPatterns(MLIRContext *context,
                                    TypeConverter &typeConverter,
                                    RewritePatternSet &patterns,
                                    const FlowToHALOptions &options) {
  patterns.add<StreamFragmentLowering>(typeConverter, context, options);
}

} // namespace streamhal
