"""Whether a process has ended, read from /proc, for tests that check what a kill left behind.

A process that has exited counts as gone even while it is an unreaped zombie (of init, say): it
never runs on. A signal is delivered asynchronously, so a test waits for the end with a deadline
instead of reading the state once.
"""
import time


def gone(pid):
    """True if pid no longer runs: no /proc entry (reaped, possibly just now) or a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")  # the name in (...) may hold spaces


def wait_until_gone(pid, deadline_s):
    """True once pid is gone; False if it still runs after deadline_s seconds."""
    end = time.monotonic() + deadline_s
    while not gone(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True
