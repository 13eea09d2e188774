#!/usr/bin/env python3
"""Plants one-line bugs in streamhal's sources and checks the suite kills them.

Each mutation names a file, one exact line fragment that occurs once in it,
its replacement, and the tests of its own area (lit paths relative to the
build directory's test tree, or `Unit` for the GoogleTest suites). For each
mutation the script writes the mutated file, rebuilds the tools
incrementally in the build directory, runs those tests, records killed (a
test failed) or survived, and restores the file byte for byte (also on
Ctrl-C). A mutation whose fragment no longer occurs exactly once is
reported stale, so the list cannot rot silently.

Run it on demand, not in CI (each mutation is a rebuild), on a build
directory of its own (an assertions build is best: `build-assert`), and
record the result in utils/mutation_results.md:

  python3 utils/mutate_source.py --build-dir=build-assert \
      --results=utils/mutation_results.md

Nothing else may build in that directory or edit the tree while it runs.
"""
import argparse
import datetime
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# (name, file, fragment, replacement, tests)
MUTATIONS = [
    # Copy on write (lib/Dialect/Flow/Transforms).
    ("cow-merged-last-use", "lib/Dialect/Flow/Transforms/MaterializeCopyOnWrite.cpp",
     "merged.lastUse = std::max(infoA.lastUse, infoB.lastUse);",
     "merged.lastUse = std::min(infoA.lastUse, infoB.lastUse);",
     ["Dialect/Flow/materialize-copy-on-write.mlir"]),
    ("cow-merged-pin", "lib/Dialect/Flow/Transforms/MaterializeCopyOnWrite.cpp",
     "merged.pinnedAfter = std::min(infoA.pinnedAfter, infoB.pinnedAfter);",
     "merged.pinnedAfter = std::max(infoA.pinnedAfter, infoB.pinnedAfter);",
     ["Dialect/Flow/materialize-copy-on-write.mlir", "Exec/global_contents.mlir"]),
    ("cow-still-needed", "lib/Dialect/Flow/Transforms/MaterializeCopyOnWrite.cpp",
     "if (targetInfo.lastUse > here)", "if (targetInfo.lastUse > here + 1)",
     ["Dialect/Flow/materialize-copy-on-write.mlir"]),
    ("emplace-no-move", "lib/Dialect/Flow/Transforms/EmplaceUpdateTargets.cpp",
     "    made->moveBefore(earliestPiece);", "    (void)earliestPiece;",
     ["Conversion/FlowToHAL/copy_on_write.mlir", "Conversion/FlowToHAL/views.mlir"]),
    ("schedule-one-wave", "lib/Dialect/Flow/Transforms/ScheduleFragments.cpp",
     "levels[op] = isCommandOp(op) ? depth + 1 : depth;",
     "levels[op] = isCommandOp(op) ? 1 : depth;",
     ["Dialect/Flow/schedule-fragments.mlir"]),
    # Flow-level analyses (lib/Analysis).
    ("liveness-class-hull", "lib/Analysis/LivenessIntervals.cpp",
     "hull.second = std::max(hull.second, interval.end);",
     "hull.second = std::min(hull.second, interval.end);",
     ["Analysis/stream-liveness.mlir"]),
    ("views-last-reader-write", "lib/Analysis/StorageViews.cpp",
     "if (anyWithin(group.writes, defined, viewEnd) ||",
     "if (anyWithin(group.writes, defined, viewEnd - 1) ||",
     ["Conversion/FlowToHAL/fragment_plan.mlir"]),
    ("views-view-written", "lib/Analysis/StorageViews.cpp",
     "anyWithin(view.writes, defined, groupEnd))",
     "anyWithin(view.writes, defined, defined))",
     ["Conversion/FlowToHAL/views.mlir", "Conversion/FlowToHAL/fragment_plan.mlir"]),
    ("host-readability-sharing", "lib/Analysis/HostReadability.cpp",
     "      if (deviceOnly.erase(operand))", "      if (false && deviceOnly.erase(operand))",
     ["Conversion/FlowToHAL/output_memory.mlir"]),
    # The HAL access model, barriers and submissions.
    ("access-read-write-is-read", "lib/Dialect/HAL/Analysis/CommandAccesses.cpp",
     "bool declaresWrite = hal::bitEnumContainsAny(",
     "bool declaresWrite = hal::bitEnumContainsAll(",
     ["Transforms/place-barriers.mlir", "Transforms/verify-command-buffers-invalid.mlir"]),
    ("access-overlap-touching", "lib/Dialect/HAL/Analysis/CommandAccesses.cpp",
     "return range.offset < otherEnd && other.range.offset < end;",
     "return range.offset < otherEnd && other.range.offset < end - 1;",
     ["Transforms/place-barriers.mlir", "Transforms/verify-command-buffers-invalid.mlir", "Unit"]),
    ("barriers-full-none", "lib/Dialect/HAL/Transforms/PlaceBarriers.cpp",
     "        rewriter.setInsertionPointAfter(unfenced);\n        createBarrier();",
     "        rewriter.setInsertionPointAfter(unfenced);",
     ["Transforms/place-barriers.mlir"]),
    ("barriers-none-accepted", "lib/Dialect/HAL/Transforms/PlaceBarriers.cpp",
     "    if (policy == BarrierPolicy::None) {",
     "    if (false && policy == BarrierPolicy::None) {",
     ["Unit"]),
    ("submission-keeps-one-fence", "lib/Dialect/HAL/Transforms/ScheduleSubmissions.cpp",
     "    waitsOn.push_back(index);\n  }",
     "    waitsOn.push_back(index);\n    break;\n  }",
     ["Transforms/schedule-submissions.mlir"]),
    ("submission-no-pruning", "lib/Dialect/HAL/Transforms/ScheduleSubmissions.cpp",
     "    if (isOrderedAfter(submission, index))\n      continue;",
     "    if (false && isOrderedAfter(submission, index))\n      continue;",
     ["Transforms/schedule-submissions.mlir"]),
    # The packer (lib/Packing).
    ("pack-closed-lifetimes", "lib/Packing/Problem.cpp",
     "return x.lower <= y.upper && y.lower <= x.upper;",
     "return x.lower < y.upper && y.lower < x.upper;",
     ["Unit", "Tools/hal-pack"]),
    ("pack-align-down", "lib/Packing/Problem.cpp",
     "return remainder > 0 ? value + (alignment - remainder) : value - remainder;",
     "return remainder > 0 ? value - remainder : value - remainder;",
     ["Unit", "Transforms/pack-allocations.mlir"]),
    ("pack-half-open-end", "lib/Packing/Problem.cpp",
     "out.end = closed ? buffer.upper + 1 : buffer.upper;",
     "out.end = closed ? buffer.upper : buffer.upper;",
     ["Unit", "Tools/hal-pack"]),
    # The conversion (lib/Conversion/FlowToHAL).
    ("storage-device-only-visible", "lib/Conversion/FlowToHAL/FragmentStorage.cpp",
     "    } else if (!hostReadableRoots[classIndex]) {",
     "    } else if (hostReadableRoots[classIndex]) {",
     ["Conversion/FlowToHAL/output_memory.mlir"]),
    ("dispatch-push-constant-zero", "lib/Conversion/FlowToHAL/RecordDispatches.cpp",
     "      values.push_back(builder.getI32PushConstant(\n          builder.lookupScalar(op.getArguments()[*argument])));",
     "      values.push_back(builder.getI32(0));",
     ["Conversion/FlowToHAL/dispatch.mlir"]),
    ("splat-fill-unaligned", "lib/Conversion/FlowToHAL/RecordSplats.cpp",
     "if (!length || *length % 4 == 0) {",
     "if (!length || *length % 2 == 0) {",
     ["Conversion/FlowToHAL/splat.mlir", "Conversion/FlowToHAL/device_rules.mlir"]),
    ("splat-scratch-unfilled", "lib/Conversion/FlowToHAL/RecordSplats.cpp",
     "fill(scratch, builder.getIndex(4));", "fill(scratch, builder.getIndex(0));",
     ["Conversion/FlowToHAL/splat.mlir"]),
    ("splat-scratch-dynamic-only", "lib/Conversion/FlowToHAL/FragmentStorage.cpp",
     "return !size || (*size % 4 != 0 && *size < 4);", "return !size;",
     ["Conversion/FlowToHAL/splat.mlir"]),
    ("constant-storage-any-offset", "lib/Dialect/Flow/Transforms/ReadMisalignedConstantStorage.cpp",
     "if (start % alignment == 0)", "if (start % 4 == 0)",
     ["Conversion/FlowToHAL/constant_storage_alignment.mlir"]),
    ("emplace-splats-only", "lib/Dialect/Flow/Transforms/EmplaceUpdateTargets.cpp",
     "if (isa<TensorSplatOp, TensorCloneOp>(op))", "if (isa<TensorSplatOp>(op))",
     ["Conversion/FlowToHAL/iree_materialize_copy_on_write.mlir"]),
    ("argmove-caller-argument", "lib/Dialect/Flow/Transforms/MaterializeCopyOnWrite.cpp",
     "(moved && classes.contains(operand.get()) &&",
     "(false && moved && classes.contains(operand.get()) &&",
     ["Dialect/Flow/argument-moves.mlir"]),
    ("argmove-dead-after", "lib/Dialect/Flow/Transforms/ArgumentMoves.cpp",
     "return ancestor && (ancestor == op || ancestor->isBeforeInBlock(op)) &&",
     "return ancestor &&",
     ["Dialect/Flow/argument-moves.mlir"]),
    ("cow-shared-results-unknown", "lib/Dialect/Flow/Transforms/MaterializeCopyOnWrite.cpp",
     "unite(result, call->getResult(summary->firstSharingResult[index]));",
     "(void)index;",
     ["Dialect/Flow/read-only-clones.mlir"]),
    ("cow-read-only-ignores-ties", "lib/Dialect/Flow/Transforms/MaterializeCopyOnWrite.cpp",
     "return fragment.getTiedResultOperandIndex(i) == index;",
     "return false && fragment.getTiedResultOperandIndex(i) == index;",
     ["Dialect/Flow/read-only-clones.mlir"]),
    ("cow-may-alias-ignored", "lib/Dialect/Flow/Transforms/FragmentCopyOnWrite.cpp",
     "!kernelToleratesAliasing(&op, *operand, other.getOperandNumber()))",
     "true)",
     ["Dialect/Flow/may-alias.mlir"]),
    ("cow-untie-apart-off", "lib/Dialect/Flow/Transforms/FragmentCopyOnWrite.cpp",
     "    if (aliased) {", "    if (false) {",
     ["Dialect/Flow/may-alias.mlir"]),
    ("exec-binding-aliasing-off", "lib/Exec/DeviceRules.cpp",
     "(first.mayAlias && second.mayAlias))", "true)",
     ["Exec/binding_aliasing.mlir"]),
    ("verify-binding-aliasing-off", "lib/Dialect/HAL/Transforms/DeviceRules.cpp",
     "|| (mayAlias(a) && mayAlias(b)))", "|| true)",
     ["Transforms/verify-device-rules-invalid.mlir"]),
    ("kernel-aliased-unchecked", "lib/Exec/KernelInterface.cpp",
     '!variable->hasAttr("aliased")) {', 'false) {',
     ["Exec/Vulkan/kernel_mistakes.test"]),
    ("box-divisor-dynamic-stride", "lib/Analysis/BoxGeometry.cpp",
     "      stride = std::nullopt;", "      stride = uint64_t(1) << 62;",
     ["Unit", "Conversion/FlowToHAL/copy_on_write.mlir"]),
    ("box-contiguous-any", "lib/Analysis/BoxGeometry.cpp",
     "    contiguous &= isProvablySame(box.lengths[dim], box.outerExtents[dim]);",
     "    contiguous |= isProvablySame(box.lengths[dim], box.outerExtents[dim]);",
     ["Conversion/FlowToHAL/slice_update.mlir", "Conversion/FlowToHAL/views.mlir"]),
    ("aliasing-no-ties", "lib/Analysis/ValueAliasing.cpp",
     "  for (auto [a, b] : ties)\n    classes.unionSets(a, b);",
     "  for (auto [a, b] : ties)\n    classes.insert(a);",
     ["Analysis/stream-liveness.mlir", "Conversion/FlowToHAL/fragment_plan.mlir"]),
    ("pack-dynamic-overlaps-static", "lib/Dialect/HAL/Transforms/PackAllocations.cpp",
     "int64_t minDynamicOffset = packing::alignTo(staticEnd, alignments.offset);",
     "int64_t minDynamicOffset = packing::alignTo(staticEnd / 2, alignments.offset);",
     ["Transforms/pack-allocations.mlir", "Transforms/pack-lanes.mlir"]),
    # The executor's checks (lib/Exec).
    ("exec-host-write-vs-read", "lib/Exec/Timeline.cpp",
     "if (!(writes || access.writes))", "if (!access.writes)",
     ["Exec/timeline.mlir"]),
    ("exec-use-after-release", "lib/Exec/Timeline.cpp",
     "Operation *dealloca = ref.root ? ref.root->getRelease() : nullptr;",
     "Operation *dealloca = nullptr;",
     ["Exec/timeline.mlir"]),
    ("exec-race-in-batch", "lib/Exec/Submission.cpp",
     "          return footprint.conflictsWith(access);",
     "          return false && footprint.conflictsWith(access);",
     ["Exec/oracle.test", "Exec/barrier_counts.mlir"]),
    ("exec-uninitialized", "lib/Exec/Submission.cpp",
     "ref.root->findUninitialized(ref.offset, ref.length))",
     "ref.root->findUninitialized(ref.offset, 0))",
     ["Exec/errors.mlir", "Exec/oracle.test"]),
    ("exec-bounds", "lib/Exec/HALLevel.cpp",
     "if (!ref.root->contains(ref.offset, ref.length))",
     "if (!ref.root->contains(ref.offset, 0))",
     ["Exec/errors.mlir", "Exec/limits.mlir"]),
    ("exec-offset-alignment", "lib/Exec/DeviceRules.cpp",
     "range.offset % offsetAlignment != 0)", "range.offset % 1 != 0)",
     ["Exec/device_rules.mlir", "Exec/device_rules_lowering.mlir"]),
    ("exec-fill-alignment", "lib/Exec/DeviceRules.cpp",
     "(range.offset % 4 == 0 && range.length % 4 == 0))",
     "(range.offset % 4 == 0 || range.length % 4 == 0))",
     ["Exec/device_rules.mlir", "Exec/device_rules_lowering.mlir"]),
    # Real kernels on the Vulkan device (issue 31).
    ("kernel-unknown-binding", "lib/Exec/KernelInterface.cpp",
     "    if (!binding) {", "    if (false) {",
     ["Exec/Vulkan/kernel_mistakes.test"]),
    ("kernel-store-into-read", "lib/Exec/KernelInterface.cpp",
     "    if (!hasAccess(binding, hal::MemoryAccess::Write)) {", "    if (false) {",
     ["Exec/Vulkan/kernel_mistakes.test"]),
    ("kernel-push-constant-size", "lib/Exec/KernelInterface.cpp",
     "    if (*bytes > declared) {", "    if (*bytes > declared + 64) {",
     ["Exec/Vulkan/kernel_mistakes.test"]),
    ("kernel-local-size", "lib/Exec/KernelInterface.cpp",
     "    if (size == 0 || size > limits.maxWorkgroupSize[i])", "    if (size == 0)",
     ["Exec/Vulkan/kernel_mistakes.test"]),
    ("kernel-unwritten-words", "lib/Exec/Vulkan/VulkanWriteCheck.cpp",
     "[](uint8_t byte) { return byte == kPoisonByte; }))", "[](uint8_t) { return false; }))",
     ["Exec/Vulkan/kernel_mistakes.test"]),
    ("kernel-unbound-binding", "lib/Conversion/FlowToHAL/DispatchResolution.cpp",
     "  if (!carriesKernels(resolved.variant))", "  if (true)",
     ["Conversion/FlowToHAL/invalid.mlir", "Exec/Vulkan/kernel_mistakes.test"]),
    # The pattern route (issue 35).
    ("plan-stamp-ignored", "lib/Conversion/FlowToHAL/FragmentCheck.cpp",
     "  if (it->second.stamp != stampFragment(fragment)) {", "  if (false) {",
     ["Unit"]),
    ("copy-on-write-marker-ignored", "lib/Conversion/FlowToHAL/StreamFragmentPattern.cpp",
     "    if (!module || !module->hasAttr(flow::kCopyOnWriteAttrName))",
     "    if (!module)",
     ["Unit"]),
    ("place-barriers-none-unprintable", "include/streamhal/Dialect/HAL/Transforms/Passes.td",
     "[{::streamhal::getBarrierPolicyValuesWithNone()}]>,",
     "[{::streamhal::getBarrierPolicyValues()}]>,",
     ["Unit"]),
    ("flow-level-kernels-on-model", "lib/Exec/FlowDispatch.cpp",
     "  if (runsOnDevice(*this, *entryPoint)) {", "  if (false) {",
     ["Exec/Vulkan/kernel_mistakes.test", "Examples/softmax_vulkan.test"]),
    # Reusable command buffers (docs/replay.md).
    ("memoize-every-root-own-class",
     "lib/Dialect/HAL/Transforms/MemoizeCommandBuffers.cpp",
     "if (root.kind == BufferRootKind::Allocation && !root.escapes) {",
     "if (root.kind != BufferRootKind::Unknown) {",
     ["Transforms/memoize-command-buffers.mlir"]),
    ("memoize-unhoisted-uniform",
     "lib/Dialect/HAL/Transforms/MemoizeCommandBuffers.cpp",
     "        materializeAtSubmission(uniform, plan, builder, hostMapping));",
     "        uniform);",
     ["Transforms/memoize-command-buffers.mlir", "Exec/replay.mlir"]),
    ("memoize-no-uniform-sharing",
     "lib/Dialect/HAL/Transforms/MemoizeCommandBuffers.cpp",
     "            plan.representatives[result] = sameResult;",
     "            (void)sameResult;",
     ["Transforms/memoize-command-buffers.mlir"]),
    ("resolver-no-slot-lookthrough",
     "lib/Dialect/HAL/Analysis/CommandAccesses.cpp",
     "  buffer = getSubmittedValue(buffer);", "",
     ["Transforms/verify-command-buffers-invalid.mlir"]),
    ("verify-no-slot-aliasing", "lib/Dialect/HAL/Transforms/VerifyCommandBuffers.cpp",
     "      findCrossClassOverlap(ranges);", "      std::nullopt;",
     ["Transforms/verify-command-buffers-invalid.mlir"]),
    ("slot-overlap-any-class", "lib/Dialect/HAL/Analysis/SlotAliasing.cpp",
     "        ranges[*furthest].aliasClass != range.aliasClass)",
     "        true)",
     ["Unit"]),
    ("replay-no-alias-check", "lib/Exec/Replay.cpp",
     "  if (failed(checkSlotAliasing(execute, slots, memoize.getSlotClasses())))",
     "  if (false)",
     ["Exec/replay.mlir"]),
    ("replay-uniforms-reversed", "lib/Exec/Replay.cpp",
     "       llvm::zip(uniformArguments, execute.getUniforms())) {",
     "       llvm::zip(llvm::reverse(uniformArguments), execute.getUniforms())) {",
     ["Exec/replay.mlir"]),
    # The Vulkan device's replay of memoized recordings (VulkanReplay.cpp).
    ("vulkan-replay-key-ignores-uniforms", "lib/Exec/Vulkan/VulkanReplay.cpp",
     "  llvm::append_range(key, tables.uniforms);", "",
     ["Exec/Vulkan/replay.test"]),
    ("vulkan-replay-key-ignores-sharing", "lib/Exec/Vulkan/VulkanReplay.cpp",
     "key.push_back(firstSlotOf.try_emplace(slot.root.get(), index).first->second);",
     "key.push_back(index);",
     ["Exec/Vulkan/replay.test"]),
    ("vulkan-replay-stages-nothing", "lib/Exec/Vulkan/VulkanReplay.cpp",
     "  work->stageHostBytes();", "  if (!replay)\n    work->stageHostBytes();",
     ["Exec/Vulkan/replay.test"]),
    ("vulkan-replay-keeps-old-roots", "lib/Exec/Vulkan/VulkanReplay.cpp",
     "    mirror.root = slots[mirrorSlots[index]].root;", "",
     ["Exec/Vulkan/replay.test"]),

    # The executor's timeline (lib/Exec/Timeline.cpp).
    ("timeline-ordered-checked-as-unordered", "lib/Exec/Timeline.cpp",
     "    unordered.reset(submission.after);", "",
     ["Exec/timeline.mlir", "Exec/async.test"]),
    ("timeline-completed-stays-pending", "lib/Exec/Timeline.cpp",
     "      pendingSubmissions.reset(index);", "",
     ["Exec/timeline.mlir", "Exec/async.test"]),
]


