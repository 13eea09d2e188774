# ===- mutation_common.py - Shared parts of the mutation tests -*- python -*-===#
#
# Part of the streamhal project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""What mutate_exec.py and mutate_lowering.py share: running a tool on a
mutant and telling an abnormal end (a crash, a hang, an odd exit status)
from an ordinary one. Each script then judges exit status 1 its own way."""

import subprocess

# Text that marks an abort or undefined behaviour, whatever the exit status.
CRASH_MARKERS = [
    "LLVM ERROR", "Stack dump", "PLEASE submit a bug report",
    "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
    "terminate called", "Assertion", "UNREACHABLE",
]


def run(command, timeout):
    """(exit status, stderr, timed out) of `command`; status None on timeout."""
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              errors="replace", timeout=timeout)
        return done.returncode, done.stderr, False
    except subprocess.TimeoutExpired as e:
        stderr = e.stderr or b""
        if isinstance(stderr, bytes):
            stderr = stderr.decode(errors="replace")
        return None, stderr, True


def abnormal_end(status, stderr, late):
    """Why a run ended abnormally (timeout, crash text, signal, an exit
    status other than 0 and 1), or None."""
    if late:
        return "timeout"
    for marker in CRASH_MARKERS:
        if marker in stderr:
            return f"'{marker}' in stderr"
    if status < 0:
        return f"signal {-status}"
    if status not in (0, 1):
        return f"exit status {status}"
    return None
