#!/usr/bin/env python3
# ===- count.py - Static submission figures of lowered functions -*- python -*-===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""Prints a markdown table comparing two lowerings of the same functions.

  count.py BLOCKING.mlir ASYNC.mlir

Per function and per call (each function is straight-line code, so the
static counts are what one call does): host blocking points (a
`hal.ex.submit_and_wait` or a `hal.fence.await`), submissions
(`submit_and_wait` or `hal.device.queue.execute`), fences created, and
fences in the submissions' wait lists.
"""

import re
import sys


def figures(path):
    """Function name -> (blocking points, submissions, fences, waits)."""
    result, name = {}, None
    for line in open(path):
        match = re.match(r"\s*func\.func @(\w+)", line)
        if match:
            name = match.group(1)
            result[name] = [0, 0, 0, 0]
            continue
        if name is None:
            continue
        counts = result[name]
        if "hal.ex.submit_and_wait" in line:
            counts[0] += 1
            counts[1] += 1
        if "hal.fence.await" in line:
            counts[0] += 1
        if "hal.device.queue.execute" in line:
            counts[1] += 1
            waits = re.search(r"wait\(\[([^\]]*)\]\)", line).group(1)
            counts[3] += len([w for w in waits.split(",") if w.strip()])
        if "hal.fence.create" in line:
            counts[2] += 1
    return result


def main():
    blocking, async_ = figures(sys.argv[1]), figures(sys.argv[2])
    print("| function | fragments | host blocking points, blocking | "
          "host blocking points, async | submissions, blocking | "
          "submissions, async | fences, async | waited fences, async |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, (points, submissions, _, _) in blocking.items():
        a = async_[name]
        fragments = name.rsplit("_", 1)[1]
        print(f"| {name} | {fragments} | {points} | {a[0]} | {submissions} | "
              f"{a[1]} | {a[2]} | {a[3]} |")


if __name__ == "__main__":
    main()
