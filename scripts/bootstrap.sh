#!/usr/bin/env bash
# Installs what is missing, builds the tools (hal-opt, hal-pack,
# hal-lsp-server), and lowers the shipped example.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
configure
ninja -C "$BUILD_DIR" -j "$JOBS" hal-opt hal-pack hal-lsp-server
"$BUILD_DIR/bin/hal-opt" "$STREAMHAL_ROOT/examples/mlp.mlir" \
  --convert-flow-to-hal --canonicalize
