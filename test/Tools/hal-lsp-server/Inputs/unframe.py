"""Reads Content-Length framed LSP messages from stdin, as an editor would,
and prints one line per message (its id, and the server's name when it
names itself), then `end of stream`. A frame whose length does not match its
JSON body fails to parse and stops the script with an error."""

import json
import sys

data = sys.stdin.buffer.read()
count = 0
while data:
    header, separator, rest = data.partition(b"\r\n\r\n")
    if not separator:
        sys.exit("bytes after the last message: %r" % data)
    length = None
    for line in header.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length is None or length > len(rest):
        sys.exit("bad frame header: %r" % header)
    message = json.loads(rest[:length])
    data = rest[length:]
    count += 1
    line = "message %d: id %s" % (count, message.get("id"))
    info = (message.get("result") or {}).get("serverInfo")
    if info:
        line += ", serverInfo %s" % info["name"]
    print(line)
print("end of stream")
