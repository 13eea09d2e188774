//===- PipelineOptionsTest.cpp - Pipelines built from C++ options ---------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Options set from C++ can hold values the command line refuses; a pipeline
// built from them must fail with a diagnostic, not record racing commands.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "streamhal/Conversion/Passes.h"
#include "streamhal/Dialect/HAL/IR/HALOps.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"
#include "streamhal/Registration/Pipelines.h"
#include "streamhal/Registration/Registration.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace streamhal;

namespace {

/// Two fills of one buffer: the second needs a barrier before it.
constexpr const char *kTwoFills = R"mlir(
func.func @two_fills(%out: !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %p = arith.constant 0 : i32
  %dev = hal.ex.shared_device : !hal.device
  %cmd = hal.command_buffer.create device(%dev : !hal.device) mode(OneShot) categories(Transfer) : !hal.command_buffer
  hal.command_buffer.begin<%cmd : !hal.command_buffer>
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%out : !hal.buffer)[%c0, %c16] pattern(%p : i32)
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%out : !hal.buffer)[%c0, %c16] pattern(%p : i32)
  hal.command_buffer.end<%cmd : !hal.command_buffer>
  hal.ex.submit_and_wait %dev, %cmd
  return
}
)mlir";

/// A fragment writing one tensor twice.
constexpr const char *kFragment = R"mlir(
func.func @splats() -> tensor<4xi32> {
  %0 = flow.ex.stream.fragment() : () -> tensor<4xi32> = () -> tensor<4xi32> {
    %c1 = arith.constant 1 : i32
    %s = flow.tensor.splat %c1 : tensor<4xi32>
    flow.return %s : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
)mlir";

struct PipelineRun {
  bool succeeded = false;
  std::string diagnostics;
  unsigned barriers = 0;
};

/// Parses `source`, runs what `build` adds to a pass manager, and collects
/// the diagnostics and the barriers of the result.
template <typename BuildFn>
PipelineRun runPipeline(const char *source, BuildFn build) {
  DialectRegistry registry;
  registerStreamHALDialects(registry);
  MLIRContext context(registry);
  PipelineRun run;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    run.diagnostics += diagnostic.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  EXPECT_TRUE(module);
  if (!module)
    return run;
  PassManager pm(&context);
  build(pm);
  run.succeeded = succeeded(pm.run(*module));
  module->walk([&](hal::CommandBufferExecutionBarrierOp) { ++run.barriers; });
  return run;
}

TEST(PipelineOptions, PlaceBarriersRefusesNone) {
  PipelineRun run = runPipeline(kTwoFills, [](PassManager &pm) {
    hal::PlaceBarriersPassOptions options;
    options.policy = BarrierPolicy::None;
    pm.addPass(hal::createPlaceBarriersPass(options));
  });
  EXPECT_FALSE(run.succeeded);
  EXPECT_NE(run.diagnostics.find("needs a policy that places barriers"),
            std::string::npos)
      << run.diagnostics;
  EXPECT_EQ(run.barriers, 0u);
}

TEST(PipelineOptions, PlaceBarriersHazard) {
  PipelineRun run = runPipeline(kTwoFills, [](PassManager &pm) {
    pm.addPass(hal::createPlaceBarriersPass());
  });
  EXPECT_TRUE(run.succeeded) << run.diagnostics;
  EXPECT_EQ(run.barriers, 1u);
}

TEST(PipelineOptions, LowerToHALRefusesNoBarriers) {
  PipelineRun run = runPipeline(kFragment, [](PassManager &pm) {
    LowerToHALPipelineOptions options;
    options.barriers = BarrierPolicy::None;
    buildLowerToHALPipeline(pm, options);
  });
  EXPECT_FALSE(run.succeeded);
  EXPECT_NE(run.diagnostics.find("needs a policy that places barriers"),
            std::string::npos)
      << run.diagnostics;
}

TEST(PipelineOptions, ConvertFlowToHALLeavesBarriersOutOnNone) {
  PipelineRun run = runPipeline(kFragment, [](PassManager &pm) {
    ConvertFlowToHALPipelineOptions options;
    options.barriers = BarrierPolicy::None;
    buildConvertFlowToHALPipeline(pm, options);
  });
  EXPECT_TRUE(run.succeeded) << run.diagnostics;
  EXPECT_EQ(run.barriers, 0u);
}

/// Prints the pipeline `build` adds, parses the text into a fresh pass
/// manager and prints that: both texts must be equal (and the parse must
/// succeed), so that a pipeline built from C++ options can be logged and
/// rerun.
template <typename BuildFn> void expectRoundTrip(BuildFn build) {
  DialectRegistry registry;
  registerStreamHALDialects(registry);
  MLIRContext context(registry);
  PassManager pm(&context);
  build(pm);
  std::string printed;
  llvm::raw_string_ostream printedStream(printed);
  pm.printAsTextualPipeline(printedStream);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  // The whole text, anchor included (`any(...)`).
  FailureOr<OpPassManager> reparsed = parsePassPipeline(printed, errorStream);
  ASSERT_TRUE(succeeded(reparsed)) << printed << "\n" << errors;
  std::string again;
  llvm::raw_string_ostream againStream(again);
  reparsed->printAsTextualPipeline(againStream);
  EXPECT_EQ(printed, again);
}

/// A pipeline forwards its options to its passes: the defaults agree, so a
/// pipeline built with default options runs each pass as its own defaults
/// would.
TEST(PipelineOptions, DefaultsAgreeWithThePasses) {
  LowerToHALPipelineOptions lower;
  ConvertFlowToHALPipelineOptions convert;
  ConvertFlowToHALPatternsPassOptions patterns;
  hal::PackAllocationsPassOptions pack;
  hal::PlaceBarriersPassOptions place;
  EXPECT_EQ(lower.timeLimit, pack.timeLimit);
  EXPECT_EQ(lower.strategy, pack.strategy);
  EXPECT_EQ(lower.barriers, place.policy);
  EXPECT_EQ(convert.barriers, place.policy);
  EXPECT_EQ(lower.copies, patterns.copies);
  EXPECT_EQ(convert.copies, patterns.copies);
  EXPECT_EQ(lower.outputMemoryType.getValue(), patterns.outputMemoryType);
  EXPECT_EQ(convert.outputMemoryType.getValue(), patterns.outputMemoryType);
}

TEST(PipelineOptions, EveryCombinationRoundTrips) {
  registerStreamHALPasses();
  registerTransformsPasses();
  const BarrierPolicy barriers[] = {BarrierPolicy::None, BarrierPolicy::Full,
                                    BarrierPolicy::Hazard};
  const CopyPolicy copies[] = {CopyPolicy::Always, CopyPolicy::Elide};
  const SubmissionPolicy submissions[] = {SubmissionPolicy::Blocking,
                                          SubmissionPolicy::Async};
  const std::optional<hal::MemoryType> memoryTypes[] = {
      std::nullopt, hal::MemoryType::DeviceLocal,
      hal::MemoryType::DeviceLocal | hal::MemoryType::HostVisible};
  const packing::PackingStrategy strategies[] = {
      packing::PackingStrategy::InOrder, packing::PackingStrategy::Greedy,
      packing::PackingStrategy::Optimal};
  unsigned combinations = 0;
  for (BarrierPolicy barrier : barriers)
    for (CopyPolicy copy : copies)
      for (SubmissionPolicy submission : submissions)
        for (std::optional<hal::MemoryType> memoryType : memoryTypes) {
          expectRoundTrip([&](PassManager &pm) {
            ConvertFlowToHALPipelineOptions options;
            options.barriers = barrier;
            options.copies = copy;
            options.submission = submission;
            options.outputMemoryType = memoryType;
            buildConvertFlowToHALPipeline(pm, options);
          });
          for (packing::PackingStrategy strategy : strategies) {
            expectRoundTrip([&](PassManager &pm) {
              LowerToHALPipelineOptions options;
              options.barriers = barrier;
              options.copies = copy;
              options.submission = submission;
              options.outputMemoryType = memoryType;
              options.strategy = strategy;
              options.timeLimit = 0.25;
              buildLowerToHALPipeline(pm, options);
            });
            ++combinations;
          }
          ++combinations;
        }
  EXPECT_EQ(combinations, 3u * 2 * 2 * 3 * 4);
  // The passes on their own, with every value of their enum options.
  for (BarrierPolicy barrier : barriers)
    expectRoundTrip([&](PassManager &pm) {
      hal::PlaceBarriersPassOptions options;
      options.policy = barrier;
      pm.addPass(hal::createPlaceBarriersPass(options));
    });
}

} // namespace
