#!/usr/bin/env bash
#===- run.sh - Packing benchmark: every strategy on every data file -------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See https://llvm.org/LICENSE.txt for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Usage: bench/packing/run.sh [BUILD_DIR]
#
# Runs hal-pack with in-order, greedy and optimal over every CSV file of the
# packing data set and prints a markdown table. BUILD_DIR defaults to ./build
# (then to <repo>/build). Environment:
#   STREAMHAL_PACKING_DATA        data directory (default bench/packing/data)
#   STREAMHAL_PACKING_TIME_LIMIT  optimal's budget per file in seconds (default 10)
#
#===----------------------------------------------------------------------===#

set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-./build}"
if [[ ! -x "$build/bin/hal-pack" && -x "$repo/build/bin/hal-pack" ]]; then
  build="$repo/build"
fi
hal_pack="$build/bin/hal-pack"
if [[ ! -x "$hal_pack" ]]; then
  echo "run.sh: error: $hal_pack not found; build the hal-pack target first" >&2
  exit 1
fi
data="${STREAMHAL_PACKING_DATA:-$repo/bench/packing/data}"
if [[ ! -d "$data" ]]; then
  echo "run.sh: error: data directory $data not found" >&2
  exit 1
fi
time_limit="${STREAMHAL_PACKING_TIME_LIMIT:-10}"

# The iree_* files come from hal.allocator.pack, whose lifetimes are closed;
# the MiniMalloc, SOMAS and IOPDDL files are half-open (see the data README).
lifetimes_of() {
  case "$(basename "$1")" in
    iree_*) echo closed ;;
    *) echo half-open ;;
  esac
}

# Extracts key=value from a summary line.
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

echo "| file | n | lifetimes | lower bound | in-order slab (ratio) | greedy slab (ratio) | optimal slab (ratio) | proven optimal | in-order ms | greedy ms | optimal ms |"
echo "|---|---:|---|---:|---:|---:|---:|:---:|---:|---:|---:|"
for file in "$data"/*.csv; do
  name="$(basename "$file")"
  lifetimes="$(lifetimes_of "$file")"
  count=$(($(grep -cv '^[[:space:]]*$' "$file") - 1))
  row="| $name | $count | $lifetimes"
  times=""
  lower_bound=""
  proven=""
  for strategy in in-order greedy optimal; do
    summary="$("$hal_pack" "$file" --strategy="$strategy" \
      --lifetimes="$lifetimes" --time-limit="$time_limit")"
    lower_bound="$(field lower_bound "$summary")"
    if [[ $strategy == in-order ]]; then
      row="$row | $lower_bound"
    fi
    row="$row | $(field slab "$summary") ($(field ratio "$summary"))"
    times="$times | $(field time_ms "$summary")"
    proven="$(field proven_optimal "$summary")"
  done
  echo "$row | $proven$times |"
done
