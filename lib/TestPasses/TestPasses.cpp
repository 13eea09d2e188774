//===- TestPasses.cpp - passes that expose analyses to lit tests ----------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/TestPasses/TestPasses.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/Pass.h"
#include "streamhal/Analysis/LivenessIntervals.h"
#include "streamhal/Analysis/ValueAliasing.h"
#include "streamhal/Dialect/HAL/Analysis/CommandAccesses.h"
#include "streamhal/Dialect/HAL/Analysis/WorkCounters.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace mlir;
using namespace streamhal;

/// The interval and class of `value`, as LivenessIntervals prints them.
static StringAttr describe(Builder &builder, const LivenessIntervals &liveness,
                           Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  liveness.printInterval(os, value);
  return builder.getStringAttr(text);
}

namespace {

/// Runs ValueAliasing and LivenessIntervals on every stream fragment and
/// records, for every tensor value, its interval and alias class:
///  - on the fragment, `test.arg_liveness`: one string per tensor block
///    argument, in argument order;
///  - on every body op with tensor results, `test.liveness`: one string per
///    tensor result, in result order.
/// Each string reads "[start, end] class N", with `in` / `out` for the
/// live-in / live-out sentinels. With `annotate=false` the analyses run but
/// the IR is left untouched; `repeat=N` times N constructions of both
/// analyses per fragment and prints the first, min and median (for
/// benchmarks).
struct TestStreamLivenessPass
    : public PassWrapper<TestStreamLivenessPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestStreamLivenessPass)

  TestStreamLivenessPass() = default;
  TestStreamLivenessPass(const TestStreamLivenessPass &pass)
      : PassWrapper(pass) {}

  StringRef getArgument() const final { return "test-stream-liveness"; }
  StringRef getName() const final { return "TestStreamLiveness"; }
  StringRef getDescription() const final {
    return "Annotates stream fragments with their value alias classes and "
           "liveness intervals";
  }

  void runOnOperation() override {
    Builder builder(&getContext());
    getOperation()->walk([&](flow::ExStreamFragmentOp fragment) {
      if (repeat > 0)
        reportTime(fragment);
      // Built by the analysis manager, as a pass would get them.
      AnalysisManager analyses = getAnalysisManagerOf(fragment);
      const ValueAliasing &aliasing = analyses.getAnalysis<ValueAliasing>();
      const LivenessIntervals &liveness =
          analyses.getAnalysis<LivenessIntervals>();
      if (!annotate)
        return;
      Region &region = fragment.getBody();
      if (region.empty())
        return;
      Block &body = region.front();
      SmallVector<Attribute> argumentNotes;
      for (BlockArgument argument : body.getArguments())
        if (aliasing.getOrdinal(argument))
          argumentNotes.push_back(describe(builder, liveness, argument));
      fragment->setAttr("test.arg_liveness",
                        builder.getArrayAttr(argumentNotes));
      for (Operation &op : body) {
        SmallVector<Attribute> resultNotes;
        for (Value result : op.getResults())
          if (aliasing.getOrdinal(result))
            resultNotes.push_back(describe(builder, liveness, result));
        if (!resultNotes.empty())
          op.setAttr("test.liveness", builder.getArrayAttr(resultNotes));
      }
    });
    if (!annotate)
      markAllAnalysesPreserved();
  }

  /// The analysis manager of `op`, nested from the pass's operation.
  AnalysisManager getAnalysisManagerOf(Operation *op) {
    SmallVector<Operation *> chain;
    for (Operation *parent = op; parent != getOperation();
         parent = parent->getParentOp())
      chain.push_back(parent);
    AnalysisManager analyses = getAnalysisManager();
    for (Operation *parent : llvm::reverse(chain))
      analyses = analyses.nest(parent);
    return analyses;
  }

  /// Builds both analyses `repeat` times and prints the first (cold), the
  /// fastest and the median time to stderr, with the median time of a bare
  /// walk over the body as a reference.
  void reportTime(flow::ExStreamFragmentOp fragment) {
    SmallVector<double> milliseconds, walkMilliseconds, aliasingMilliseconds;
    size_t numValues = 0, numClasses = 0, numTensorUses = 0;
    for (unsigned run = 0; run < repeat; ++run) {
      // Reference: one bare walk over the body reading the type of every
      // operand and result, the least any analysis of the body must touch.
      auto walkBegin = std::chrono::steady_clock::now();
      numTensorUses = 0;
      if (!fragment.getBody().empty())
        for (Operation &op : fragment.getBody().front()) {
          for (Value operand : op.getOperands())
            numTensorUses += ValueAliasing::isTrackedType(operand.getType());
          for (Value result : op.getResults())
            numTensorUses += ValueAliasing::isTrackedType(result.getType());
        }
      auto walkEnd = std::chrono::steady_clock::now();
      walkMilliseconds.push_back(
          std::chrono::duration<double, std::milli>(walkEnd - walkBegin)
              .count());

      auto begin = std::chrono::steady_clock::now();
      {
        ValueAliasing aliasing(fragment);
        aliasingMilliseconds.push_back(
            std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - begin)
                .count());
        LivenessIntervals liveness(fragment, aliasing);
        numValues = aliasing.getValues().size();
        numClasses = aliasing.getNumClasses();
      }
      auto end = std::chrono::steady_clock::now();
      milliseconds.push_back(
          std::chrono::duration<double, std::milli>(end - begin).count());
    }
    double first = milliseconds.front();
    auto median = [](SmallVector<double> &samples) {
      llvm::sort(samples);
      return samples[samples.size() / 2];
    };
    double medianTime = median(milliseconds);
    llvm::errs() << llvm::formatv(
        "test-stream-liveness: {0} values, {1} classes, {2} runs: first "
        "{3:f3} ms, min {4:f3} ms, median {5:f3} ms (aliasing {6:f3} ms); "
        "bare walk over {7} tensor operands and results: median {8:f3} ms\n",
        numValues, numClasses, milliseconds.size(), first, milliseconds.front(),
        medianTime, median(aliasingMilliseconds), numTensorUses,
        median(walkMilliseconds));
  }

  Option<unsigned> repeat{
      *this, "repeat",
      llvm::cl::desc("Also build the analyses this many times per fragment "
                     "and print the first, min and median time to stderr"),
      llvm::cl::init(0)};
  Option<bool> annotate{
      *this, "annotate",
      llvm::cl::desc("Attach the results to the IR (false: only compute them, "
                     "for timing)"),
      llvm::cl::init(true)};
};

