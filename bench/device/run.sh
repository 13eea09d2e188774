#!/usr/bin/env bash
#===- run.sh - wall time of lowered programs on the Vulkan device ----------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/device/run.sh [build-dir]
#
# Runs lowered programs on `hal-exec --device=vulkan` (docs/device.md): the
# model-shaped fragments of bench/concurrency/gen_models.py, examples/mlp.mlir
# (the model kernel) and examples/mlp_vulkan.mlir (its SPIR-V dense and ReLU
# kernels), each lowered three ways (barriers `full`, `hazard` in program
# order, and `hazard` after `flow-schedule-fragments`, "waves") and run
# without and with `--validate`, REPEAT times each (default 5). Every run of
# a model or of mlp.mlir is `--check-lowering` against the flow level on the
# reference model, so a wrong byte or a validation message stops the script;
# mlp_vulkan.mlir runs with `--lower` and its logits must not depend on the
# policy. The figures are hal-exec's `--report-device-time` (medians over the
# repeats): "run" is the HAL function's whole run (the host side the executor
# interprets, and the device), "record" recording its command buffers,
# "submit+wait" vkQueueSubmit to the fence, per function (each of these
# programs submits once); "process" is the wall time of the whole hal-exec
# process (instance, device, validation layer, lowering, both levels).
# Barriers are `--report-barriers`' recorded count. BENCH_VULKAN_DEVICE
# (an index or a part of a name) picks the device; the programs are
# compiled for 16-byte offset alignment and run with 128 MiB bindings, so a
# device with a coarser minStorageBufferOffsetAlignment refuses them.
# Prints markdown.
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$here/../.."
build="${1:-$repo/build}"
source "$here/../common.sh"
hal_exec="$(bench_tool "$build" hal-exec)"
repeat="${REPEAT:-5}"
device_flags=(--device=vulkan)
[[ -n "${BENCH_VULKAN_DEVICE:-}" ]] &&
  device_flags+=(--vulkan-device="$BENCH_VULKAN_DEVICE")
if ! "$hal_exec" --list-devices --validate >/dev/null 2>&1; then
  echo "error: hal-exec finds no usable Vulkan device with the validation" \
    "layer (hal-exec --list-devices --validate)" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$repo/bench/concurrency/gen_models.py" "$work"
# MLP inputs: 1024 rows, multiples of 1/4.
python3 - "$work" <<'PY'
import struct, sys
for rows, cols in ((1024, 64), (1024, 16)):
    values = [((i * 7) % 11 - 5) / 4 for i in range(rows * cols)]
    with open(f"{sys.argv[1]}/mlp_{rows}x{cols}xf32.bin", "wb") as f:
        f.write(struct.pack(f"<{rows * cols}f", *values))
PY

lowering="flow-materialize-copy-on-write,convert-flow-to-hal{barriers=none},hal-pack-allocations,canonicalize"
pipeline() {
  case "$1" in
  full) echo "$lowering,hal-place-barriers{policy=full}" ;;
  hazard) echo "$lowering,hal-place-barriers{policy=hazard}" ;;
  waves) echo "flow-schedule-fragments,$lowering,hal-place-barriers{policy=hazard}" ;;
  esac
}

