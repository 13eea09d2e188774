#!/usr/bin/env bash
#===- run.sh - commands recorded per call, one-shot vs memoized -----------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/replay/run.sh [build-dir]
#
# Lowers the model-shaped fragments of bench/concurrency/gen_models.py, the
# 2,000-op synthetic mix of bench/analysis/gen_fragments.py, a chain of
# 2,000 dispatches (bench/compile/gen.py) and examples/mlp.mlir with
# `--streamhal-lower-to-hal` (memoized, the default) and with `memoize=false`
# (one-shot), and prints per program: from the IR (count.py), the command
# buffer ops the host runs on every call and the binding table entries
# (slots + uniforms) it fills instead; from `hal-exec --check-lowering
# --report-commands`, two calls in one executor (for mlp.mlir with batch
# sizes 3 and 5), each checked against the flow level: the commands
# recorded by the first call and by the second, and the commands each call
# executes. The reference executor resolves a replayed command's slots and
# uniforms at every submission, so its wall time says nothing about replay.
#
# When hal-exec has a Vulkan device (`--list-devices` finds one), a second
# table times the device's host side per call (`--report-device-time`:
# prepare + record: the work before vkQueueSubmit, less the copy of the
# host's bytes into staging, which a runtime whose buffers stay on the
# device does not do) over 11 calls with the
# same sizes, one-shot and memoized: the first call, and the median of the
# other 10, in total and per command executed (docs/replay.md, "Measured").
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
python3 "$here/../concurrency/gen_models.py" "$work"
python3 "$here/../analysis/gen_fragments.py" --ops 2000 --shape mix \
  -o "$work/synthetic_mix_2000.mlir"
python3 "$here/../compile/gen.py" --shape chain --dispatches 2000 \
  -o "$work/chain_2000.mlir"
cp "$here/../../examples/mlp.mlir" "$work/mlp.mlir"

# figure NAME LINE: the value of NAME=... in LINE.
figure() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" <<<"$2" | head -1; }

# run_hal_exec FILE ARGS...: hal-exec's output into $work/out; exits with
# its errors when it fails.
run_hal_exec() {
  "$hal_exec" "$@" >"$work/out" 2>"$work/err" || {
    echo "error: hal-exec $* failed:" >&2
    cat "$work/err" >&2
    exit 1
  }
}

# commands FILE OPTIONS DIMS...: "recorded-first recorded-second executed"
# of two calls of every public function, summed over the functions.
commands() {
  local file="$1" options="$2"
  shift 2
  local calls=()
  for dims in "$@"; do calls+=("--call-dims=$dims"); done
  run_hal_exec "$file" "--check-lowering=streamhal-lower-to-hal$options" \
    "${calls[@]}" --report-commands
  python3 - "$work/out" <<'PY'
import re, sys
calls = {}
for line in open(sys.argv[1]):
    m = re.match(r"@(\S+): commands recorded=(\d+) executed=(\d+)", line)
    if m:
        calls.setdefault(m.group(1), []).append((int(m.group(2)), int(m.group(3))))
first = sum(c[0][0] for c in calls.values())
second = sum(c[1][0] for c in calls.values())
executed = sum(c[1][1] for c in calls.values())
print(first, second, executed)
PY
}

echo "| program | command buffer ops per call, one-shot | same, memoized | table entries per call, memoized | commands executed per call | recorded by call 1, one-shot | by call 2, one-shot | recorded by call 1, memoized | by call 2, memoized |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in transformer_encoder_layer inception_block residual_stage plain_chain transformer_qkv_split synthetic_mix_2000 chain_2000 mlp; do
  file="$work/$name.mlir"
  dims=("" "")
  [[ $name == mlp ]] && dims=(3 5)
  "$hal_opt" "$file" --streamhal-lower-to-hal=memoize=false -o "$work/one-shot.mlir"
  "$hal_opt" "$file" --streamhal-lower-to-hal -o "$work/memoized.mlir"
  one="$(python3 "$here/count.py" "$work/one-shot.mlir")"
  memo="$(python3 "$here/count.py" "$work/memoized.mlir")"
  read -r one_first one_second one_executed <<<"$(commands "$file" "{memoize=false}" "${dims[@]}")"
  read -r memo_first memo_second memo_executed <<<"$(commands "$file" "" "${dims[@]}")"
  if [[ $one_executed != "$memo_executed" ]]; then
    echo "error: $name executes $one_executed commands one-shot, $memo_executed memoized" >&2
    exit 1
  fi
  echo "| $name | $(figure recording-ops "$one") | $(figure recording-ops "$memo") | $(figure table-entries "$memo") | $memo_executed | $one_first | $one_second | $memo_first | $memo_second |"
done

echo
if ! "$hal_exec" --list-devices >/dev/null 2>&1; then
  echo "No Vulkan device: the host time per call on the device is not measured."
  exit 0
fi
device_name="$("$hal_exec" --list-devices | head -1 | sed 's/^0: //; s/ (.*//')"
echo "Host time per call on the Vulkan device \`$device_name\` (prepare + record, ms, not counting the host bytes staged; 11 calls with the same sizes):"
echo
echo "| program | commands executed per call | call 1, one-shot | later calls, one-shot | call 1, memoized | later calls, memoized | one-shot / memoized, later calls | ns per command, one-shot | ns per command, memoized |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
# (--report-device-time prints milliseconds to 3 decimals: a replay's
# few microseconds are near that resolution.)
# host_ms FILE OPTIONS DIMS: "first median" of prepare+record over 11 calls.
host_ms() {
  local calls=()
  for _ in $(seq 11); do calls+=("--call-dims=$3"); done
  run_hal_exec "$1" "--lower=streamhal-lower-to-hal$2" --device=vulkan \
    --device-limits=max-range=134217728 --report-device-time "${calls[@]}"
  python3 - "$work/out" <<'PY'
import re, statistics, sys
per_call = {}
for line in open(sys.argv[1]):
    m = re.match(r"@(\S+): device time .*prepare-ms=([0-9.]+) stage-ms=[0-9.]+ record-ms=([0-9.]+)", line)
    if m:
        per_call.setdefault(m.group(1), []).append(float(m.group(2)) + float(m.group(3)))
calls = [sum(c) for c in zip(*per_call.values())]
print(f"{calls[0]:.3f} {statistics.median(calls[1:]):.3f}")
PY
}
for name in transformer_encoder_layer inception_block residual_stage plain_chain transformer_qkv_split synthetic_mix_2000 chain_2000 mlp; do
  file="$work/$name.mlir"
  dims=""
  [[ $name == mlp ]] && dims=3
  read -r executed <<<"$(commands "$file" "" "$dims" "$dims" | cut -d' ' -f3)"
  read -r one_first one_later <<<"$(host_ms "$file" "{memoize=false}" "$dims")"
  read -r memo_first memo_later <<<"$(host_ms "$file" "" "$dims")"
  python3 - "$name" "$executed" "$one_first" "$one_later" "$memo_first" "$memo_later" <<'PY'
import sys
name, executed = sys.argv[1], int(sys.argv[2])
one_first, one_later, memo_first, memo_later = map(float, sys.argv[3:])
ratio = one_later / memo_later if memo_later > 0 else float("inf")
print(f"| {name} | {executed} | {one_first:.3f} | {one_later:.3f} | {memo_first:.3f} | "
      f"{memo_later:.3f} | {ratio:.0f}x | {1e6 * one_later / executed:.0f} | "
      f"{1e6 * memo_later / executed:.0f} |")
PY
done
