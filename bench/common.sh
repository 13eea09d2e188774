#===- common.sh - shared by the benchmark scripts --------------------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#

# Prints the path of tool $2 of build directory $1, or fails with a message
# when it has not been built: `hal_opt="$(bench_tool "$build" hal-opt)"`.
bench_tool() {
  local path="$1/bin/$2"
  if [[ ! -x "$path" ]]; then
    echo "error: $path not found (pass the build directory)" >&2
    return 1
  fi
  echo "$path"
}
