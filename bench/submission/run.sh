#!/usr/bin/env bash
#===- run.sh - host waits and submissions, blocking vs async --------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: bench/submission/run.sh [build-dir]
#
# Lowers the functions of gen.py (chains, independent branches, and chains
# with a host load between fragments, of 1, 4 and 16 fragments) with
# `--streamhal-lower-to-hal=submission=blocking` and with the default
# `submission=async`, checks both against the flow level with
# `hal-exec --check-lowering --orders=4` (the executor's timeline checks
# every fence and host wait), and prints the static figures per call
# (count.py). No wall time: this machine has no device that runs the
# lowered programs (the Vulkan device is separate work).
#
#===------------------------------------------------------------------------===#

set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build}"
hal_opt="$build/bin/hal-opt"
hal_exec="$build/bin/hal-exec"
for tool in "$hal_opt" "$hal_exec"; do
  if [[ ! -x "$tool" ]]; then
    echo "error: $tool not found (pass the build directory)" >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen.py" >"$work/submission.mlir"
functions=$(grep -c "^func.func" "$work/submission.mlir")
for submission in blocking async; do
  "$hal_opt" "$work/submission.mlir" \
    "--streamhal-lower-to-hal=submission=$submission" >"$work/$submission.mlir"
  matched=$("$hal_exec" "$work/submission.mlir" --orders=4 \
    "--check-lowering=streamhal-lower-to-hal{submission=$submission}" |
    grep -c "the HAL level matches")
  if [[ "$matched" != "$functions" ]]; then
    echo "error: $matched of $functions functions match with" \
      "submission=$submission" >&2
    exit 1
  fi
done
python3 "$here/count.py" "$work/blocking.mlir" "$work/async.mlir"
echo
echo "Every function matches the flow level under both policies" \
  "(hal-exec --check-lowering --orders=4). Wall time per call is not" \
  "measured: no device here runs the lowered programs."
