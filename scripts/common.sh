#!/usr/bin/env bash
# Shared by bootstrap.sh and check.sh: install what is missing, configure.
set -euo pipefail

STREAMHAL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$STREAMHAL_ROOT/build}"
JOBS="${JOBS:-$(nproc)}"

# The last line: the Vulkan device of hal-exec and its tests (lavapipe, the
# loader and headers, the validation layers, glslangValidator).
PACKAGES=(cmake ninja-build g++ python3 libgtest-dev
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          mesa-vulkan-drivers libvulkan-dev vulkan-validationlayers
          glslang-tools spirv-tools)

# Installs the Debian packages that are not installed yet (needs root).
# STREAMHAL_SKIP_APT=1 skips this (for a non-Debian MLIR).
install_missing_packages() {
  [ "${STREAMHAL_SKIP_APT:-0}" = "1" ] && return 0
  local missing=()
  for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "streamhal: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y --no-install-recommends "${missing[@]}" \
    || { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "${missing[@]}"; }
}

# Configures the build tree (Release, Ninja, Debian's MLIR 22 and lit by
# default; pass -DMLIR_DIR=... and -DLLVM_EXTERNAL_LIT=... in CMAKE_ARGS for
# another MLIR).
configure() {
  cmake -G Ninja -S "$STREAMHAL_ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    ${CMAKE_ARGS:-}
}
