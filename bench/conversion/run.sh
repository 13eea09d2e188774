#!/usr/bin/env bash
#===- run.sh - time --convert-flow-to-hal against parse + print ------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/conversion/run.sh [build-dir] [runs]
#
# For fragments of N = 10,000 and 100,000 work ops (made by
# bench/analysis/gen_fragments.py, one row per fragment shape), times in the
# same run, `runs` times each (default 3, the median is reported):
#   parse+print  `hal-opt FILE > /dev/null`
#   conversion   `hal-opt FILE --convert-flow-to-hal > /dev/null`
# Both include parsing, verification and printing (the converted module is
# bigger than the input, so printing it is part of the conversion's cost).
# Prints a markdown table: wall seconds, ratio = conversion / parse+print,
# and the 100k/10k growth of the conversion time (linear scaling gives 10).
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
runs="${2:-3}"
source "$here/../common.sh"
hal_opt="$(bench_tool "$build" hal-opt)"
gen="$here/../analysis/gen_fragments.py"
if [[ ! -f "$gen" ]]; then
  echo "error: $gen not found" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Median wall seconds over $runs runs of `hal-opt "$@" > /dev/null`.
time_cmd() {
  local samples=()
  for ((run = 0; run < runs; ++run)); do
    local start end
    start="$(date +%s.%N)"
    if ! "$hal_opt" "$@" > /dev/null; then
      echo "error: hal-opt $* failed" >&2
      exit 1
    fi
    end="$(date +%s.%N)"
    samples+=("$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }')")
  done
  printf '%s\n' "${samples[@]}" | sort -g |
    awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'
}

sizes=(10000 100000)
echo "| shape | N ops | parse+print (s) | conversion (s) | ratio | growth 100k/10k |"
echo "|---|---:|---:|---:|---:|---:|"
for shape in chain fanout mix; do
  declare -A conv=()
  for n in "${sizes[@]}"; do
    file="$work/$shape-$n.mlir"
    python3 "$gen" --ops "$n" --shape "$shape" -o "$file"
    base="$(time_cmd "$file")"
    conv[$n]="$(time_cmd "$file" --convert-flow-to-hal)"
    ratio="$(awk -v a="${conv[$n]}" -v b="$base" \
      'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
    growth=""
    if [[ "$n" == 100000 ]]; then
      growth="$(awk -v a="${conv[100000]}" -v b="${conv[10000]}" \
        'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }')"
    fi
    echo "| $shape | $n | $base | ${conv[$n]} | $ratio | $growth |"
  done
  unset conv
done
