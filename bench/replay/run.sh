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
# uniforms at every submission, so its wall time says nothing about replay;
# no host time is reported here (docs/replay.md, "Measured").
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

# commands FILE OPTIONS DIMS...: "recorded-first recorded-second executed"
# of two calls of every public function, summed over the functions.
commands() {
  local file="$1" options="$2"
  shift 2
  local calls=()
  for dims in "$@"; do calls+=("--call-dims=$dims"); done
  "$hal_exec" "$file" "--check-lowering=streamhal-lower-to-hal$options" \
    "${calls[@]}" --report-commands >"$work/out" 2>"$work/err" || {
    echo "error: hal-exec $file failed:" >&2
    cat "$work/err" >&2
    exit 1
  }
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
