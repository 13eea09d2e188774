#!/usr/bin/env bash
#===- run.sh - transient memory per call: per fragment, per function -------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/memory/run.sh [build-dir] [generated-count]
#
# Runs every program of bench/memory/gen.py (the concurrency models with
# one fragment per op, four stacked encoder and decoder layers, the
# three-fragment example) and the generated multi-fragment set
# (utils/gen_cow_fragments.py --classes=pipeline,program, default 40
# functions) through `hal-exec --check-lowering --report-memory` with
# `--streamhal-lower-to-hal{submission=S transients=T}` for S in blocking,
# async and T in fragment (a slab per fragment, an allocation per value
# passed between fragments) and function (one slab per call). Every run
# must match the flow level. Prints one markdown table (table.py): per
# program and submission mode the allocations per call and the transient
# bytes of each plan, the lower bound (the most transient bytes holding a
# value a later command reads, at one command, measured by hal-exec on the
# per-function lowering) and the per-function plan's ratio to it.
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${1:-$repo/build}"
count="${2:-40}"
source "$here/../common.sh"
hal_exec="$(bench_tool "$build" hal-exec)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen.py" "$work"
python3 "$repo/utils/gen_cow_fragments.py" --seed=1 --count="$count" \
  --classes=pipeline,program >"$work/generated_set.mlir"

log="$work/log"
for file in "$work"/*.mlir; do
  program="$(basename "$file" .mlir)"
  for submission in blocking async; do
    for transients in fragment function; do
      pipeline="streamhal-lower-to-hal{submission=$submission transients=$transients}"
      out="$work/out"
      if ! "$hal_exec" "$file" "--check-lowering=$pipeline" --report-memory \
        >"$out" 2>&1; then
        echo "error: hal-exec $program --check-lowering=$pipeline failed:" >&2
        cat "$out" >&2
        exit 1
      fi
      if grep -q "error" "$out"; then
        echo "error: hal-exec $program --check-lowering=$pipeline:" >&2
        cat "$out" >&2
        exit 1
      fi
      # "@f: memory allocations=A allocated=B transient=T live-peak=P"
      sed -n "s/^@\([^:]*\): memory /$program $submission $transients \1 /p" \
        "$out" >>"$log"
    done
  done
done
python3 "$here/table.py" "$log"
