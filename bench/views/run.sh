#!/usr/bin/env bash
#===- run.sh - copies, barriers and memory with and without views ----------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/views/run.sh [build-dir]
#
# Lowers every model of bench/concurrency/gen_models.py (plus the synthetic
# mix of bench/analysis/gen_fragments.py) four times: "before" with
# `--convert-flow-to-hal=copies=always` (every copy value semantics needs,
# made explicit by copy on write, and every slice and clone a copy) and
# "after" with the default (views and update sinks where nothing can tell),
# each in program order and after `--flow-schedule-fragments` ("sched").
# All use `barriers=hazard` and are packed by `--hal-pack-allocations`.
# Every lowered module goes through `--hal-verify-command-buffers` before
# and after packing, and each model is run by `hal-exec --check-lowering`
# against the flow level (same bytes, every batch in 2 orders); the script
# stops on anything either reports, and on a model whose scheduled lowering
# has more copies than the unscheduled one. The synthetic mix (which reads
# values after in-place writes: copy on write makes it a valid program) is
# verified, not run (too large for a quick check). "memory" is every
# allocation, slab and outputs. The figures come from `--hal-report`.
# Prints one markdown table for the default 16-byte alignments and one for
# a device with 256-byte alignments.
#
# If hal-opt has no `copies=` option yet, prints one column set (the
# current lowering) instead of before/after pairs.
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
python3 "$here/../concurrency/gen_models.py" "$work"
python3 "$here/../analysis/gen_fragments.py" --ops 2000 --shape mix \
  -o "$work/synthetic_mix_2000.mlir"
models=()
for file in "$work"/*.mlir; do
  name="$(basename "$file" .mlir)"
  [[ "$name" == synthetic_mix_2000 ]] || models+=("$name")
done
models+=(synthetic_mix_2000)

# Does this hal-opt know `copies=`? (An unknown option value is exit 1.)
if "$hal_opt" "$work/plain_chain.mlir" --convert-flow-to-hal=copies=always \
  -o /dev/null >/dev/null 2>&1; then
  variants=(always default always-sched default-sched)
else
  echo "note: hal-opt has no --convert-flow-to-hal=copies= option;" \
    "one column set (the current lowering)" >&2
  variants=(current)
fi

# lowering VARIANT: the --convert-flow-to-hal option spelling of a variant.
lowering() {
  case "$1" in
  always) echo "convert-flow-to-hal{copies=always}" ;;
  default | current) echo "convert-flow-to-hal" ;;
  always-sched) echo "flow-schedule-fragments,convert-flow-to-hal{copies=always}" ;;
  default-sched) echo "flow-schedule-fragments,convert-flow-to-hal" ;;
  esac
}

# report FILE VARIANT: the hal-report line of the lowered, packed module;
# stops the script on any other output (a verifier diagnostic) or failure.
report() {
  local file="$1" pipeline
  pipeline="builtin.module($(lowering "$2"),canonicalize,hal-verify-command-buffers,hal-pack-allocations,canonicalize,hal-verify-command-buffers,hal-report{label=hal})"
  local out status=0
  out="$("$hal_opt" "$file" --pass-pipeline="$pipeline" -o /dev/null 2>&1)" ||
    status=$?
  if [[ $status -ne 0 ]] || grep -qv '^hal-report\[hal\]' <<<"$out"; then
    echo "error: $(basename "$file") ($2): the lowering or the verifier reported:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "$out"
}

# check FILE VARIANT: hal-exec runs both levels and compares every result.
check() {
  local file="$1" out
  if ! out="$("$hal_exec" "$file" --orders=2 \
    "--check-lowering=$(lowering "$2"),hal-verify-command-buffers,hal-pack-allocations,canonicalize" 2>&1)"; then
    echo "error: $(basename "$file") ($2): hal-exec --check-lowering failed:" >&2
    echo "$out" >&2
    exit 1
  fi
}

# figure NAME REPORT-LINE: the value of NAME=... (with any +dynamic).
figure() { sed -n "s/.* $1=\([0-9]*\(+dynamic\)\{0,1\}\).*/\1/p" <<<"$2"; }

fields=(bytes-copied copies barriers slab-bytes allocated-bytes host-visible-bytes)
titles=("bytes copied" copies barriers "slab bytes" memory "host-visible bytes")
header="| model |"
rule="|---|"
for title in "${titles[@]}"; do
  if [[ ${#variants[@]} -eq 4 ]]; then
    header+=" $title before | $title after | $title before, sched | $title after, sched |"
    rule+="---:|---:|---:|---:|"
  else
    header+=" $title |"
    rule+="---:|"
  fi
done
# A copy of each model for a device with 256-byte binding and range
# alignments (Vulkan's portable bound of minStorageBufferOffsetAlignment):
# views and sinks at other offsets stay copies there.
for model in "${models[@]}"; do
  {
    echo 'module attributes {hal.device.targets = [#hal.device.target<"vmvx", {buffer_constraints = #hal.buffer_constraints<max_allocation_size = 1073741824, min_buffer_offset_alignment = 256, max_buffer_range = 1073741824, min_buffer_range_alignment = 256>}>]} {'
    cat "$work/$model.mlir"
    echo '}'
  } > "$work/$model.align256.mlir"
done

for alignment in 16 256; do
echo
echo "Binding offset and range alignment: $alignment bytes"
echo
echo "$header"
echo "$rule"
for model in "${models[@]}"; do
  file="$work/$model.mlir"
  [[ $alignment == 16 ]] || file="$work/$model.align$alignment.mlir"
  declare -A line=()
  for variant in "${variants[@]}"; do
    line[$variant]="$(report "$file" "$variant")"
    [[ "$model" == synthetic_mix_2000 ]] || check "$file" "$variant"
  done
  if [[ ${#variants[@]} -eq 4 ]]; then
    for pair in "always always-sched" "default default-sched"; do
      set -- $pair
      plain="$(figure copies "${line[$1]}")"
      sched="$(figure copies "${line[$2]}")"
      if [[ "${sched%%+*}" -gt "${plain%%+*}" ]]; then
        echo "error: $model: scheduling adds copies ($1: $plain, scheduled: $sched)" >&2
        exit 1
      fi
    done
  fi
  row="| $model |"
  for field in "${fields[@]}"; do
    for variant in "${variants[@]}"; do
      row+=" $(figure "$field" "${line[$variant]}") |"
    done
  done
  echo "$row"
  unset line
done
done
