//===- Pipelines.h - streamhal pass pipelines -------------------*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_REGISTRATION_PIPELINES_H
#define STREAMHAL_REGISTRATION_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "streamhal/Conversion/FlowToHAL/FlowToHAL.h"
#include "streamhal/Dialect/HAL/IR/HALCommandLine.h"
#include "streamhal/Dialect/HAL/Transforms/PlaceBarriers.h"
#include "streamhal/Dialect/HAL/Transforms/PlanTransients.h"
#include "streamhal/Dialect/HAL/Transforms/ScheduleSubmissions.h"
#include "streamhal/Packing/PackingCommandLine.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace streamhal {

/// Options of `--convert-flow-to-hal`, the pipeline of the lowering without
/// packing: those of the passes it runs, under their names (`barriers` is
/// `hal-place-barriers`' `policy`, plus `none` for none at all).
struct ConvertFlowToHALPipelineOptions
    : public mlir::PassPipelineOptions<ConvertFlowToHALPipelineOptions> {
  Option<std::optional<hal::MemoryType>> outputMemoryType{
      *this, "output-memory-type",
      llvm::cl::desc("convert-flow-to-hal-patterns: memory type of the "
                     "buffers allocated for fragment results, 'auto' (from "
                     "their uses) or bits joined by '|' (default: auto)"),
      llvm::cl::init(std::nullopt)};
  Option<BarrierPolicy> barriers{
      *this, "barriers",
      llvm::cl::desc("hal-place-barriers: where execution barriers go "
                     "between recorded commands, or none for a pipeline "
                     "that places them later (default: hazard)"),
      llvm::cl::init(BarrierPolicy::Hazard), getBarrierPolicyValuesWithNone()};
  Option<CopyPolicy> copies{
      *this, "copies",
      llvm::cl::desc("convert-flow-to-hal-patterns: whether slices and clones "
                     "may share their source's storage (default: elide)"),
      llvm::cl::init(CopyPolicy::Elide), getCopyPolicyValues()};
  Option<SubmissionPolicy> submission{
      *this, "submission",
      llvm::cl::desc("hal-schedule-submissions: queue submissions ordered by "
                     "fences (async) or hal.ex.submit_and_wait after every "
                     "fragment (blocking) (default: async)"),
      llvm::cl::init(SubmissionPolicy::Async), getSubmissionPolicyValues()};
};

/// Adds the lowering without packing to `pm` (on `builtin.module`):
/// `flow-read-misaligned-constant-storage`,
/// `flow-materialize-copy-on-write`, `flow-emplace-update-targets`,
/// `convert-flow-to-hal-patterns`, then `hal-place-barriers` unless
/// `barriers=none` and `hal-schedule-submissions` unless
/// `submission=blocking`.
void buildConvertFlowToHALPipeline(
    mlir::OpPassManager &pm,
    const ConvertFlowToHALPipelineOptions &options = {});

/// Options of `--streamhal-lower-to-hal`: the options of the passes it runs,
/// forwarded to them unchanged (same names, defaults and values); `barriers`
/// goes to `hal-place-barriers` (as its `policy`), since the pipeline has the
/// conversion record none.
struct LowerToHALPipelineOptions
    : public mlir::PassPipelineOptions<LowerToHALPipelineOptions> {
  Option<std::optional<hal::MemoryType>> outputMemoryType{
      *this, "output-memory-type",
      llvm::cl::desc("convert-flow-to-hal-patterns: memory type of the "
                     "buffers allocated for fragment results, 'auto' (from "
                     "their uses) or bits joined by '|' (default: auto)"),
      llvm::cl::init(std::nullopt)};
  Option<BarrierPolicy> barriers{
      *this, "barriers",
      llvm::cl::desc("hal-place-barriers: where execution barriers go "
                     "between recorded commands (default: hazard)"),
      llvm::cl::init(BarrierPolicy::Hazard), getBarrierPolicyValues()};
  Option<CopyPolicy> copies{
      *this, "copies",
      llvm::cl::desc("convert-flow-to-hal-patterns: whether slices and clones "
                     "may share their source's storage (default: elide)"),
      llvm::cl::init(CopyPolicy::Elide), getCopyPolicyValues()};
  Option<packing::PackingStrategy> strategy{
      *this, "strategy",
      llvm::cl::desc("hal-pack-allocations: placement strategy of the static "
                     "slices (default: greedy)"),
      llvm::cl::init(packing::PackingStrategy::Greedy),
      packing::getPackingStrategyValues()};
  Option<SubmissionPolicy> submission{
      *this, "submission",
      llvm::cl::desc("hal-schedule-submissions: queue submissions ordered by "
                     "fences (async) or hal.ex.submit_and_wait after every "
                     "fragment (blocking) (default: async)"),
      llvm::cl::init(SubmissionPolicy::Async), getSubmissionPolicyValues()};
  Option<TransientPlan> transients{
      *this, "transients",
      llvm::cl::desc("hal-plan-function-transients: one transient slab per "
                     "function (function) or per fragment (fragment) "
                     "(default: function)"),
      llvm::cl::init(TransientPlan::Function), getTransientPlanValues()};
  Option<bool> externalTransients{
      *this, "external-transients",
      llvm::cl::desc("hal-external-transients: public functions take their "
                     "transient slab as a trailing !hal.buffer argument, "
                     "sized by @<name>_transient_size (default: false)"),
      llvm::cl::init(false)};
  Option<double> timeLimit{
      *this, "time-limit",
      llvm::cl::desc("hal-pack-allocations: seconds the optimal strategy may "
                     "search per pack (default: 1)"),
      llvm::cl::init(1.0)};
  Option<bool> memoize{
      *this, "memoize",
      llvm::cl::desc("hal-memoize-command-buffers: record each command "
                     "buffer once per device and replay it with each call's "
                     "buffers and values (default: true)"),
      llvm::cl::init(true)};
};

/// Adds the whole lowering to `pm` (on `builtin.module`):
/// `flow-read-misaligned-constant-storage`,
/// `flow-materialize-copy-on-write`, `flow-emplace-update-targets`,
/// `convert-flow-to-hal-patterns`, `hal-pack-allocations`, `canonicalize`,
/// `hal-place-barriers`, then `hal-schedule-submissions` unless
/// `submission=blocking`, then `hal-memoize-command-buffers` unless
/// `memoize=false`.
void buildLowerToHALPipeline(mlir::OpPassManager &pm,
                             const LowerToHALPipelineOptions &options = {});

/// Registers `--streamhal-lower-to-hal` and `--convert-flow-to-hal` (done by
/// registerStreamHALPasses).
void registerLowerToHALPipeline();

} // namespace streamhal

#endif // STREAMHAL_REGISTRATION_PIPELINES_H
