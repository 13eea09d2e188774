#!/usr/bin/env bash
#===- run.sh - host waits and submissions, blocking vs async --------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/submission/run.sh [build-dir]
#
# Lowers the functions of gen.py (chains, independent branches, and chains
# with a host load between fragments, of 1, 4 and 16 fragments) with
# `--streamhal-lower-to-hal=submission=blocking` and with the default
# `submission=async`, checks both against the flow level with
# `hal-exec --check-lowering --orders=4` (the executor's timeline checks
# every fence and host wait), and prints the static figures per call
# (count.py). Then, when `hal-exec --list-devices` finds a Vulkan device,
# the wall time per call on it: the same functions over 256 and 65536
# f32 elements (after a @warmup function that pays pipeline creation), each
# policy run REPEAT times (default 5) with `--device=vulkan
# --report-device-time --check-lowering` (so every timed run also matches
# the flow level), the medians of run-ms (the HAL function's whole run)
# and submit-wait-ms (vkQueueSubmit to the end of the waits, summed) and
# the submissions. BENCH_VULKAN_DEVICE (an index or a part of a name) picks
# the device. Without a device the wall-time table is skipped with a note.
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
source "$here/../common.sh"
hal_opt="$(bench_tool "$build" hal-opt)"
hal_exec="$(bench_tool "$build" hal-exec)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen.py" >"$work/submission.mlir"
functions=$(grep -c "^func.func" "$work/submission.mlir")
for submission in blocking async; do
  "$hal_opt" "$work/submission.mlir" \
    "--streamhal-lower-to-hal=submission=$submission" >"$work/$submission.mlir"
  matched=$("$hal_exec" "$work/submission.mlir" --orders=4 \
    "--check-lowering=streamhal-lower-to-hal{submission=$submission}" |
    grep -c "the HAL level matches")
  if [[ "$matched" != "$functions" ]]; then
    echo "error: $matched of $functions functions match with" \
      "submission=$submission" >&2
    exit 1
  fi
done
python3 "$here/count.py" "$work/blocking.mlir" "$work/async.mlir"
echo
echo "Every function matches the flow level under both policies" \
  "(hal-exec --check-lowering --orders=4)."
echo

# The executor's timeline at scale: a chain of N fragments lowered with
# submission=async keeps every submission pending until the return's wait,
# so each new one is checked against all earlier pending ones (their order
# as bits, word by word). hal-exec's wall time on the lowered function.
echo "The executor's timeline at scale: \`hal-exec\` on a lowered async chain of N fragments (all pending until the return; seconds, one run each):"
echo
echo "| fragments | hal-exec s | growth from the row above (4x fragments) |"
echo "|---:|---:|---:|"
head -c 1024 /dev/zero >"$work/input.bin"
previous=""
for count in 500 2000 8000; do
  python3 "$here/gen.py" --chain=$count >"$work/chain_$count.mlir"
  "$hal_opt" "$work/chain_$count.mlir" --streamhal-lower-to-hal \
    >"$work/chain_${count}_lowered.mlir"
  TIMEFORMAT=%R
  { time "$hal_exec" "$work/chain_${count}_lowered.mlir" \
    --input=256xf32=@"$work/input.bin" >/dev/null; } 2>"$work/seconds"
  seconds=$(<"$work/seconds")
  growth=""
  [[ -n $previous ]] &&
    growth="$(python3 -c "print(f'{$seconds / $previous:.1f}x')")"
  echo "| $count | $seconds | $growth |"
  previous=$seconds
done
echo

device_flags=(--device=vulkan --device-limits=max-range=134217728)
[[ -n "${BENCH_VULKAN_DEVICE:-}" ]] &&
  device_flags+=(--vulkan-device="$BENCH_VULKAN_DEVICE")
if ! devices="$("$hal_exec" --list-devices 2>&1)" ||
  ! "$hal_exec" "$work/submission.mlir" --function=chain_1 \
    "${device_flags[@]}" --lower >/dev/null 2>&1; then
  echo "Wall time per call: skipped, hal-exec finds no usable Vulkan device" \
    "(\`hal-exec --list-devices\`: ${devices:-nothing})."
  exit 0
fi
repeat="${REPEAT:-5}"
: >"$work/runs"
for elements in 256 65536; do
  python3 "$here/gen.py" --elements=$elements --warmup >"$work/timed_$elements.mlir"
done
# The repeats are the outer loop, so a change of the machine's load falls on
# both policies alike.
for ((rep = 0; rep < repeat; ++rep)); do
  for elements in 256 65536; do
    for submission in blocking async; do
      out="$("$hal_exec" "$work/timed_$elements.mlir" "${device_flags[@]}" \
        --report-device-time \
        "--check-lowering=streamhal-lower-to-hal{submission=$submission}" 2>&1)" || {
        echo "error: the $elements-element run with submission=$submission" \
          "failed:" >&2
        echo "$out" >&2
        exit 1
      }
      matched=$(grep -c ": the HAL level matches$" <<<"$out" || true)
      if [[ "$matched" != "$((functions + 1))" ]]; then
        echo "error: $matched functions match on the device with" \
          "submission=$submission ($elements elements)" >&2
        echo "$out" >&2
        exit 1
      fi
      grep "device time" <<<"$out" | sed "s/^/$elements $submission /" >>"$work/runs"
    done
  done
done
if [[ -n "${BENCH_VULKAN_DEVICE:-}" ]]; then
  chosen="\`--vulkan-device=$BENCH_VULKAN_DEVICE\`"
else
  chosen="the default device (the first GPU, else the first device)"
fi
echo "Wall time per call on the Vulkan device (\`hal-exec --list-devices\`;" \
  "the runs use $chosen):"
echo
sed 's/^/    /' <<<"$devices"
echo
python3 - "$work/runs" "$repeat" <<'PY'
import re, statistics, sys
from collections import defaultdict
runs = defaultdict(list)
order = []
for line in open(sys.argv[1]):
    elements, policy, rest = line.split(" ", 2)
    name = re.match(r"@(\S+):", rest).group(1)
    if name == "warmup":
        continue
    times = dict(re.findall(r"([a-z-]+)=([0-9.]+)", rest))
    if (elements, name) not in order:
        order.append((elements, name))
    runs[(elements, name, policy)].append(times)
def median(key, field):
    return statistics.median(float(t[field]) for t in runs[key])
print(f"Medians of {sys.argv[2]} runs each, in ms, without validation; "
      "\"run\" is the HAL function's whole run, \"submit+wait\" the "
      "device's vkQueueSubmit-to-wait time summed over the call.")
print()
print("| function | elements | submissions | run, blocking | run, async | "
      "run, async / blocking | submit+wait, blocking | submit+wait, async |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for elements, name in order:
    b, a = (elements, name, "blocking"), (elements, name, "async")
    subs = runs[b][0]["submissions"]
    if runs[a][0]["submissions"] != subs:
        subs += " / " + runs[a][0]["submissions"]
    rb, ra = median(b, "run-ms"), median(a, "run-ms")
    print(f"| {name} | {elements} | {subs} | {rb:.3f} | {ra:.3f} | "
          f"{ra / rb:.2f} | {median(b, 'submit-wait-ms'):.3f} | "
          f"{median(a, 'submit-wait-ms'):.3f} |")
PY
