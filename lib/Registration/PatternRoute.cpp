//===- PatternRoute.cpp - The steps before populateFlowToHALPatterns
//-------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Registration/PatternRoute.h"
#include "streamhal/Dialect/Flow/Transforms/CopyOnWrite.h"

using namespace mlir;
using namespace streamhal;

FailureOr<PreparedFlowToHAL>
streamhal::prepareFlowToHAL(ModuleOp module, const FlowToHALOptions &options) {
  // The order of buildConvertFlowToHALPipeline: value semantics first, then
  // update targets where their values are made, then the check on the IR
  // the patterns will see.
  module.walk([](flow::ExStreamFragmentOp fragment) {
    (void)flow::readMisalignedConstantStorage(fragment);
  });
  (void)flow::materializeCopyOnWrite(module);
  module.walk([](flow::ExStreamFragmentOp fragment) {
    (void)flow::emplaceUpdateTargets(fragment);
  });
  PreparedFlowToHAL prepared;
  prepared.plans = std::make_unique<FragmentPlanCache>(options.copies);
  if (failed(checkFlowToHALLowerable(module, prepared.plans.get())))
    return failure();
  prepared.hostReadability = std::make_unique<HostReadability>(module);
  prepared.options = options;
  prepared.options.plans = prepared.plans.get();
  prepared.options.hostReadability = prepared.hostReadability.get();
  return prepared;
}
