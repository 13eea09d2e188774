#!/usr/bin/env python3
# ===- check_work.py - the work per command stays bounded ------------------=== #
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------=== #
"""Checks `--test-work-counters` lines of one pipeline on a small and a large
input of one shape: no counter may grow faster than n log n.

    check_work.py SMALL LARGE

Each file holds the stderr of `hal-opt ... --test-work-counters`, whose line
reads `work-counters: commands=N NAME=W ...`. For every counter, the work per
command of the large input is compared with that of the small one: linear
work gives the same figure, n log n work a ratio of log(n_large) /
log(n_small), quadratic work the ratio of the command counts. The check fails
when the ratio exceeds twice the n log n ratio (plus a little for counters
near zero), naming the counter; nothing is timed, so it holds on any machine.
"""

import math
import sys


def read(path):
    with open(path) as f:
        for line in f:
            if line.startswith("work-counters:"):
                fields = dict(item.split("=") for item in line.split()[1:])
                return {name: int(value) for name, value in fields.items()}
    sys.exit(f"check_work.py: no work-counters line in {path}")


def main():
    small, large = read(sys.argv[1]), read(sys.argv[2])
    n_small, n_large = small.pop("commands"), large.pop("commands")
    if n_small < 100 or n_large < 4 * n_small:
        sys.exit(f"check_work.py: too few commands ({n_small}, {n_large})")
    allowed = 2 * math.log(n_large) / math.log(n_small)
    failed = False
    for name, work in large.items():
        per_small = (small.get(name, 0) + n_small) / n_small
        per_large = (work + n_large) / n_large
        growth = per_large / per_small
        status = "ok" if growth <= allowed else "GROWS"
        print(f"{name}: {per_small:.2f} -> {per_large:.2f} per command "
              f"(x{growth:.2f}, at most x{allowed:.2f}) {status}")
        failed |= growth > allowed
    if failed:
        sys.exit(f"check_work.py: work per command grows with the input "
                 f"({n_small} -> {n_large} commands): a pass compares "
                 f"pairs again")


if __name__ == "__main__":
    main()