/// Prints the work counters of the conflict queries (WorkCounters.h) to
/// stderr, as `work-counters: NAME=N ...` with the number of commands under
/// the op, and sets them to 0: after a pipeline, it tells how much work the
/// pipeline's queries did, in any build type, for tests that bound the work
/// per command.
struct TestWorkCountersPass
    : public PassWrapper<TestWorkCountersPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestWorkCountersPass)

  StringRef getArgument() const final { return "test-work-counters"; }
  StringRef getName() const final { return "TestWorkCounters"; }
  StringRef getDescription() const final {
    return "Prints and resets the work counters of the conflict queries";
  }

  void runOnOperation() override {
    uint64_t commands = 0;
    getOperation()->walk([&](Operation *op) {
      if (isBufferCommand(op))
        ++commands;
    });
    llvm::errs() << "work-counters: commands=" << commands;
    for (unsigned counter = 0; counter < static_cast<unsigned>(Work::Count);
         ++counter)
      llvm::errs() << " " << getWorkName(static_cast<Work>(counter)) << "="
                   << getWork(static_cast<Work>(counter));
    llvm::errs() << "\n";
    resetWork();
    markAllAnalysesPreserved();
  }
};

} // namespace

void streamhal::registerTestPasses() {
  PassRegistration<TestStreamLivenessPass>();
  PassRegistration<TestWorkCountersPass>();
  registerTestFragmentPlanPass();
}
