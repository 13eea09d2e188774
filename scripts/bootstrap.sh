#!/usr/bin/env bash
# Installs what is missing, builds every tool (hal-opt, hal-exec, hal-pack,
# hal-lsp-server), and lowers the shipped example.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
configure
ninja -C "$BUILD_DIR" -j "$JOBS" streamhal-tools
"$BUILD_DIR/bin/hal-opt" "$STREAMHAL_ROOT/examples/mlp.mlir" \
  --convert-flow-to-hal --canonicalize
