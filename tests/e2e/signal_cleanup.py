#!/usr/bin/env python3
"""Ctrl-C or a CI timeout must not leave the servers mcpspec started running.

Starts `mcpspec run` against a "server" that ignores stdin and never answers (so mcpspec is still
waiting for it), once over stdio and once as a served HTTP process, sends SIGTERM or SIGINT to
mcpspec, and checks that the server process is gone: closing its stdin alone would not end it.

  signal_cleanup.py BINDIR SCENARIO
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from process_state import wait_until_gone  # noqa: E402


def case(bindir, scenario, extra, sig):
    with tempfile.TemporaryDirectory() as d:
        pidfile = os.path.join(d, "pid")
        server = f"sh -c 'echo $$ > {pidfile}; exec sleep 300'"
        cmd = [os.path.join(bindir, "mcpspec"), "run", "--server", server, *extra, scenario]
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while not os.path.exists(pidfile) or os.path.getsize(pidfile) == 0:
            if time.monotonic() > deadline or p.poll() is not None:
                p.kill()
                return f"the server never started (mcpspec exit {p.poll()})"
            time.sleep(0.05)
        time.sleep(0.3)
        with open(pidfile) as f:
            pid = int(f.read())
        p.send_signal(sig)
        try:
            rc = p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            os.kill(pid, signal.SIGKILL)
            return "mcpspec did not end within 10 s of the signal"
        if not wait_until_gone(pid, 3):
            os.kill(pid, signal.SIGKILL)
            return f"the server (pid {pid}) still ran after mcpspec ended ({rc})"
        if rc != -sig:
            return f"mcpspec ended with {rc}, not by the signal ({-sig})"
        return None


def main():
    bindir, scenario = sys.argv[1], sys.argv[2]
    failures = []
    for name, extra, sig in [("stdio, SIGTERM", ["--startup-timeout-ms", "60000"], signal.SIGTERM),
                             ("served HTTP, SIGINT", ["--transport", "http", "--port-env", "PORT",
                                                      "--startup-timeout-ms", "60000"], signal.SIGINT)]:
        why = case(bindir, scenario, extra, sig)
        print(f"{'FAIL' if why else 'PASS'}: {name}" + (f": {why}" if why else ""))
        if why:
            failures.append(name)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
