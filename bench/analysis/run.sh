#!/usr/bin/env bash
#===- run.sh - time ValueAliasing + LivenessIntervals ----------------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/analysis/run.sh [build-dir] [runs]
#
# For N = 1,000, 10,000 and 100,000 work ops and each fragment shape
# (gen_fragments.py), parses the fragment once with
# `hal-opt --test-stream-liveness="annotate=false repeat=<runs>"`, which builds
# ValueAliasing + LivenessIntervals `runs` times (default 11) in the same
# process and reports the first (cold) time, the median time and, as a
# reference, the median time of one bare walk over the body reading every
# operand and result type. Parsing, verification and printing are not timed.
# Prints a markdown table; linear scaling gives a 100k/10k ratio of 10.
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
runs="${2:-11}"
source "$here/../common.sh"
hal_opt="$(bench_tool "$build" hal-opt)"
if ! "$hal_opt" --help | grep -- --test-stream-liveness >/dev/null; then
  echo "error: $hal_opt has no --test-stream-liveness (StreamhalTestPasses)" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Prints "<values> <first ms> <median ms> <walk median ms>" for file $1.
measure() {
  "$hal_opt" "$1" --test-stream-liveness="annotate=false repeat=$runs" \
    -o /dev/null 2>&1 |
    sed -n 's/^test-stream-liveness: \([0-9]*\) values.*first \([0-9.]*\) ms.*median \([0-9.]*\) ms (aliasing.*: median \([0-9.]*\) ms$/\1 \2 \3 \4/p'
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }'
}

sizes=(1000 10000 100000)
echo "| shape | values at 100k | 1k (ms) | 10k (ms) | 100k (ms) | 100k/10k | 100k first run (ms) | bare walk 100k/10k |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for shape in chain fanout mix; do
  declare -A median=() walk=() first=() values=()
  for n in "${sizes[@]}"; do
    file="$work/$shape-$n.mlir"
    python3 "$here/gen_fragments.py" --ops "$n" --shape "$shape" -o "$file"
    read -r v f m w < <(measure "$file") || true
    if [[ -z "${m:-}" ]]; then
      echo "error: no timing for $shape at $n ops" >&2
      exit 1
    fi
    values[$n]="$v"; first[$n]="$f"; median[$n]="$m"; walk[$n]="$w"
    unset v f m w
  done
  echo "| $shape | ${values[100000]} | ${median[1000]} | ${median[10000]} |" \
    "${median[100000]} | $(ratio "${median[100000]}" "${median[10000]}") |" \
    "${first[100000]} | $(ratio "${walk[100000]}" "${walk[10000]}") |"
  unset median walk first values
done
