#!/usr/bin/env bash
#===- run.sh - barriers and slab bytes of model-shaped fragments -----------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/concurrency/run.sh [build-dir]
#
# Generates the model-shaped fragments of gen_models.py (plus the synthetic
# mix of bench/analysis/gen_fragments.py) and lowers each one
# three ways: `barriers=full`, `barriers=hazard` in program order, and
# `barriers=hazard` after `--flow-schedule-fragments` (waves). Every lowered
# module goes through `--hal-pack-allocations` and is checked by
# `--hal-verify-command-buffers` (the script stops on any race it reports);
# the figures come from `--hal-report`. The critical path is the number of
# waves: the longest chain of dependent commands, so no order can need fewer
# than (critical path - 1) barriers. Prints a markdown table.
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
hal_opt="$build/bin/hal-opt"
if [[ ! -x "$hal_opt" ]]; then
  echo "error: $hal_opt not found (pass the build directory)" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_models.py" "$work"
# The synthetic mix of bench/analysis (dispatch chains, splats, clones,
# slices, updates), 2,000 ops: not a model, a stress of the memory cost.
python3 "$here/../analysis/gen_fragments.py" --ops 2000 --shape mix \
  -o "$work/synthetic_mix_2000.mlir"

# figure NAME REPORT-LINE: the value of NAME=... in a hal-report line.
figure() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$2"; }

# lower FILE [SCHEDULE-FLAG] BARRIERS: prints the flow report line, then the
# final report line.
lower() {
  local file="$1" schedule="$2" barriers="$3"
  "$hal_opt" "$file" $schedule --hal-report=label=flow \
    --convert-flow-to-hal=barriers="$barriers" --canonicalize \
    --hal-verify-command-buffers --hal-pack-allocations --canonicalize \
    --hal-verify-command-buffers --hal-report=label=hal -o /dev/null 2>&1
}

echo "| model | commands | critical path | barriers full | barriers hazard | barriers hazard+waves | lower bound (path - 1) | slab bytes program order | slab bytes waves | slab growth |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for model in transformer_encoder_layer inception_block residual_stage plain_chain transformer_qkv_split synthetic_mix_2000; do
  file="$work/$model.mlir"
  full="$(lower "$file" "" full | grep 'hal-report\[hal\]')"
  hazard="$(lower "$file" "" hazard | grep 'hal-report\[hal\]')"
  scheduled="$(lower "$file" --flow-schedule-fragments hazard)"
  waves="$(figure waves "$(grep 'hal-report\[flow\]' <<<"$scheduled")")"
  scheduled="$(grep 'hal-report\[hal\]' <<<"$scheduled")"
  slab_order="$(figure slab-bytes "$hazard")"
  slab_waves="$(figure slab-bytes "$scheduled")"
  growth="$(python3 -c "print(f'{$slab_waves / $slab_order:.2f}x' if $slab_order else '-')")"
  echo "| $model | $(figure commands "$full") | $waves | $(figure barriers "$full") | $(figure barriers "$hazard") | $(figure barriers "$scheduled") | $((waves - 1)) | $slab_order | $slab_waves | $growth |"
done
