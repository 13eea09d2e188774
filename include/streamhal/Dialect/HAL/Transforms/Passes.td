//===- Passes.td - hal transformation passes ---------------*- tablegen -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_TD
#define STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PackAllocationsPass : Pass<"hal-pack-allocations", "mlir::ModuleOp"> {
  let summary = "Materializes hal.allocator.pack as index arithmetic";
  let description = [{
    Replaces every `hal.allocator.pack` with `arith` index math. Sizes are
    rounded up to the module's `min_buffer_range_alignment` and offsets to its
    `min_buffer_offset_alignment` (from the `#hal.buffer_constraints` of the
    module's `hal.device.targets`; 16 and 16 when none is given). Slices with
    constant sizes are placed by the packing library and become constants;
    slices with dynamic sizes are grouped by their SSA size value and laid
    after the static part, each group sharing bytes between slices whose
    lifetimes are disjoint. `offset(%base)` is added to every offset.
    Each subspan of the slab at a dynamic slice's offset gets a
    `hal.pack_lane` attribute (the slice's lane, the lowest offset of any
    lane, the pack's number in the module) so that the access model keeps
    slices that are live together apart once offsets are index math
    (docs/concurrency.md).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"strategy", "strategy", "::streamhal::packing::PackingStrategy",
           /*default=*/"::streamhal::packing::PackingStrategy::Greedy",
           "Placement strategy of the static slices (default: greedy)",
           [{::streamhal::packing::getPackingStrategyValues()}]>,
    Option<"timeLimit", "time-limit", "double", /*default=*/"1.0",
           "Seconds the optimal strategy may search per pack (default: 1)">,
  ];
  let statistics = [
    Statistic<"numPacks", "packs", "hal.allocator.pack ops materialized">,
    Statistic<"numStaticSlices", "static-slices",
              "Slices with constant sizes placed by the packer">,
    Statistic<"numDynamicSlices", "dynamic-slices",
              "Slices with dynamic sizes laid after the static part">,
    Statistic<"numSlabBytes", "static-slab-bytes",
              "Bytes of the static parts of all slabs">,
  ];
}

def VerifyCommandBuffersPass
    : Pass<"hal-verify-command-buffers", "mlir::ModuleOp"> {
  let summary = "Checks recorded command buffers for races, uninitialized "
                "reads and out-of-range accesses";
  let description = [{
    Checks every command buffer recorded in the module (from its
    `hal.command_buffer.begin` to its `end`, in the begin's block) against
    the device model of docs/concurrency.md, knowing nothing of how the IR
    was produced:
    - two commands that may touch a common byte of one root buffer, at
      least one of them writing, with no `execution_barrier` between them:
      an error at the later command, a note at the earlier one;
    - a read of bytes of a command-buffer-local allocation (every use of it
      and of its subspans is a command of this one command buffer) that no
      earlier command of the buffer wrote: an uninitialized read;
    - a fill, copy, binding or subspan range outside the known (constant)
      length of its buffer;
    - with `device-rules` (the default), a break of a device rule not named
      in `skip-device-rules` (none by default)
      (docs/concurrency.md, "Device rules"), with the limits of the module's
      `#hal.buffer_constraints` or the defaults: a binding offset from its
      root not a multiple of `min_buffer_offset_alignment`, a binding longer
      than `max_buffer_range`, a binding of the layout the dispatch's push
      is recorded with (the interface's, when the layout is not visible)
      that the push does not bind, a fill offset or length not a multiple of 4, an
      allocation larger than `max_allocation_size`, more than 32 push
      constants.
    The module is not changed.
  }];
  let options = [
    Option<"deviceRules", "device-rules", "bool", /*default=*/"true",
           "Check the device rules (offsets, ranges, bound bindings, fills, "
           "allocation sizes, push constants, aliasing bindings)">,
    Option<"skipDeviceRules", "skip-device-rules", "std::string",
           /*default=*/[{"none"}],
           "Comma-separated device rules not to check (none: check all): "
           "binding-offset-alignment, binding-range, unbound-binding, "
           "fill-alignment, allocation-size, push-constants, "
           "binding-aliasing">,
  ];
}

def PlaceBarriersPass : Pass<"hal-place-barriers", "mlir::ModuleOp"> {
  let summary = "Adds the execution barriers recorded command buffers need";
  let description = [{
    Places execution barriers in every command buffer of the module (from
    its `hal.command_buffer.begin` to its `end`, in the begin's block), with
    the access model of `--hal-verify-command-buffers` (docs/concurrency.md)
    and knowing nothing of how the commands were recorded. `hazard` puts a
    barrier right before each command that may touch a byte a command since
    the last barrier touches, one of the two writing: for the recorded order
    no placement the model allows has fewer. `full` puts one after every
    command. Barriers already in a command buffer stay and end a batch;
    the pass only adds, so running it again adds nothing. An op with
    regions (such as `hal.device.switch`) holding commands counts as one
    command that makes all of their accesses.
  }];
  let options = [
    Option<"policy", "policy", "::streamhal::BarrierPolicy",
           /*default=*/"::streamhal::BarrierPolicy::Hazard",
           "Where the barriers go (default: hazard; none is refused when "
           "the pass runs: leave the pass out instead)",
           [{::streamhal::getBarrierPolicyValuesWithNone()}]>,
  ];
  let statistics = [
    Statistic<"numBarriers", "barriers", "Execution barriers added">,
  ];
}

def MemoizeCommandBuffersPass
    : Pass<"hal-memoize-command-buffers", "mlir::ModuleOp"> {
  let summary = "Records command buffers once and replays them per call";
  let description = [{
    Turns each command buffer recorded in straight-line code and submitted
    once (`hal.ex.submit_and_wait`, or a `hal.device.queue.execute` of that
    command buffer alone) into a `hal.device.memoize` whose body records it
    once per device, and a `hal.device.queue.execute.indirect` that binds,
    at each submission, the buffers its commands use (one binding table
    slot per distinct `!hal.buffer` value) and the dynamic values they use
    (one uniform per distinct `index` or `i32` value: offsets, lengths,
    push constants, workgroup counts). Workgroup counts a device switch
    case computes on the host are computed at the submission instead
    (docs/replay.md).

    Slots get alias classes from the access model the barriers were placed
    with (docs/concurrency.md): a fresh allocation that escapes nowhere is
    a class of its own; arguments, buffer views, globals and escaping
    allocations share one class (they may be the same bytes). A command
    buffer whose recording the host steers (commands in another block than
    its create, under `scf` control flow), that is submitted more than once
    or alongside others, or that uses a value no slot or uniform can carry,
    stays one-shot with a remark saying why.
  }];
  let statistics = [
    Statistic<"numMemoized", "memoized", "Command buffers memoized">,
    Statistic<"numRefused", "refused", "Command buffers left one-shot">,
  ];
}

def ScheduleSubmissionsPass
    : Pass<"hal-schedule-submissions", "mlir::ModuleOp"> {
  let summary = "Submits command buffers to the queue ordered by fences";
  let description = [{
    Rewrites every `hal.ex.submit_and_wait` of the module's functions and
    initializers into `hal.fence.create` + `hal.device.queue.execute`
    (docs/async.md). A submission waits on the fences of the earlier pending
    submissions it depends on: one of its commands may touch a byte one of
    theirs touches, one of the two writing (the access model of
    docs/concurrency.md across command buffers: results it reads, storage it
    overwrites that they read or write); a fence that another waited fence
    already orders is left out. The host awaits (`hal.fence.await`) only:
    before a `hal.buffer.load` of bytes a pending submission may write and
    a `hal.buffer.store` of bytes one may touch; before a call, an op with
    regions that may touch buffers and any other op that takes a buffer
    (everything pending); and before every terminator (everything pending,
    joined before a `return`: results are complete at return and no work
    outlives the function).
  }];
  let statistics = [
    Statistic<"numSubmissions", "submissions",
              "Blocking submissions made queue submissions">,
    Statistic<"numWaits", "waits", "Fences the new submissions wait on">,
    Statistic<"numAwaits", "awaits", "Host awaits inserted">,
  ];
}

def PlanFunctionTransientsPass
    : Pass<"hal-plan-function-transients", "mlir::ModuleOp"> {
  let summary = "Packs a function's transients and inter-fragment values "
                "into one slab";
  let description = [{
    Runs on the blocking form the conversion records (before
    `hal-pack-allocations` materializes the packs and before
    `hal-schedule-submissions`). In each block of a function or initializer
    it takes every *piece* of device-only memory: each slice of a
    fragment's transient pack, and each `DeviceLocal` allocation with usage
    `Dispatch|Transfer` that only commands use (a value one fragment
    produces and later ones consume, never returned, stored, passed to a
    call or read by the host). It gives each piece a closed lifetime on the
    block's op order, from its first to its last command, and places them
    all in one `hal.allocator.pack` whose total is one allocation, marked
    `hal.ex.function_transients`: pieces of different fragments share bytes
    when their lifetimes are disjoint.

    With `submission=async` (the default) the lifetimes follow the
    dependencies between submissions (the commands' accesses by root), not
    program order alone: for every two submissions that may run
    concurrently, either the later one's pieces start back at the earlier
    one (it may run with several earlier ones) or the earlier one's pieces
    end at the later one, so only pieces of submissions ordered one after
    the other share bytes and fragments that may run concurrently stay
    concurrent. A piece size computed later in the block from values known
    where the slab is allocated is computed again there; a piece whose size
    is not known there keeps its own allocation.

    Functions are planned callees first, and a private function that only
    calls use, on no cycle of calls, with a slab its arguments size, takes
    the slab as a trailing `hal.ex.transients` argument: each call passes a
    piece of its caller's plan (docs/lowering.md, "Transients per
    function").
  }];
  let options = [
    Option<"submission", "submission", "::streamhal::SubmissionPolicy",
           /*default=*/"::streamhal::SubmissionPolicy::Async",
           "How the submissions will be scheduled: async keeps pieces of "
           "submissions that may run concurrently apart (default: async)",
           [{::streamhal::getSubmissionPolicyValues()}]>,
  ];
  let statistics = [
    Statistic<"numPieces", "pieces", "Pieces packed into function slabs">,
    Statistic<"numSlabs", "slabs", "Function slabs made">,
    Statistic<"numLentSlabs", "lent-slabs",
              "Private functions that take their slab from their callers">,
  ];
}

def ExternalTransientsPass
    : Pass<"hal-external-transients", "mlir::ModuleOp"> {
  let summary = "Lets the caller provide each public function's transient "
                "memory";
  let description = [{
    For each public function whose entry block allocates a slab marked
    `hal.ex.function_transients`: appends a trailing `!hal.buffer` argument
    (argument attribute `hal.ex.transients`), replaces the allocation by
    the bytes `[0, size)` of that argument (a `hal.buffer.subspan`, so a
    buffer that is too small fails where it is used), and adds a public
    `func.func @<name>_transient_size` taking the function's other
    arguments and returning the size in bytes (aligned like every slab),
    named by the function's `hal.ex.transient_size` attribute. A function
    without a slab is left as it is. The size must be computable from the
    arguments by side-effect-free ops; otherwise the pass fails with an
    error at the function. Run it after `hal-pack-allocations`.
  }];
}

def ReportPass : Pass<"hal-report", "mlir::ModuleOp"> {
  let summary = "Prints the module's concurrency and memory figures";
  let description = [{
    Prints one line per function to stderr, whatever the build type (MLIR's
    pass statistics count nothing in a Release libMLIR):
    `hal-report[<label>] @f: fragments=F waves=W command-buffers=B
    commands=C barriers=R bytes-copied=X bytes-filled=Y slab-bytes=S
    copies=N host-visible-bytes=H`.
    `fragments` and `waves` appear only while the function has stream
    fragments (before the lowering, which removes them and with them the
    waves); waves come from the `flow.wave` attributes of scheduled
    fragments;
    copied and filled bytes count constant lengths (a `+dynamic` suffix
    says some were not constant); slab bytes sum the constant sizes of the
    allocations that only one command buffer uses; copies count the
    `hal.command_buffer.copy_buffer` commands; host-visible bytes sum the
    constant sizes of the allocations whose memory type includes
    `HostVisible` (also `+dynamic` when some size is not constant);
    `allocated-bytes` sums every allocation and `allocations` counts the
    allocation ops (a function slab counts as slab bytes). New
    figures are appended at the end of the line. Place it anywhere in a
    pipeline, as often as needed. The module is not changed.
  }];
  let options = [
    Option<"label", "label", "std::string", /*default=*/"""",
           "Text printed after `hal-report` to tell runs apart">,
  ];
}

#endif // STREAMHAL_DIALECT_HAL_TRANSFORMS_PASSES_TD