# run_once PROGRAM POLICY VALIDATE MODE FILE ARGS...: one hal-exec run
# (MODE: check or lower; VALIDATE: yes or no), appending one line to
# $work/runs: program policy validated barriers submissions run-ms
# record-ms submit-wait-ms process-ms digest.
run_once() {
  local program="$1" policy="$2" validate="$3" mode="$4" file="$5"
  shift 5
  local flags=("--$mode=$(pipeline "$policy")")
  [[ $mode == check ]] && flags=("--check-lowering=$(pipeline "$policy")")
  [[ $validate == yes ]] && flags+=(--validate)
  local out start end
  start=$(date +%s%N)
  if ! out="$("$hal_exec" "$file" "${flags[@]}" "${device_flags[@]}" \
    --report-barriers --report-device-time "$@" 2>&1)"; then
    echo "error: $program ($policy, validate=$validate) failed:" >&2
    echo "$out" >&2
    exit 1
  fi
  end=$(date +%s%N)
  if [[ $mode == check ]] && ! grep -q ': the HAL level matches$' <<<"$out"; then
    echo "error: $program ($policy): no match line" >&2
    echo "$out" >&2
    exit 1
  fi
  printf '%s\n' "$out" >"$work/out"
  python3 - "$program" "$policy" "$validate" "$(((end - start) / 1000))" \
    "$work/out" >>"$work/runs" <<'PY'
import re, sys
program, policy, validated, process_us, output = sys.argv[1:]
text = open(output).read()
barriers = re.search(r"barriers recorded=(\d+)", text).group(1)
times = dict(re.findall(r"([a-z-]+)=([0-9.]+)",
                        re.search(r"device time (.*)", text).group(1)))
digest = re.search(r"result 0: \S+ (0x[0-9a-f]+)", text).group(1)
print(program, policy, validated, barriers, times["submissions"],
      times["run-ms"], times["record-ms"], times["submit-wait-ms"],
      int(process_us) / 1000, digest)
PY
}

# measure PROGRAM MODE FILE ARGS...: REPEAT runs of each policy, without
# and with --validate. The repeats are the outer loop, so a change of the
# machine's load falls on every policy alike.
measure() {
  local program="$1" mode="$2" file="$3"
  shift 3
  local rep policy validate
  for ((rep = 0; rep < repeat; ++rep)); do
    for policy in full hazard waves; do
      for validate in no yes; do
        run_once "$program" "$policy" "$validate" "$mode" "$file" "$@"
      done
    done
  done
}

limits=--device-limits=max-range=134217728
for model in transformer_encoder_layer inception_block residual_stage plain_chain transformer_qkv_split; do
  measure "$model" check "$work/$model.mlir" "$limits"
done
measure "mlp (model kernel, 1024 rows)" check "$repo/examples/mlp.mlir" \
  "$limits" --input=1024x64xf32=@"$work/mlp_1024x64xf32.bin"
measure "mlp_vulkan (SPIR-V kernels, 1024 rows)" lower \
  "$repo/examples/mlp_vulkan.mlir" --formats=vulkan-spirv-fb \
  --input=1024x16xf32=@"$work/mlp_1024x16xf32.bin"

if [[ -n "${BENCH_VULKAN_DEVICE:-}" ]]; then
  chosen="\`--vulkan-device=$BENCH_VULKAN_DEVICE\`"
else
  chosen="the default device (the first GPU, else the first device)"
fi
echo "Devices (\`hal-exec --list-devices\`); the runs use $chosen:"
echo
"$hal_exec" --list-devices | sed 's/^/    /'
echo
python3 - "$work/runs" "$repeat" <<'PY'
import statistics, sys
from collections import defaultdict
runs = defaultdict(list)
order = []
for line in open(sys.argv[1]):
    *name, policy, validated, barriers, subs, run, record, submit, process, digest = line.split()
    key = (" ".join(name), policy)
    if key not in order:
        order.append(key)
    runs[key + (validated,)].append(
        (int(barriers), int(subs), float(run), float(record), float(submit),
         float(process), digest))
# The logits of a program must not depend on the barrier policy.
digests = defaultdict(set)
for (program, policy, validated), values in runs.items():
    digests[program].update(v[6] for v in values)
for program, found in digests.items():
    if len(found) != 1:
        sys.exit(f"error: {program}: results differ between runs: {sorted(found)}")
def median(key, column):
    return statistics.median(v[column] for v in runs[key])
print(f"Medians of {sys.argv[2]} runs each, in ms; \"validated\" is `--validate` "
      "(synchronization validation, also at submission).")
print()
print("| program | barriers | recorded barriers | submissions | run | record | "
      "submit+wait | process | run, validated | record, validated | "
      "submit+wait, validated | process, validated |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for program, policy in order:
    plain, checked = (program, policy, "no"), (program, policy, "yes")
    cells = [program, policy, str(runs[plain][0][0]), str(runs[plain][0][1])]
    for key in (plain, checked):
        cells += [f"{median(key, c):.2f}" for c in (2, 3, 4)]
        cells.append(f"{median(key, 5):.0f}")
    print("| " + " | ".join(cells) + " |")
PY
