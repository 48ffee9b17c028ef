#!/usr/bin/env python3
"""A host of `mcpspec proxy` (stdio) that misbehaves in one chosen way, for the hostile-target
tests (hostile_check.py): `hostile_host.py MODE PROXY-COMMAND...` starts the proxy command and
plays the host on its stdin and stdout. Whatever the mode, it ends by closing the proxy's stdin and
waiting for the proxy (a hostile server behind it may never exit on its own: the proxy must end it);
it prints `the proxy ended (exit N) ...` and exits with the proxy's code. Standard library only;
nothing big is held in memory.

  polite     initialize, reads the answers for a moment, closes stdin, reads to the end
  flood      junk lines and pings at full speed for 2 s while reading
  no-read    initialize and pings for 2 s, never reads the proxy's stdout
  huge-line  a line of up to 1 GiB (no newline) streamed for at most 2 s while reading
  exit-mid   half a message, then closes both pipes as a host that died"""
import errno
import fcntl
import os
import subprocess
import sys
import threading
import time

INIT = (b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        b'"capabilities":{},"clientInfo":{"name":"hostile-host","version":"1"}}}\n')
PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'


def write_for(fd, chunk, seconds, total=None):
    """Writes `chunk` again and again without blocking for `seconds` (or `total` bytes);
    returns the bytes written. A full pipe is waited out in 10 ms steps."""
    until, sent = time.monotonic() + seconds, 0
    while time.monotonic() < until and (total is None or sent < total):
        try:
            sent += os.write(fd, chunk)
        except BlockingIOError:
            time.sleep(0.01)
        except OSError as e:
            if e.errno == errno.EPIPE:
                break
            raise
    return sent


def reader(stream, counted):
    """Reads the proxy's stdout to the end, counting bytes."""
    while True:
        data = stream.read1(1 << 16)
        if not data:
            return
        counted[0] += len(data)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: hostile_host.py polite|flood|no-read|huge-line|exit-mid PROXY-COMMAND...")
    mode, argv = sys.argv[1], sys.argv[2:]
    started = time.monotonic()
    proxy = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    fd = proxy.stdin.fileno()
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    counted = [0]
    reading = None
    if mode != "no-read" and mode != "exit-mid":
        reading = threading.Thread(target=reader, args=(proxy.stdout, counted), daemon=True)
        reading.start()
    sent = write_for(fd, INIT, 0.5, total=len(INIT))
    if mode == "polite":
        time.sleep(1)
        sent += write_for(fd, PING, 0.5, total=len(PING))
        time.sleep(1)
    elif mode == "flood":
        sent += write_for(fd, b"not json " * 450 + b"\n" + PING, 2)
    elif mode == "no-read":
        sent += write_for(fd, PING * 100, 2)
    elif mode == "huge-line":
        sent += write_for(fd, b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"', 0.5, total=56)
        sent += write_for(fd, b"a" * (1 << 20), 2, total=1 << 30)
    elif mode == "exit-mid":
        sent += write_for(fd, b'{"jsonrpc":"2.0","id":1,"meth', 0.5, total=29)
        proxy.stdout.close()
    proxy.stdin.close()
    code = proxy.wait()
    if reading:
        reading.join(timeout=5)
    print(f"the proxy ended (exit {code}) after {time.monotonic() - started:.1f} s; the host sent {sent} bytes "
          f"and read {counted[0]}", file=sys.stderr)
    sys.exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
