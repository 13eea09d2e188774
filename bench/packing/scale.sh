#!/usr/bin/env bash
#===- scale.sh - Packing benchmark: in-order and greedy at scale ----------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See https://llvm.org/LICENSE.txt for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Usage: bench/packing/scale.sh [BUILD_DIR]
#
# Generates synthetic instances with generate.py (10k, 20k, 50k, 100k and 1M
# buffers, seed 1; random lifetimes, sizes 16 B-16 MiB) into a temporary
# directory and prints a markdown table of hal-pack's in-order and greedy
# results on them. Environment:
#   STREAMHAL_PACKING_SIZES  buffer counts (default "10000 20000 50000 100000 1000000")
#   STREAMHAL_PACKING_SEED   generator seed (default 1)
#
#===----------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${1:-./build}"
if [[ ! -x "$build/bin/hal-pack" && -x "$repo/build/bin/hal-pack" ]]; then
  build="$repo/build"
fi
hal_pack="$build/bin/hal-pack"
if [[ ! -x "$hal_pack" ]]; then
  echo "scale.sh: error: $hal_pack not found; build the hal-pack target first" >&2
  exit 1
fi
sizes="${STREAMHAL_PACKING_SIZES:-10000 20000 50000 100000 1000000}"
seed="${STREAMHAL_PACKING_SEED:-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

echo "| n | lower bound | in-order slab (ratio) | greedy slab (ratio) | in-order ms | greedy ms |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  file="$work/synthetic-$n.csv"
  python3 "$here/generate.py" "$n" "$seed" >"$file"
  row="| $n"
  times=""
  for strategy in in-order greedy; do
    summary="$("$hal_pack" "$file" --strategy="$strategy" --lifetimes=half-open)"
    if [[ $strategy == in-order ]]; then
      row="$row | $(field lower_bound "$summary")"
    fi
    row="$row | $(field slab "$summary") ($(field ratio "$summary"))"
    times="$times | $(field time_ms "$summary")"
  done
  echo "$row$times |"
  rm -f "$file"
done
