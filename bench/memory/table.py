#!/usr/bin/env python3
# ===- table.py - the table of the memory benchmark ------------------------=== #
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===----------------------------------------------------------------------=== #
"""Turns the log of bench/memory/run.sh into its markdown table.

Log lines: PROGRAM SUBMISSION PLAN FUNCTION allocations=A (results R,
transients S) allocated=B transient=T live-peak=P. A program of several
functions (the generated set) is one row: bytes summed over its functions,
allocations their maximum.
"""

import collections
import sys


def main():
    rows = collections.OrderedDict()  # (program, submission) -> plan -> sums
    for line in open(sys.argv[1]):
        fields = line.split()
        program, submission, plan = fields[:3]
        text = " ".join(fields[4:]).replace("(", "").replace(")", "")
        text = text.replace(",", "").replace("results ", "results=")
        text = text.replace("transients ", "transients=")
        values = dict(field.split("=") for field in text.split())
        cell = rows.setdefault((program, submission), {}).setdefault(
            plan, {"functions": 0, "allocations": 0, "slabs": 0,
                   "transient": 0, "peak": 0})
        cell["functions"] += 1
        cell["allocations"] = max(cell["allocations"],
                                  int(values["allocations"]))
        cell["slabs"] = max(cell["slabs"], int(values["transients"]))
        cell["transient"] += int(values["transient"])
        cell["peak"] += int(values["live-peak"])

    print("| program | functions | submission | per fragment: allocations "
          "(transient) | transient bytes | per function: allocations "
          "(transient) | transient bytes | lower bound | per function / "
          "bound |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for (program, submission), plans in rows.items():
        fragment, function = plans["fragment"], plans["function"]
        bound = function["peak"]
        ratio = function["transient"] / bound if bound else 1.0
        worst = max(worst, ratio)
        print(f"| {program} | {function['functions']} | {submission} | "
              f"{fragment['allocations']} ({fragment['slabs']}) | "
              f"{fragment['transient']:,} | "
              f"{function['allocations']} ({function['slabs']}) | "
              f"{function['transient']:,} | "
              f"{bound:,} | {ratio:.2f} |")
    print()
    print(f"Worst per-function ratio to the lower bound: {worst:.2f}. "
          "Allocations are the most one call made, results included (in "
          "parentheses: those holding transients, device-only allocations "
          "no result lives in); transient bytes are their bytes.")


if __name__ == "__main__":
    main()
