#!/usr/bin/env python3
"""An MCP client under test (mcpspec run --client 'hostile_client.py MODE {server}') that misbehaves
in one chosen way, for the hostile-target tests (hostile_check.py). The words after MODE are the
server command mcpspec gives the client. Standard library only."""
import os
import subprocess
import sys
import time


def sleep_forever():
    while True:
        time.sleep(3600)


def start_server(argv):
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)


def hang(argv):
    # Starts its server (so the harness sees a connection), then never says a word.
    start_server(argv)
    sleep_forever()


def flood(argv):
    # Starts its server and writes to it at full speed: junk lines, then valid requests, forever.
    server = start_server(argv)
    junk = b"not json " * 450 + b"\n"
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    try:
        while True:
            server.stdin.write(junk + ping)
    except (BrokenPipeError, OSError):
        sleep_forever()  # the harness closed the connection: stay alive, it must still end us


def fork_and_exit(argv):
    # Leaves children and grandchildren (in its process group) running and exits at once.
    for _ in range(3):
        if os.fork() == 0:
            if os.fork() == 0:
                sleep_forever()
            sleep_forever()
    os._exit(0)


MODES = {"hang": hang, "flood": flood, "never-connect": lambda argv: sleep_forever(),
         "fork-and-exit": fork_and_exit}

if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in MODES:
        sys.exit("usage: hostile_client.py " + "|".join(MODES) + " SERVER-COMMAND...")
    MODES[sys.argv[1]](sys.argv[2:])
