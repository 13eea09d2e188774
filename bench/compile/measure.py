#!/usr/bin/env python3
# ===- measure.py - tables of the compile-time benchmark -------------------=== #
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------=== #
"""Turns the log bench/compile/run.sh writes into its two markdown tables.

Log lines:
  run SHAPE N PIPELINE rss_kb KB
  time SHAPE N PIPELINE SECONDS NAME    (one per --mlir-timing list row)
  exec SHAPE N SECONDS
"""

import collections
import sys

# Rows of --mlir-timing that are not passes.
NOT_PASSES = {"root", "Parser", "Output", "Rest", "Total"}


def main():
    times = collections.defaultdict(dict)  # (shape, n, pipeline) -> name -> s
    rss = {}
    exec_time = {}
    shapes, sizes = [], []
    with open(sys.argv[1]) as log:
        for line in log:
            fields = line.split()
            if fields[0] == "run":
                key = (fields[1], int(fields[2]), fields[3])
                rss[key] = int(fields[5])
            elif fields[0] == "time":
                key = (fields[1], int(fields[2]), fields[3])
                name = " ".join(fields[5:])
                times[key][name] = times[key].get(name, 0.0) + float(fields[4])
            elif fields[0] == "exec":
                exec_time[(fields[1], int(fields[2]))] = float(fields[3])
                continue
            else:
                continue
            if fields[1] not in shapes:
                shapes.append(fields[1])
            if int(fields[2]) not in sizes:
                sizes.append(int(fields[2]))

    def passes(key):
        return {k: v for k, v in times[key].items() if k not in NOT_PASSES}

    print("| shape | dispatches | parse (s) | lower: passes (s) | ratio | "
          "slowest pass (s) | RSS (MB) | + waves + verifier: passes (s) | "
          "ratio | check-lowering (s) |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    for shape in shapes:
        for n in sizes:
            lower, full = (shape, n, "lower"), (shape, n, "full")
            if lower not in times:
                continue
            parse = times[lower].get("Parser", 0.0)
            lower_total = sum(passes(lower).values())
            full_total = sum(passes(full).values())
            slowest = max(passes(lower).items(), key=lambda item: item[1])
            ratio = lambda total: f"{total / parse:.1f}" if parse else "n/a"
            check = exec_time.get((shape, n))
            print(f"| {shape} | {n:,} | {parse:.2f} | {lower_total:.2f} | "
                  f"{ratio(lower_total)} | {slowest[0]} {slowest[1]:.2f} | "
                  f"{rss[lower] / 1024:.0f} | {full_total:.2f} | "
                  f"{ratio(full_total)} | "
                  f"{'' if check is None else f'{check:.1f}'} |")

    if 10000 not in sizes or 100000 not in sizes:
        return
    print()
    names = []
    for shape in shapes:
        for name in passes((shape, 100000, "full")):
            if name not in names:
                names.append(name)
    short = [name.replace("Pass", "") for name in names]
    print("| seconds at 100k | " + " | ".join(short) + " | all passes |")
    print("|---|" + "---:|" * (len(names) + 1))
    for shape in shapes:
        large = passes((shape, 100000, "full"))
        cells = [f"{large[name]:.2f}" if name in large else ""
                 for name in names]
        print(f"| {shape} | " + " | ".join(cells) +
              f" | {sum(large.values()):.2f} |")
    print()
    print("| growth 10k -> 100k | " + " | ".join(short) + " | all passes |")
    print("|---|" + "---:|" * (len(names) + 1))
    for shape in shapes:
        small, large = passes((shape, 10000, "full")), passes(
            (shape, 100000, "full"))
        cells = []
        for name in names:
            if small.get(name, 0) > 0.005 and name in large:
                cells.append(f"{large[name] / small[name]:.1f}")
            else:
                cells.append("")  # under 5 ms at 10k: too small to time
        total = sum(large.values()) / max(sum(small.values()), 1e-9)
        print(f"| {shape} | " + " | ".join(cells) + f" | {total:.1f} |")


if __name__ == "__main__":
    main()
