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

def ConvertFlowToHALPatternsPass
    : Pass<"convert-flow-to-hal-patterns", "mlir::ModuleOp"> {
  let summary = "Converts tensors and stream fragments to HAL buffers and "
                "command buffers, and nothing else";
  let description = [{
    The conversion step of the lowering: checks every fragment, then applies
    `populateFlowToHALPatterns`. Every tensor becomes a `!hal.buffer` and
    every `flow.ex.stream.fragment` buffer allocations plus one recorded
    command buffer submitted with `hal.ex.submit_and_wait` (see
    docs/lowering.md). It records no execution barrier and schedules no
    submission; the passes before and after it make the other decisions,
    and `--convert-flow-to-hal` (a pipeline) runs them all:
    `flow-read-misaligned-constant-storage`,
    `flow-materialize-copy-on-write` and `flow-emplace-update-targets`
    before, `hal-place-barriers` and `hal-schedule-submissions` after.

    `copies=elide` (the default) lowers a contiguous slice or a clone to a
    view of its source's storage whenever no execution can tell the
    difference; `copies=always` keeps every copy. Fragment results that only
    later fragments read are allocated device-local, the others
    host-visible; `output-memory-type=<bits>` forces one memory type for
    every result. Every fragment is checked first; a fragment that cannot be
    lowered is reported with a located diagnostic and the pass fails without
    changing the module.
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
    Option<"copies", "copies", "::streamhal::CopyPolicy",
           /*default=*/"::streamhal::CopyPolicy::Elide",
           "Whether slices and clones may share their source's storage",
           [{::streamhal::getCopyPolicyValues()}]>,
  ];
  let statistics = [
    Statistic<"numFragments", "fragments", "Stream fragments lowered">,
    Statistic<"numTransientSlices", "transient-slices",
              "Transient values packed into slabs">,
    Statistic<"numCommands", "commands", "Commands recorded">,
    Statistic<"numViews", "views", "Slices and clones lowered as views">,
  ];
}

#endif // STREAMHAL_CONVERSION_PASSES_TD