def run(command, cwd):
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default="build-assert")
    parser.add_argument("--results", help="write a markdown table here")
    parser.add_argument("--only", action="append", default=[],
                        help="run only the named mutation (repeatable)")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list:
        for name, path, *_ in MUTATIONS:
            print(name, path)
        return 0
    build = (ROOT / args.build_dir).resolve()
    lit = "/usr/lib/llvm-22/bin/lit"
    rows = []
    for name, path, fragment, replacement, tests in MUTATIONS:
        if args.only and name not in args.only:
            continue
        file = ROOT / path
        original = file.read_bytes()
        text = original.decode()
        if text.count(fragment) != 1:
            rows.append((name, path, "stale", ""))
            print(name, "stale", flush=True)
            continue
        try:
            file.write_text(text.replace(fragment, replacement))
            built = run(["ninja", "-C", str(build), "hal-opt", "hal-exec",
                         "hal-pack", "StreamhalUnitTests"], ROOT)
            if built.returncode:
                built = run(["ninja", "-C", str(build), "hal-opt", "hal-exec",
                             "hal-pack"], ROOT)
            if built.returncode:
                rows.append((name, path, "build failed", ""))
                print(name, "build failed", flush=True)
                continue
            killers = []
            for test in tests:
                target = build / "test" / test
                result = run([lit, "-q", str(target)], ROOT)
                if result.returncode:
                    killers.append(test)
            verdict = "killed" if killers else "SURVIVED"
            rows.append((name, path, verdict, ", ".join(killers)))
            print(name, verdict, ", ".join(killers), flush=True)
        finally:
            file.write_bytes(original)
    # Leave the build matching the tree.
    run(["ninja", "-C", str(build), "hal-opt", "hal-exec", "hal-pack"], ROOT)
    survived = sum(1 for row in rows if row[2] == "SURVIVED")
    print(f"mutations: {len(rows)}, killed: "
          f"{sum(1 for row in rows if row[2] == 'killed')}, survived: {survived}")
    if args.results:
        with open(args.results, "w") as out:
            out.write("# Source mutation results\n\n")
            out.write(f"`utils/mutate_source.py --build-dir={args.build_dir}`, "
                      f"{datetime.date.today().isoformat()}: each mutation "
                      "planted alone, the tools rebuilt, the tests of its "
                      "own area run.\n\n")
            out.write("| mutation | file | result | killed by |\n|---|---|---|---|\n")
            for name, path, verdict, killers in rows:
                out.write(f"| `{name}` | `{path}` | {verdict} | {killers} |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
