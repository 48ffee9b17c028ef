#!/usr/bin/env python3
"""A wait for a message that can no longer come ends at once, over every transport.

The target is the test server, reached over stdio, over WebSocket (tests/http/ws_server.py in
front of it), and over Streamable HTTP and legacy HTTP+SSE (mcpspec-httpserver in front of it).
The scenario kills the target's process group (over the network transports: the server itself),
then sends a ping that it allows 10 minutes to answer. The ping must FAIL saying the target went
away or could not be reached, and the run must end long before those 10 minutes: this script's
own deadline per run (100 s, and ctest's TIMEOUT) is what catches a wait that runs to its end; no
duration is asserted.

  gone_ends_waits.py BINDIR SOURCEDIR
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

SCENARIO = {
    "id": "test/gone-ends-waits",
    "title": "a wait for an answer from a target that is gone ends at once",
    "role": "server",
    "requirements": ["BASE-06"],
    "level": "MUST",
    "steps": [
        {"kill": True, "note": "SIGKILL to the target's process group: over HTTP, SSE and WebSocket the server itself"},
        {"request": {"method": "ping"}, "within_ms": 600000},
    ],
}

# What the failure says about the target instead of "within 600000 ms" alone (runner gone_note).
GONE_WORDS = ("closed", "ended", "broke", "gone", "could not talk to the target")


def main():
    bindir, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    here = os.path.dirname(os.path.abspath(__file__))
    backend = os.path.join(bindir, "mcpspec-testserver")
    http = [os.path.join(bindir, "mcpspec-httpserver"), "--backend", backend]
    targets = {
        "stdio": ["--server", backend],
        "ws": ["--server", " ".join(shlex.quote(a) for a in [sys.executable, os.path.join(here, "ws_server.py"),
                                                             "--backend", backend]),
               "--transport", "ws", "--port-env", "PORT"],
        "http": ["--server", " ".join(shlex.quote(a) for a in http), "--transport", "http", "--port-env", "PORT"],
        "sse": ["--server", " ".join(shlex.quote(a) for a in http + ["--legacy"]), "--transport", "sse",
                "--port-env", "PORT", "--protocol", "2024-11-05"],
    }
    failures = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "gone.json")
        fixtures = os.path.join(src, "scenarios", "mcp", "fixtures")
        os.symlink(fixtures, os.path.join(d, "fixtures"))
        with open(path, "w") as fh:
            json.dump(SCENARIO, fh)
        for name, args in targets.items():
            report = os.path.join(d, name + ".json")
            cmd = [os.path.join(bindir, "mcpspec"), "run", "--report", "json:" + report, "-q",
                   "--startup-timeout-ms", "10000"] + args + [path]
            try:
                out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=100).stdout
            except subprocess.TimeoutExpired:
                failures.append("%s: the wait for an answer from a killed target did not end (100 s)" % name)
                continue
            if not os.path.exists(report):
                failures.append("%s: no report; mcpspec said: %s" % (name, out[-400:]))
                continue
            with open(report) as fh:
                results = json.load(fh)["results"]
            r = results[0] if results else {}
            text = " ".join(f["message"] for f in r.get("findings", [])) + " " + r.get("reason", "")
            if r.get("verdict") != "fail" or not any(w in text for w in GONE_WORDS):
                failures.append("%s: want FAIL saying the target is gone, got %s: %s" % (name, r.get("verdict"),
                                                                                       text.strip()[:300]))
    for f in failures:
        print("FAIL: " + f)
    print("%d passed, %d failed" % (len(targets) - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
