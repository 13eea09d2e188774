#!/usr/bin/env python3
# ===- sync_readme.py - Copy benchmark tables into the README -*- python -*-===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""Keeps the README's copies of benchmark tables equal to their results files.

A block of the README between

    <!-- table from bench/NAME/results.md -->
    <!-- end of table -->

holds the first markdown table of that results file, after a line naming the
file and when it was measured (its `- measured:` and `- machine:` lines).
`bench/record.sh` rewrites the blocks of the file it has just written;
`--check` (run by test/Tools/readme.test) fails when any block differs from
what its file gives, so a copied table cannot go stale.

    sync_readme.py README.md [RESULTS...]   rewrite the blocks (all, or those
                                            of the given results files)
    sync_readme.py --check README.md        exit 1 naming each stale block
"""

import os
import re
import sys

BLOCK = re.compile(
    r"(<!-- table from (?P<path>bench/[^ ]*results\.md) -->\n)(?P<body>.*?)"
    r"(<!-- end of table -->)",
    re.S,
)


def block_body(root, path):
    """The text a block for `path` holds: where from, when, then the table."""
    with open(os.path.join(root, path), encoding="utf-8") as results:
        lines = results.read().splitlines()
    measured = next((l[len("- measured: "):] for l in lines
                     if l.startswith("- measured: ")), "an unknown date")
    machine = next((l[len("- machine: "):] for l in lines
                    if l.startswith("- machine: ")), "an unknown machine")
    table, started = [], False
    for line in lines:
        if line.startswith("|"):
            table.append(line)
            started = True
        elif started:
            break
    if not table:
        raise SystemExit("sync_readme.py: error: %s has no table" % path)
    # The machine line ends with a parenthesis of its own; drop it here.
    machine = re.sub(r" \(timings scale with it\)$", "", machine)
    return ("From [`%s`](%s), measured %s (%s):\n\n%s\n\n" %
            (path, path, measured, machine, "\n".join(table)))


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if not args:
        sys.stderr.write(__doc__)
        return 2
    readme_path, only = args[0], set(args[1:])
    root = os.path.dirname(os.path.abspath(readme_path))
    with open(readme_path, encoding="utf-8") as readme:
        text = readme.read()
    stale = []

    def replace(match):
        path = match.group("path")
        if only and path not in only:
            return match.group(0)
        body = block_body(root, path)
        if body != match.group("body"):
            stale.append(path)
        return match.group(1) + body + match.group(4)

    updated = BLOCK.sub(replace, text)
    if check:
        for path in stale:
            print("README.md: the table from %s differs from that file; "
                  "run bench/sync_readme.py README.md" % path)
        print("synced tables: %d" % len(BLOCK.findall(text)))
        return 1 if stale else 0
    if updated != text:
        with open(readme_path, "w", encoding="utf-8") as readme:
            readme.write(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
