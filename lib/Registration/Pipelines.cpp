//===- Pipelines.cpp - streamhal pass pipelines ---------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Registration/Pipelines.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "streamhal/Conversion/Passes.h"
#include "streamhal/Dialect/Flow/Transforms/Passes.h"
#include "streamhal/Dialect/HAL/Transforms/Passes.h"

using namespace mlir;

/// The steps before the packs: constant storage the device cannot bind
/// where it lies read as constant operands, value semantics, then the decisions
/// the conversion reads (IREE's shape: copy on write, then elision and
/// allocation, then recording), then the conversion.
static void
addConversionPasses(OpPassManager &pm,
                    std::optional<streamhal::hal::MemoryType> outputMemoryType,
                    streamhal::CopyPolicy copies) {
  using namespace streamhal;
  pm.addPass(flow::createReadMisalignedConstantStoragePass());
  pm.addPass(flow::createMaterializeCopyOnWritePass());
  pm.addPass(flow::createEmplaceUpdateTargetsPass());
  ConvertFlowToHALPatternsPassOptions convertOptions;
  convertOptions.outputMemoryType = outputMemoryType;
  convertOptions.copies = copies;
  pm.addPass(createConvertFlowToHALPatternsPass(convertOptions));
}

void streamhal::buildConvertFlowToHALPipeline(
    OpPassManager &pm, const ConvertFlowToHALPipelineOptions &options) {
  addConversionPasses(pm, options.outputMemoryType.getValue(),
                      options.copies.getValue());
  if (options.barriers != BarrierPolicy::None) {
    hal::PlaceBarriersPassOptions barrierOptions;
    barrierOptions.policy = options.barriers;
    pm.addPass(hal::createPlaceBarriersPass(barrierOptions));
  }
  if (options.submission == SubmissionPolicy::Async)
    pm.addPass(hal::createScheduleSubmissionsPass());
}

void streamhal::buildLowerToHALPipeline(
    OpPassManager &pm, const LowerToHALPipelineOptions &options) {
  addConversionPasses(pm, options.outputMemoryType.getValue(),
                      options.copies.getValue());

  // The function's plan replaces the fragments' before any pack is placed.
  if (options.transients == TransientPlan::Function) {
    hal::PlanFunctionTransientsPassOptions planOptions;
    planOptions.submission = options.submission;
    pm.addPass(hal::createPlanFunctionTransientsPass(planOptions));
  }

  hal::PackAllocationsPassOptions packOptions;
  packOptions.strategy = options.strategy;
  packOptions.timeLimit = options.timeLimit;
  pm.addPass(hal::createPackAllocationsPass(packOptions));

  // The query computes the packed total, so it comes after the packs.
  if (options.externalTransients)
    pm.addPass(hal::createExternalTransientsPass());

  pm.addPass(createCanonicalizerPass());

  // Barriers wait for the packs: two transients count as sharing bytes
  // until the packer has put them apart. Submissions are scheduled last, on
  // the final commands and offsets.
  hal::PlaceBarriersPassOptions barrierOptions;
  barrierOptions.policy = options.barriers;
  pm.addPass(hal::createPlaceBarriersPass(barrierOptions));

  if (options.submission == SubmissionPolicy::Async)
    pm.addPass(hal::createScheduleSubmissionsPass());

  // Last: it records what every pass before decided, once.
  if (options.memoize)
    pm.addPass(hal::createMemoizeCommandBuffersPass());
}

void streamhal::registerLowerToHALPipeline() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  PassPipelineRegistration<LowerToHALPipelineOptions>(
      "streamhal-lower-to-hal",
      "Lowers flow to HAL with packed slabs: "
      "flow-read-misaligned-constant-storage, "
      "flow-materialize-copy-on-write, flow-emplace-update-targets, "
      "convert-flow-to-hal-patterns, hal-plan-function-transients, "
      "hal-pack-allocations, hal-external-transients (when asked), "
      "canonicalize, hal-place-barriers, hal-schedule-submissions, "
      "hal-memoize-command-buffers (options "
      "forwarded)",
      [](OpPassManager &pm, const LowerToHALPipelineOptions &options) {
        buildLowerToHALPipeline(pm, options);
      });
  PassPipelineRegistration<ConvertFlowToHALPipelineOptions>(
      "convert-flow-to-hal",
      "Lowers flow to HAL without packing: "
      "flow-read-misaligned-constant-storage, flow-materialize-copy-on-write, "
      "flow-emplace-update-targets, convert-flow-to-hal-patterns, "
      "hal-place-barriers, hal-schedule-submissions (options forwarded)",
      [](OpPassManager &pm, const ConvertFlowToHALPipelineOptions &options) {
        buildConvertFlowToHALPipeline(pm, options);
      });
}
