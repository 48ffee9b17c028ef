#!/usr/bin/env python3
"""End-to-end checks of mcpspec's HTTP transports, run by ctest (tests/http/CMakeLists.txt).

  http_e2e.py --bin BUILD_DIR --src SOURCE_DIR --clean [--server-args ARGS] [--transport T] [--protocol V] PATHS...
      our HTTP test server, correct: no FAIL, WARN or ERROR (--strict)
  http_e2e.py --bin BUILD_DIR --src SOURCE_DIR --fault NAME --requirement REQ [--protocol V] PATHS...
      one injected HTTP-level fault: some FAIL (or WARN) must name REQ, and mcpspec must exit 1

Reads the JSON report of the real mcpspec binary, as a CI job would.
"""
import argparse
import os
import shlex
import sys

from e2e_verdict import judge, run_mcpspec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--clean", action="store_true")
    ap.add_argument("--fault")
    ap.add_argument("--requirement")
    ap.add_argument("--server-args", default="")
    ap.add_argument("--transport", default="http")
    ap.add_argument("--protocol", default="2025-11-25")
    ap.add_argument("--baseline")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()

    server = [os.path.join(a.bin, "mcpspec-httpserver"), "--backend", os.path.join(a.bin, "mcpspec-testserver")]
    if a.transport == "ws":
        server = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ws_server.py"),
                  "--backend", os.path.join(a.bin, "mcpspec-testserver")]
    server += shlex.split(a.server_args)
    if a.transport == "sse":
        server.append("--legacy")
    if a.fault:
        server += ["--fault", a.fault]
    cmd = [os.path.join(a.bin, "mcpspec"), "run", "--server", " ".join(shlex.quote(s) for s in server),
           "--transport", a.transport, "--port-env", "PORT", "--protocol", a.protocol, "--strict", "-j", "4",
           "--startup-timeout-ms", "10000", "--deadline", "240"]
    code, results = run_mcpspec(cmd, a, 280, "mcpspec-http-e2e-")
    return judge(results, code, a, "correct HTTP server (%s, %s)" % (a.transport, a.protocol))


if __name__ == "__main__":
    sys.exit(main())
