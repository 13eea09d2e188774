#!/usr/bin/env bash
#===- run.sh - compile time of every pass at 1k, 10k and 100k dispatches --===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/compile/run.sh [build-dir] [sizes] [shapes]
#
# For each fragment shape of bench/compile/gen.py (default: all) at each
# size (default "1000 10000 100000" dispatches), one run each of
#   lower   hal-opt FILE --streamhal-lower-to-hal
#   full    hal-opt FILE --flow-schedule-fragments
#                        --streamhal-lower-to-hal=external-transients=true
#                        --hal-verify-command-buffers
# (the full run also makes the transients the caller's, so that
# hal-external-transients is timed too)
# with --mlir-timing (wall time per pass, and the parser's), the peak RSS of
# the lower run (/usr/bin/time), and at 10,000 dispatches the wall time of
# `hal-exec --check-lowering FILE`. Prints two markdown tables (measure.py):
# per run the parse time, the time of all passes and its ratio to parsing,
# the slowest pass and the RSS; then per shape and pass of the full run the
# seconds at 100k dispatches and the growth of the pass's time from 10k to
# 100k dispatches (10 is linear).
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
sizes="${2:-1000 10000 100000}"
shapes="${3:-chain tied fan tree wide mix transformer gpt fragments}"
source "$here/../common.sh"
hal_opt="$(bench_tool "$build" hal-opt)"
hal_exec="$(bench_tool "$build" hal-exec)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
log="$work/log"

for shape in $shapes; do
  for n in $sizes; do
    file="$work/$shape-$n.mlir"
    python3 "$here/gen.py" --shape "$shape" --dispatches "$n" -o "$file"
    for pipeline in lower full; do
      if [[ $pipeline == lower ]]; then
        passes=(--streamhal-lower-to-hal)
      else
        passes=(--flow-schedule-fragments
                --streamhal-lower-to-hal=external-transients=true
                --hal-verify-command-buffers)
      fi
      timing="$work/timing"
      /usr/bin/time -f '%M' -o "$work/rss" "$hal_opt" "$file" "${passes[@]}" \
        --mlir-timing --mlir-timing-display=list -o /dev/null 2>"$timing" || {
        echo "error: hal-opt $file ${passes[*]} failed:" >&2
        cat "$timing" >&2
        exit 1
      }
      echo "run $shape $n $pipeline rss_kb $(tail -1 "$work/rss")" >>"$log"
      # Rows "  0.1234 ( 12.3%)  Name": seconds, then the name.
      awk -v prefix="time $shape $n $pipeline" \
        '/^ +[0-9.]+ +\( *[0-9.]+%\) +/ { seconds = $1;
           sub(/^.*%\) +/, ""); print prefix, seconds, $0 }' \
        "$timing" >>"$log"
    done
    if [[ $n == 10000 ]]; then
      start="$(date +%s.%N)"
      "$hal_exec" --check-lowering "$file" >/dev/null 2>"$work/exec" || {
        echo "error: hal-exec --check-lowering $file failed:" >&2
        cat "$work/exec" >&2
        exit 1
      }
      end="$(date +%s.%N)"
      echo "exec $shape $n $(awk -v s="$start" -v e="$end" \
        'BEGIN { printf "%.2f", e - s }')" >>"$log"
    fi
    rm -f "$file"
  done
done
python3 "$here/measure.py" "$log"
