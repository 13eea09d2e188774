#!/usr/bin/env bash
#===- compare.sh - the same output from two builds, on generated inputs ---===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/compile/compare.sh OLD_BUILD NEW_BUILD [seeds]
#
# A change that makes a pass faster must not change what it decides. This
# runs both builds' hal-opt on the same inputs under several pipelines and
# reports every input whose output or diagnostics differ:
#   inputs     the examples, bench/compile shapes at 2,000 dispatches, and
#              `seeds` (default 20) modules of each random generator
#              (utils/gen_fragments.py with and without --views and
#              alignment 256, utils/gen_valid_fragments.py)
#   pipelines  --streamhal-lower-to-hal (hazard and full barriers, blocking
#              submission), --convert-flow-to-hal, each followed by
#              --hal-verify-command-buffers, and the verifier on unpacked
#              command buffers, with and without --flow-schedule-fragments
# Exits 1 when anything differs.
#
#===------------------------------------------------------------------------===#

set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
old="${1:?old build dir}"
new="${2:?new build dir}"
seeds="${3:-20}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

inputs=("$repo"/examples/*.mlir)
for shape in chain tied fan tree wide mix transformer gpt fragments; do
  python3 "$here/gen.py" --shape "$shape" --dispatches 2000 \
    -o "$work/$shape.mlir"
  inputs+=("$work/$shape.mlir")
done
for ((seed = 1; seed <= seeds; ++seed)); do
  python3 "$repo/utils/gen_fragments.py" --seed "$seed" > "$work/random-$seed.mlir"
  python3 "$repo/utils/gen_fragments.py" --seed "$seed" --views \
    --alignment 256 > "$work/views-$seed.mlir"
  python3 "$repo/utils/gen_valid_fragments.py" --seed "$seed" \
    -o "$work/valid-$seed.mlir"
  inputs+=("$work/random-$seed.mlir" "$work/views-$seed.mlir"
           "$work/valid-$seed.mlir")
done

pipelines=(
  "--streamhal-lower-to-hal --hal-verify-command-buffers"
  "--streamhal-lower-to-hal=barriers=full --hal-verify-command-buffers"
  "--streamhal-lower-to-hal=submission=blocking"
  "--flow-schedule-fragments --streamhal-lower-to-hal --hal-verify-command-buffers"
  "--convert-flow-to-hal --hal-verify-command-buffers"
  "--flow-schedule-fragments --convert-flow-to-hal --canonicalize --hal-verify-command-buffers"
)
# Without barriers the verifier reports a race per command: only on the
# small random modules (a diagnostic prints the whole function's names).
race_pipeline="--convert-flow-to-hal=barriers=none --hal-verify-command-buffers"

differences=0
runs=0
for input in "${inputs[@]}"; do
  these=("${pipelines[@]}")
  [[ $(basename "$input") == *-[0-9]*.mlir ]] && these+=("$race_pipeline")
  for pipeline in "${these[@]}"; do
    # shellcheck disable=SC2086
    "$old/bin/hal-opt" "$input" $pipeline > "$work/old.out" 2>&1
    old_status=$?
    # shellcheck disable=SC2086
    "$new/bin/hal-opt" "$input" $pipeline > "$work/new.out" 2>&1
    new_status=$?
    runs=$((runs + 1))
    if [[ $old_status != "$new_status" ]] ||
       ! cmp -s "$work/old.out" "$work/new.out"; then
      echo "differs: $(basename "$input") with $pipeline" \
           "(exit $old_status -> $new_status)"
      differences=$((differences + 1))
    fi
  done
done
echo "$runs runs, $differences differ"
[[ $differences == 0 ]]
