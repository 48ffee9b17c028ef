#!/usr/bin/env python3
"""Copies JSON lines from stdin to stdout pretty-printed (indent 2), one message over several lines:
a server whose stdio output cannot be framed, for bench/default-run (--transports stdio-pretty).
Lines that are not JSON pass through unchanged."""
import json
import sys

for line in sys.stdin:
    try:
        print(json.dumps(json.loads(line), indent=2), flush=True)
    except ValueError:
        sys.stdout.write(line)
        sys.stdout.flush()
