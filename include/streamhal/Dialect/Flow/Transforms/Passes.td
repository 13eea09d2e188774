//===- Passes.td - flow transformation passes --------------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_FLOW_TRANSFORMS_PASSES_TD
#define STREAMHAL_DIALECT_FLOW_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ScheduleFragmentsPass : Pass<"flow-schedule-fragments"> {
  let summary = "Reorders each stream fragment body into dependency waves";
  let description = [{
    Gives every command op of a `flow.ex.stream.fragment` body (dispatch,
    splat, clone, slice, update) a *wave*: one more than the largest wave of
    the ops it depends on. An op depends on the producers of its operands;
    an op that writes storage in place (a tied dispatch result, the target
    of `flow.tensor.update`) also depends on every earlier command that
    reads that storage's alias class, and any later command touching that
    class depends on the in-place write. The body is then reordered wave by
    wave, keeping the original relative order inside a wave; ops that are
    no commands (constants, reshapes, constant subspans) take the largest
    wave of what they use, do not count as a wave and are placed right
    before the next wave.

    Each command op records its wave in the discardable attribute
    `flow.wave` (an `i64`). Where present, LivenessIntervals gives every op
    of a wave the same index, so that the packer never lets two values live
    in one wave share bytes and the `hazard` barrier policy needs one
    barrier per wave boundary (docs/concurrency.md).
  }];
}

#endif // STREAMHAL_DIALECT_FLOW_TRANSFORMS_PASSES_TD
