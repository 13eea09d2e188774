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

void streamhal::buildLowerToHALPipeline(
    OpPassManager &pm, const LowerToHALPipelineOptions &options) {
  // Value semantics first (the conversion would materialize the copies
  // itself; as its own step the pipeline has IREE's shape: copy on write,
  // then elision and allocation, then recording).
  pm.addPass(flow::createMaterializeCopyOnWritePass());
  ConvertFlowToHALPassOptions convertOptions;
  convertOptions.outputMemoryType = options.outputMemoryType;
  // Barriers wait for the packs: two transients count as sharing bytes
  // until the packer has put them apart.
  convertOptions.barriers = BarrierPolicy::None;
  convertOptions.copies = options.copies;
  // Submissions are scheduled last, on the final commands and offsets.
  convertOptions.submission = SubmissionPolicy::Blocking;
  pm.addPass(createConvertFlowToHALPass(convertOptions));

  hal::PackAllocationsPassOptions packOptions;
  packOptions.strategy = options.strategy;
  packOptions.timeLimit = options.timeLimit;
  pm.addPass(hal::createPackAllocationsPass(packOptions));

  pm.addPass(createCanonicalizerPass());

  hal::PlaceBarriersPassOptions barrierOptions;
  barrierOptions.policy = options.barriers;
  pm.addPass(hal::createPlaceBarriersPass(barrierOptions));

  if (options.submission == SubmissionPolicy::Async)
    pm.addPass(hal::createScheduleSubmissionsPass());
}

void streamhal::registerLowerToHALPipeline() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  PassPipelineRegistration<LowerToHALPipelineOptions>(
      "streamhal-lower-to-hal",
      "Lowers flow to HAL with packed slabs: "
      "flow-materialize-copy-on-write, convert-flow-to-hal, "
      "hal-pack-allocations, canonicalize, hal-place-barriers, "
      "hal-schedule-submissions (options forwarded)",
      [](OpPassManager &pm, const LowerToHALPipelineOptions &options) {
        buildLowerToHALPipeline(pm, options);
      });
}
