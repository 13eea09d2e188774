#!/usr/bin/env bash
# Builds everything and runs every test: lit regression tests, the
# GoogleTest suites (through lit), the hal-lsp-server smoke test and the
# downstream example built against an installed streamhal; counts at the end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
configure
ninja -C "$BUILD_DIR" -j "$JOBS" check-streamhal
