#!/usr/bin/env bash
#===- record.sh - run a benchmark and keep its numbers, dated -------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/record.sh BENCHMARK [build-dir] [script arguments...]
#
# BENCHMARK is one of
#   analysis       bench/analysis/run.sh      -> bench/analysis/results.md
#   compile        bench/compile/run.sh       -> bench/compile/results.md
#   conversion     bench/conversion/run.sh    -> bench/conversion/results.md
#   concurrency    bench/concurrency/run.sh   -> bench/concurrency/results.md
#   views          bench/views/run.sh         -> bench/views/results.md
#   submission     bench/submission/run.sh    -> bench/submission/results.md
#   packing        bench/packing/run.sh       -> bench/packing/results.md
#   packing-scale  bench/packing/scale.sh     -> bench/packing/scale-results.md
#   device         bench/device/run.sh        -> bench/device/results.md
#   memory         bench/memory/run.sh        -> bench/memory/results.md
#   replay         bench/replay/run.sh        -> bench/replay/results.md
#
# Runs the benchmark script and writes what it printed (a markdown table) to
# its results file, under a header saying when, on which commit and machine,
# and at what load it was measured. The README and the docs link to these
# files instead of quoting numbers, so every measured figure has one place,
# and rerunning this script is how it changes. The results file is written
# only when the script succeeds.
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"

if [[ $# -lt 1 ]]; then
  sed -n '10,23s/^# \{0,1\}//p' "$0" >&2
  exit 1
fi
benchmark="$1"
shift
case "$benchmark" in
analysis | compile | conversion | concurrency | views | packing | submission | device | memory | replay)
  script="$here/$benchmark/run.sh"
  results="$here/$benchmark/results.md"
  ;;
packing-scale)
  script="$here/packing/scale.sh"
  results="$here/packing/scale-results.md"
  ;;
*)
  echo "record.sh: error: unknown benchmark '$benchmark' (expected analysis," \
    "compile, conversion, concurrency, views, packing, packing-scale," \
    "submission, device, memory or replay)" >&2
  exit 1
  ;;
esac
build="${1:-$repo/build}"
[[ $# -gt 0 ]] && shift

# The 1-minute load average: other work on the machine slows timed runs.
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown; }

commit="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
# Earlier results files do not count as changes to what is measured.
if ! git -C "$repo" diff --quiet HEAD -- . \
  ':(exclude,glob)bench/**/*results.md' 2>/dev/null; then
  commit="$commit plus uncommitted changes"
fi
date="$(date -u '+%Y-%m-%d %H:%M UTC')"
load_before="$(load)"
start="$(date +%s)"
table="$(mktemp)"
trap 'rm -f "$table"' EXIT
"$script" "$build" "$@" >"$table"
seconds=$(($(date +%s) - start))
load_after="$(load)"

relative="${script#"$repo"/}"
{
  echo "<!-- Written by bench/record.sh $benchmark; rerun it instead of editing. -->"
  echo "# \`$relative\` results"
  echo
  echo "- measured: $date, commit $commit"
  echo "- command: \`$relative $(basename "$build")${*:+ $*}\` ($seconds s)"
  echo "- machine: $(nproc) cores, load average $load_before at the start and" \
    "$load_after at the end (timings scale with it)"
  echo
  cat "$table"
} >"$results"
echo "record.sh: wrote ${results#"$repo"/}"
# README blocks that copy this file's table follow it (bench/sync_readme.py).
python3 "$here/sync_readme.py" "$repo/README.md" "${results#"$repo"/}"
