//===- StreamFragmentPattern.cpp - lowering flow.ex.stream.fragment -------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fragment pattern: the plan (made by the check), then its storage, its
// commands, and the fragment's results become output buffers.
//
//===----------------------------------------------------------------------===//

#include "CommandRecorder.h"
#include "PatternGroups.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "streamhal/Analysis/HostReadability.h"

using namespace mlir;

namespace streamhal {
namespace {

/// Maps the scalars of the body to values outside it: the dims of block
/// arguments are the fragment's own (unconverted) operands, mapped to their
/// converted values so that a size computed from them and one computed from
/// the matching block argument are the same value; scalar block arguments
/// to the converted operands; constants to their hoisted copies.
static void mapOuterScalars(flow::ExStreamFragmentOp op,
                            ValueRange convertedOperands,
                            ValueRange convertedArguments,
                            const FragmentPlan &plan,
                            FragmentBuilder &builder) {
  for (auto [original, converted] :
       llvm::zip_equal(op->getOperands(), convertedOperands))
    if (!ValueAliasing::isTrackedType(original.getType()))
      builder.mapScalar(original, converted);
  Block &body = op.getBody().front();
  for (auto [argument, converted] :
       llvm::zip_equal(body.getArguments(), convertedArguments))
    if (!plan.getAliasing().getOrdinal(argument))
      builder.mapScalar(argument, converted);
  for (auto constant : body.getOps<arith::ConstantOp>())
    builder.mapScalar(constant.getResult(), builder.hoistConstant(constant));
}

struct StreamFragmentLowering
    : public OpConversionPattern<flow::ExStreamFragmentOp> {
  StreamFragmentLowering(const TypeConverter &typeConverter,
                         MLIRContext *context, const FlowToHALOptions &options)
      : OpConversionPattern(typeConverter, context), options(options) {}

  LogicalResult
  matchAndRewrite(flow::ExStreamFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // With a cache, the up-front check planned every fragment the patterns
    // may lower: a missing or stale plan is a misuse of the API, reported
    // (a plan of another version of the fragment would record commands for
    // ops that are gone). Without one, plan here, silently: user errors are
    // reported by checkFlowToHALLowerable, a pattern only declines.
    auto module = op->getParentOfType<ModuleOp>();
    if (!module || !module->hasAttr(flow::kCopyOnWriteAttrName))
      return op.emitError()
             << "is lowered before copy on write ran on its module: run "
                "flow::materializeCopyOnWrite (or prepareFlowToHAL, which "
                "runs every step) before the patterns, or in-place writes "
                "would clobber values still needed";
    const FragmentPlan *plan = nullptr;
    if (options.plans) {
      bool stale = false;
      if (options.plans->getCopyPolicy() != options.copies)
        return op.emitError()
               << "cannot be lowered with this FragmentPlanCache: it was "
                  "made for another copy policy than FlowToHALOptions::copies";
      plan = options.plans->lookup(op, &stale);
      if (stale)
        return op.emitError()
               << "changed after checkFlowToHALLowerable planned it (a "
                  "transform ran between the check and the patterns): run "
                  "copy on write and emplacement first, then the check, "
                  "then the patterns";
      if (!plan)
        return op.emitError()
               << "has no plan in the FragmentPlanCache: run "
                  "checkFlowToHALLowerable on the module, after copy on "
                  "write, before the patterns";
    }
    std::unique_ptr<FragmentPlan> ownPlan;
    if (!plan) {
      FailureOr<std::unique_ptr<FragmentPlan>> planned = FragmentPlan::build(
          op, options.copies, /*operandGroups=*/{}, ErrorReporter(false));
      if (failed(planned))
        return rewriter.notifyMatchFailure(
            op, "fragment cannot be lowered; checkFlowToHALLowerable reports "
                "why");
      ownPlan = std::move(*planned);
      plan = ownPlan.get();
    }

    rewriter.setInsertionPoint(op);
    FragmentBuilder builder(rewriter, op);
    mapOuterScalars(op, adaptor.getOperands(), adaptor.getArguments(), *plan,
                    builder);
    // Without the analysis the host may read every result.
    SmallVector<bool> hostReadableResults;
    for (Value result : op->getResults())
      hostReadableResults.push_back(
          !options.hostReadability ||
          options.hostReadability->isHostReadable(result));
    FragmentStorage storage(*plan, builder, adaptor.getArguments(),
                            {options.outputMemoryType, hostReadableResults});
    CommandRecorder recorder(*plan, builder, storage);
    recorder.record();

    const ValueAliasing &aliasing = plan->getAliasing();
    SmallVector<Value> results;
    for (Value returned : op.getBody().front().getTerminator()->getOperands())
      results.push_back(aliasing.getOrdinal(returned)
                            ? storage.getRange(returned).buffer
                            : builder.lookupScalar(returned));
    rewriter.replaceOp(op, results);

    if (FlowToHALStatistics *statistics = options.statistics) {
      ++statistics->fragments;
      statistics->transientSlices += storage.getNumTransients();
      statistics->commands += recorder.getNumCommands();
      statistics->views += plan->getViews().getNumViews();
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
