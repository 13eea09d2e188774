#!/usr/bin/env bash
# Checks the formatting, builds everything and runs every test: lit
# regression tests, the GoogleTest suites (through lit), the hal-lsp-server
# smoke test and the downstream example built against an installed
# streamhal; counts at the end. Then builds and runs the suite once more
# with assertions enabled (build-assert/; STREAMHAL_SKIP_ASSERT=1 skips it).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
check_format
configure
ninja -C "$BUILD_DIR" -j "$JOBS" check-streamhal
if [ "${STREAMHAL_SKIP_ASSERT:-0}" != "1" ]; then
  echo "streamhal: the suite again with assertions enabled ($ASSERT_BUILD_DIR)"
  configure_assert
  ninja -C "$ASSERT_BUILD_DIR" -j "$JOBS" check-streamhal
fi
