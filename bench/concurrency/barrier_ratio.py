#!/usr/bin/env python3
#===- barrier_ratio.py - recorded vs exact-minimum barriers ----------------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: barrier_ratio.py HAL_EXEC PIPELINE FILE...
#
# Runs `hal-exec --check-lowering=PIPELINE --report-barriers` on each file
# and prints one line `all R M static R M dynamic R M`: the barriers the
# lowered functions recorded (R) and the fewest their command orders need
# on the concrete byte ranges (M), over all functions, over those whose
# signature has only static shapes, and over the others. Fails when a
# function does not run or its HAL level does not match.
#
#===------------------------------------------------------------------------===#

import re
import subprocess
import sys


def main():
    hal_exec, pipeline, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    totals = {'all': [0, 0], 'static': [0, 0], 'dynamic': [0, 0]}
    signature = re.compile(r'func\.func @(\w+)\(([^)]*)\)\s*->\s*([^{]*)\{')
    for path in files:
        with open(path) as f:
            text = f.read()
        dynamic = {m.group(1): '?' in m.group(2) + m.group(3)
                   for m in signature.finditer(text)}
        out = subprocess.run(
            [hal_exec, path, '--report-barriers',
             '--check-lowering=' + pipeline],
            capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f'barrier_ratio.py: hal-exec failed on {path}:\n'
                     + out.stderr[-2000:])
        for m in re.finditer(r'@(\w+): barriers recorded=(\d+) minimum=(\d+)',
                             out.stdout):
            kind = 'dynamic' if dynamic.get(m.group(1), True) else 'static'
            for key in ('all', kind):
                totals[key][0] += int(m.group(2))
                totals[key][1] += int(m.group(3))
    print(' '.join(f'{key} {r} {n}' for key, (r, n) in totals.items()))


if __name__ == '__main__':
    main()
