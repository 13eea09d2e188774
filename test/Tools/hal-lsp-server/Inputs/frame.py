"""Writes the `# MESSAGE: <json>` lines of a test file to stdout as LSP
messages, each with its Content-Length header, as an editor would."""

import sys

with open(sys.argv[1], encoding="utf-8") as test:
    for line in test:
        prefix = "# MESSAGE: "
        if line.startswith(prefix):
            body = line[len(prefix):].strip().encode("utf-8")
            sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body))
            sys.stdout.buffer.write(body)
