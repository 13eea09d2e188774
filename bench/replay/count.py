#!/usr/bin/env python3
#===- count.py - host recording work per call of a lowered module ---------===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===------------------------------------------------------------------------===#
#
# Usage: count.py LOWERED.mlir
#
# Prints `recording-ops=R memoized-ops=M submissions=S table-entries=T` for a
# module printed by hal-opt: R the command buffer ops the host runs on every
# call (outside any hal.device.memoize body: creates, begins, commands,
# pushes, barriers, ends), M those inside memoize bodies (run once per
# device), S the indirect submissions and T the binding table slots plus
# uniforms they supply per call.
#
#===------------------------------------------------------------------------===#
import re
import sys


def count(text):
    recording = memoized = submissions = entries = 0
    depth = 0  # nesting of hal.device.memoize bodies, by braces
    for line in text.splitlines():
        stripped = line.strip()
        if depth:
            depth += line.count("{") - line.count("}")
        if "hal.device.memoize<" in stripped:
            depth = 1
            continue
        if re.search(r"\bhal\.command_buffer\.", stripped):
            if depth:
                memoized += 1
            else:
                recording += 1
        if "hal.device.queue.execute.indirect<" in stripped:
            submissions += 1
            for group in re.findall(r"(?:bindings|uniforms)\(\[([^\]]*)\]", stripped):
                entries += len([v for v in group.split(",") if v.strip()])
    return recording, memoized, submissions, entries


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: count.py LOWERED.mlir\n")
        return 1
    with open(sys.argv[1]) as f:
        r, m, s, t = count(f.read())
    print(f"recording-ops={r} memoized-ops={m} submissions={s} table-entries={t}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
