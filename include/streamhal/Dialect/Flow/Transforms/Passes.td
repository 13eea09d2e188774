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

def MaterializeCopyOnWritePass
    : Pass<"flow-materialize-copy-on-write", "mlir::ModuleOp"> {
  let summary = "Makes every copy that tensor value semantics needs explicit";
  let description = [{
    Every flow tensor value is immutable; a tie lets a result reuse its
    operand's storage but never allows losing bytes still needed. This pass
    makes the needed copies explicit, so that everything after it may write
    in place wherever the IR says so (docs/lowering.md, "Value semantics"):
    - inside a fragment, an in-place write (a tied dispatch result, an
      update into its target) whose overwritten value is still read later,
      read by the same op through another operand, or is an operand the
      caller keeps, writes a `flow.tensor.clone` inserted right before it;
    - a fragment result tied to an operand loses its tie when the operand's
      storage is still needed after the fragment (a later use of any value
      sharing it, a second operand in it, a global holding it), or when its
      value cannot be computed in that storage without overwriting a value
      still needed; a clone into the same storage of a value dead right
      after it (a copy onto itself) is removed;
    - a host `flow.tensor.store` or a call whose callee writes an argument
      in place gets a copy (a one-clone fragment) of a value still needed;
    - a private function only called directly takes over an argument it
      clones and writes (argument moves): the fragment result computed in
      the clone is tied to the argument, and each caller that keeps the
      value, or passes storage of its own argument, copies it instead.
    Callees are handled before callers, so a call knows which arguments its
    callee writes. It runs first in both lowering pipelines, after
    `flow-read-misaligned-constant-storage`
    (`--convert-flow-to-hal`, `--streamhal-lower-to-hal`); the conversion
    itself (`--convert-flow-to-hal-patterns`) does not run it. Running it
    twice changes nothing.
  }];
  // Copies of host-side values are one-clone fragments.
  let dependentDialects = ["::streamhal::flow::FlowDialect"];
}

def EmplaceUpdateTargetsPass : Pass<"flow-emplace-update-targets"> {
  let summary = "Makes concatenation targets before the pieces written into them";
  let description = [{
    A splat or clone that is the target of a chain of `flow.tensor.update`s
    is moved in front of the first op defining a piece written into it, when
    its operands are available there. The lowering can then compute each
    piece in the target's box instead of copying it (update sinks,
    docs/lowering.md). Values do not change: a splat reads only scalars, and
    the value a clone reads is unchanged from its definition to its last
    read.
    Scheduled bodies (with `flow.wave`) are left alone.
    Both lowering pipelines run it after copy on write.
  }];
}

def ReadMisalignedConstantStoragePass
    : Pass<"flow-read-misaligned-constant-storage"> {
  let summary = "Reads constant storage at misaligned pool offsets through "
                "constant subspans";
  let description = [{
    A `#hal.ex.constant_storage` binding whose pool offset the module's
    binding offset alignment (`min_buffer_offset_alignment` of its
    `#hal.buffer_constraints`, 16 by default) does not divide cannot be
    bound where it is. Such a binding becomes an operand binding of a
    `hal.constant.subspan` of the same bytes (`tensor<Nxi8>`, one per pool
    range and fragment, made right before its first dispatch), appended to
    the dispatch's operands; the storage plan then copies the range into
    aligned storage once per fragment. Aligned bindings are left as they
    are. Both lowering pipelines run it first, and so does
    `prepareFlowToHAL`.
  }];
  let dependentDialects = ["::streamhal::hal::HALDialect"];
}

#endif // STREAMHAL_DIALECT_FLOW_TRANSFORMS_PASSES_TD
