#!/usr/bin/env python3
"""Runs a command and fails when its peak resident memory exceeds a limit.

    max_rss.py LIMIT_MIB COMMAND [ARGS...]

The command's stdout and stderr pass through. Exits with the command's exit
status when the peak RSS (ru_maxrss of the child) stays within LIMIT_MIB,
otherwise prints the peak to stderr and exits 1. A command killed by a
signal also exits 1 (lit's `not` must not mistake an abort for an error).
"""

import resource
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: max_rss.py LIMIT_MIB COMMAND [ARGS...]")
    limit_mib = float(sys.argv[1])
    status = subprocess.call(sys.argv[2:])
    # Linux reports ru_maxrss in KiB.
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if peak_mib > limit_mib:
        print(f"max_rss.py: peak RSS {peak_mib:.0f} MiB exceeds {limit_mib:.0f} MiB",
              file=sys.stderr)
        sys.exit(1)
    if status < 0:
        print(f"max_rss.py: killed by signal {-status}", file=sys.stderr)
        sys.exit(1)
    sys.exit(status)


if __name__ == "__main__":
    main()
