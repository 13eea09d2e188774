//===- Passes.td - streamhal conversion passes -------------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_CONVERSION_PASSES_TD
#define STREAMHAL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertFlowToHALPass : Pass<"convert-flow-to-hal", "mlir::ModuleOp"> {
  let summary = "Lowers tensors and stream fragments to HAL buffers and "
                "command buffers";
  let description = [{
    Turns every tensor into a `!hal.buffer` and every
    `flow.ex.stream.fragment` into buffer allocations plus one recorded and
    submitted command buffer (see docs/lowering.md). `barriers=hazard` (the
    default) records an execution barrier only right before a command that
    conflicts with a command recorded since the last barrier;
    `barriers=full` records one after every command (docs/concurrency.md).
    `copies=elide` (the default) lowers a contiguous slice or a clone to a
    view of its source's storage whenever no execution can tell the
    difference; `copies=always` keeps every copy.
    Fragment results that only later fragments read are allocated
    device-local, the others host-visible; `output-memory-type=<bits>`
    forces one memory type for every result.
    Every fragment is checked
    first; a fragment that cannot be lowered is reported with a located
    diagnostic and the pass fails without changing the module.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::streamhal::flow::FlowDialect",
    "::streamhal::hal::HALDialect",
    "::streamhal::util::UtilDialect"
  ];
  let options = [
    Option<"outputMemoryType", "output-memory-type",
           "std::optional<::streamhal::hal::MemoryType>",
           /*default=*/"std::nullopt",
           "Memory type of the buffers allocated for fragment results: "
           "'auto' decides from their uses (DeviceLocal for results only "
           "later fragments read, DeviceLocal|HostVisible for the others); "
           "memory type bits joined by '|' apply to every one "
           "(default: auto)">,
    Option<"barriers", "barriers", "::streamhal::BarrierPolicy",
           /*default=*/"::streamhal::BarrierPolicy::Hazard",
           "Where execution barriers go between recorded commands: as "
           "--hal-place-barriers puts them on the recorded commands, or "
           "none (for a pipeline that runs it later)",
           [{::streamhal::getBarrierPolicyValuesWithNone()}]>,
    Option<"copies", "copies", "::streamhal::CopyPolicy",
           /*default=*/"::streamhal::CopyPolicy::Elide",
           "Whether slices and clones may share their source's storage",
           [{::streamhal::getCopyPolicyValues()}]>,
    Option<"submission", "submission", "::streamhal::SubmissionPolicy",
           /*default=*/"::streamhal::SubmissionPolicy::Async",
           "How command buffers reach the device: queue submissions ordered "
           "by fences (as --hal-schedule-submissions makes them), or "
           "hal.ex.submit_and_wait after every fragment",
           [{::streamhal::getSubmissionPolicyValues()}]>,
  ];
  let statistics = [
    Statistic<"numFragments", "fragments", "Stream fragments lowered">,
    Statistic<"numTransientSlices", "transient-slices",
              "Transient values packed into slabs">,
    Statistic<"numCommands", "commands", "Commands recorded">,
    Statistic<"numBarriers", "barriers", "Execution barriers recorded">,
    Statistic<"numViews", "views", "Slices and clones lowered as views">,
  ];
}

#endif // STREAMHAL_CONVERSION_PASSES_TD
