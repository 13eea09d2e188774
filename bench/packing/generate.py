#!/usr/bin/env python3
#===- generate.py - Synthetic packing instances from a seed ---------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See https://llvm.org/LICENSE.txt for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Usage: generate.py N [SEED [ORDER]] > out.csv  (used by scale.sh)
#
# Writes N buffers as `id,lower,upper,size` with half-open lifetimes over
# N time steps. ORDER is the order of the rows: `sorted` (the default, by
# start: the order a compiler emits them), `reversed` (by decreasing start)
# or `shuffled` (a random permutation drawn from SEED). Ids follow the
# sorted order, so the three files hold the same buffers:
#   - start: uniform in [0, N);
#   - duration: log-uniform in [1, max(1, N / 10)] (most buffers short-lived,
#     a few spanning a tenth of the run), clipped at N;
#   - size: log-uniform in [16 B, 16 MiB].
# The same N and SEED always give the same file.
#
#===----------------------------------------------------------------------===#

import math
import random
import sys


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit("usage: generate.py N [SEED [sorted|reversed|shuffled]]")
    count = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) >= 3 else 1
    order = sys.argv[3] if len(sys.argv) == 4 else "sorted"
    if order not in ("sorted", "reversed", "shuffled"):
        sys.exit(f"generate.py: unknown order '{order}'")
    rng = random.Random(seed)
    max_duration = max(1, count // 10)
    rows = []
    for _ in range(count):
        start = rng.randrange(count)
        duration = int(math.exp(rng.uniform(0, math.log(max_duration))))
        end = min(count, start + max(1, duration))
        size = int(math.exp(rng.uniform(math.log(16), math.log(16 << 20))))
        rows.append((start, end, size))
    rows.sort(key=lambda row: row[0])
    lines = [f"{index},{start},{end},{size}\n"
             for index, (start, end, size) in enumerate(rows)]
    if order == "reversed":
        lines.reverse()
    elif order == "shuffled":
        # A generator of its own, so that the buffers do not depend on the
        # order asked for.
        random.Random(seed + 1_000_003).shuffle(lines)
    out = sys.stdout
    out.write("id,lower,upper,size\n")
    out.writelines(lines)


if __name__ == "__main__":
    main()
