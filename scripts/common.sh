#!/usr/bin/env bash
# Shared by bootstrap.sh and check.sh: install what is missing, configure.
set -euo pipefail

STREAMHAL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$STREAMHAL_ROOT/build}"
JOBS="${JOBS:-$(nproc)}"

# The last line: the Vulkan device of hal-exec and its tests (lavapipe, the
# loader and headers, the validation layers, glslangValidator).
PACKAGES=(cmake ninja-build g++ python3 libgtest-dev clang-format
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

# Fails, naming each file, when a tracked C++ file is not formatted as
# .clang-format says (Debian 12's clang-format; -Werror makes any change an
# error). STREAMHAL_SKIP_FORMAT=1 skips it (another clang-format formats
# differently).
check_format() {
  [ "${STREAMHAL_SKIP_FORMAT:-0}" = "1" ] && return 0
  local files
  mapfile -t files < <(git -C "$STREAMHAL_ROOT" ls-files -- \
    'include/*.h' 'lib/*.h' 'lib/*.cpp' 'tools/*.h' 'tools/*.cpp' \
    'unittests/*.h' 'unittests/*.cpp' 'examples/*.cpp' 'bench/*.cpp')
  [ ${#files[@]} -eq 0 ] && return 0
  (cd "$STREAMHAL_ROOT" && clang-format --dry-run -Werror "${files[@]}") || {
    echo "streamhal: the files above are not clang-formatted;" \
         "run clang-format -i on them" >&2
    return 1
  }
  echo "streamhal: ${#files[@]} C++ files formatted"
}

# Configures the build tree (Release, Ninja, Debian's MLIR 22 and lit by
# default; pass -DMLIR_DIR=... and -DLLVM_EXTERNAL_LIT=... in CMAKE_ARGS for
# another MLIR).
configure() {
  cmake -G Ninja -S "$STREAMHAL_ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    ${CMAKE_ARGS:-}
}

# The same tree with assertions enabled in streamhal's own code (and in the
# MLIR and LLVM header code inlined into it): Release without its -DNDEBUG,
# at -O1 to build faster. Debian's libMLIR itself has none.
ASSERT_BUILD_DIR="${ASSERT_BUILD_DIR:-$STREAMHAL_ROOT/build-assert}"
configure_assert() {
  cmake -G Ninja -S "$STREAMHAL_ROOT" -B "$ASSERT_BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
    ${CMAKE_ARGS:-}
}
