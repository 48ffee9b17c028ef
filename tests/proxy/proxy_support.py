"""What the proxy's scripted tests share: reading the finding lines it wrote, and judging its trace
again offline with `mcpspec validate --trace`. Standard library only."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from loopback import free_port  # noqa: E402,F401  (re-exported for the proxy tests)

PREFIX = "mcpspec proxy: "
DEADLINE_S = 60


def finding_lines(path, keep_prefix=False):
    """The proxy's finding lines in `path` ([] when it wrote none)."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.startswith(PREFIX)]
    return lines if keep_prefix else [l[len(PREFIX):] for l in lines]


def offline(mcpspec, trace):
    """`validate --trace`: its exit status and its finding lines."""
    r = subprocess.run([mcpspec, "validate", "--trace", trace], capture_output=True, text=True, timeout=DEADLINE_S)
    return r.returncode, [l for l in r.stdout.splitlines() if l.startswith("#")]
