//===- PatternRoute.h - The steps before populateFlowToHALPatterns -*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A downstream pass that lowers with populateFlowToHALPatterns must run the
// steps `--convert-flow-to-hal` runs before its patterns, in its order:
// copy on write, emplacement of update targets, the check (which plans
// every fragment) and host readability. prepareFlowToHAL runs them and
// returns what the patterns read (docs/design.md, "Using the pattern API").
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_REGISTRATION_PATTERNROUTE_H
#define STREAMHAL_REGISTRATION_PATTERNROUTE_H

#include "mlir/IR/BuiltinOps.h"
#include "streamhal/Analysis/HostReadability.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include <memory>

namespace streamhal {

/// What the patterns read, made by prepareFlowToHAL; it must outlive the
/// conversion, and the module must not change between the two (a changed
/// fragment's plan is stale, which the patterns report).
struct PreparedFlowToHAL {
  std::unique_ptr<FragmentPlanCache> plans;
  std::unique_ptr<HostReadability> hostReadability;
  /// The options to pass to populateFlowToHALPatterns: the caller's, with
  /// `plans` and `hostReadability` set to the above.
  FlowToHALOptions options;
};

/// Runs copy on write and the emplacement of update targets on `module`,
/// checks it (every problem a located diagnostic) and plans each fragment
/// with `options.copies`, then computes which results the host reads.
/// Fails after reporting when the module cannot be lowered.
mlir::FailureOr<PreparedFlowToHAL>
prepareFlowToHAL(mlir::ModuleOp module, const FlowToHALOptions &options = {});

} // namespace streamhal

#endif // STREAMHAL_REGISTRATION_PATTERNROUTE_H
