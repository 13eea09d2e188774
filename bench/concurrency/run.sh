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
# mix of bench/analysis/gen_fragments.py) and lowers each one three ways:
# barriers `full`, `hazard` in program order, and `hazard` after
# `--flow-schedule-fragments` (waves). Barriers are placed as the default
# pipeline does, by `--hal-place-barriers` after `--hal-pack-allocations`,
# and every lowered module is checked by `--hal-verify-command-buffers`
# (the script stops on any race it reports); the figures come from
# `--hal-report`. The critical path is the number of waves: the longest
# chain of dependent commands, so no order can need fewer than
# (critical path - 1) barriers. The exact minimum is hal-exec's
# `--report-barriers`: the fewest barriers the same command order needs on
# the concrete byte ranges of a run. A second table does the same on the
# generated differential set (utils/gen_fragments.py, seeds 1-3 and the
# view-heavy seed 4, 110 functions each), before (barriers placed by the
# conversion, before packing) and after (the default pipeline), split by
# whether a function's signature has dynamic shapes. Prints markdown.
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
    --convert-flow-to-hal=barriers=none --hal-pack-allocations --canonicalize \
    --hal-place-barriers=policy="$barriers" --hal-verify-command-buffers \
    --hal-report=label=hal -o /dev/null 2>&1
}

# exact FILE [SCHEDULE-PASS]: "recorded minimum" of hal-exec's run of the
# hazard lowering.
exact() {
  local file="$1" schedule="$2"
  python3 "$here/barrier_ratio.py" "$hal_exec" \
    "${schedule}flow-materialize-copy-on-write,convert-flow-to-hal{barriers=none},hal-pack-allocations,canonicalize,hal-place-barriers" \
    "$file" | cut -d' ' -f2,3
}

echo "| model | commands | critical path | barriers full | barriers hazard | exact minimum hazard | barriers hazard+waves | exact minimum hazard+waves | lower bound (path - 1) | slab bytes program order | slab bytes waves | slab growth |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
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
  read -r _ min_order <<<"$(exact "$file" "")"
  read -r _ min_waves <<<"$(exact "$file" flow-schedule-fragments,)"
  echo "| $model | $(figure commands "$full") | $waves | $(figure barriers "$full") | $(figure barriers "$hazard") | $min_order | $(figure barriers "$scheduled") | $min_waves | $((waves - 1)) | $slab_order | $slab_waves | $growth |"
done

# The cost of the device's alignment: the same models for a device with
# 256-byte binding offset and range alignments (Vulkan's portable bound).
echo
echo "| model | slab bytes, 16 | slab bytes, 256 | slab bytes waves, 16 | slab bytes waves, 256 | copies, 16 | copies, 256 | bytes copied, 16 | bytes copied, 256 |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for model in transformer_encoder_layer inception_block residual_stage plain_chain transformer_qkv_split synthetic_mix_2000; do
  file="$work/$model.mlir"
  aligned="$work/$model.align256.mlir"
  {
    echo 'module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 256, max_buffer_range = 1073741824, min_buffer_range_alignment = 256>}>]} {'
    cat "$file"
    echo '}'
  } > "$aligned"
  row="| $model |"
  declare -A line=()
  for variant in 16 256 waves16 waves256; do
    f="$file"; [[ $variant == *256 ]] && f="$aligned"
    schedule=""; [[ $variant == waves* ]] && schedule=--flow-schedule-fragments
    line[$variant]="$(lower "$f" "$schedule" hazard | grep 'hal-report\[hal\]')"
  done
  row+=" $(figure slab-bytes "${line[16]}") | $(figure slab-bytes "${line[256]}") |"
  row+=" $(figure slab-bytes "${line[waves16]}") | $(figure slab-bytes "${line[waves256]}") |"
  row+=" $(figure copies "${line[16]}") | $(figure copies "${line[256]}") |"
  row+=" $(figure bytes-copied "${line[16]}") | $(figure bytes-copied "${line[256]}") |"
  echo "$row"
  unset line
done

# The generated set: recorded against exact minimum, before and after.
repo="$here/../.."
for seed in 1 2 3; do
  python3 "$repo/utils/gen_fragments.py" --seed=$seed --count=110 >"$work/gen$seed.mlir"
done
python3 "$repo/utils/gen_fragments.py" --seed=4 --count=110 --views >"$work/views.mlir"
before="flow-materialize-copy-on-write,convert-flow-to-hal,hal-pack-allocations,canonicalize"
after="flow-materialize-copy-on-write,convert-flow-to-hal{barriers=none},hal-pack-allocations,canonicalize,hal-place-barriers"
# row LABEL "all R M static R M dynamic R M": one table row.
row() {
  python3 - "$1" $2 <<'PY'
import sys
label, v = sys.argv[1], sys.argv[2:]
cells = []
for i in (1, 4, 7):
    r, m = int(v[i]), int(v[i + 1])
    cells.append(f"{r} / {m} ({r / m:.3f}x)" if m else f"{r} / {m}")
print(f"| {label} | " + " | ".join(cells) + " |")
PY
}
echo
echo "| generated set, barriers placed | all: recorded / exact minimum | static shapes | dynamic shapes |"
echo "|---|---:|---:|---:|"
gen=("$work/gen1.mlir" "$work/gen2.mlir" "$work/gen3.mlir")
row "seeds 1-3, before packing (conversion)" "$(python3 "$here/barrier_ratio.py" "$hal_exec" "$before" "${gen[@]}")"
row "seeds 1-3, after packing (default)" "$(python3 "$here/barrier_ratio.py" "$hal_exec" "$after" "${gen[@]}")"
row "views seed 4, before packing (conversion)" "$(python3 "$here/barrier_ratio.py" "$hal_exec" "$before" "$work/views.mlir")"
row "views seed 4, after packing (default)" "$(python3 "$here/barrier_ratio.py" "$hal_exec" "$after" "$work/views.mlir")"
