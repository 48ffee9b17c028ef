#!/usr/bin/env python3
"""Runs one HTTP server for the length of one command.

  with_server.py [--path /mcp] [--startup-s 30] -- SERVER_CMD... ::: COMMAND...

SERVER_CMD runs in its own process group with PORT set to a free loopback port; once
127.0.0.1:PORT accepts connections, COMMAND runs with every "{url}" replaced by
http://127.0.0.1:PORT<path>. Afterwards the server's whole process group is stopped (SIGTERM,
then SIGKILL) and reaped. Exits with COMMAND's status (2 when the server never listened).
"""
import os
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from loopback import free_port  # noqa: E402


def main(argv):
    path, startup = "/mcp", 30.0
    while argv and argv[0].startswith("--") and argv[0] != "--":
        opt = argv.pop(0)
        if opt == "--path":
            path = argv.pop(0)
        elif opt == "--startup-s":
            startup = float(argv.pop(0))
        else:
            print("with_server.py: unknown option " + opt, file=sys.stderr)
            return 2
    if not argv or argv[0] != "--" or ":::" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    sep = argv.index(":::")
    server, command = argv[1:sep], argv[sep + 1:]
    port = free_port()
    env = dict(os.environ, PORT=str(port))
    srv = subprocess.Popen(server, env=env, start_new_session=True, stdin=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + startup
        while True:
            if srv.poll() is not None:
                print("with_server.py: the server exited (%s) before listening" % srv.returncode, file=sys.stderr)
                return 2
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    print("with_server.py: the server did not listen on 127.0.0.1:%d within %.0f s" % (port, startup),
                          file=sys.stderr)
                    return 2
                time.sleep(0.05)
        url = "http://127.0.0.1:%d%s" % (port, path)
        return subprocess.call([c.replace("{url}", url) for c in command])
    finally:
        for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(srv.pid, sig)
            except ProcessLookupError:
                break
            try:
                srv.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
