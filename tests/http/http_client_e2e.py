#!/usr/bin/env python3
"""End-to-end checks of mcpspec's client role over HTTP (`--client 'CMD {url}' --transport http`),
run by ctest (tests/http/CMakeLists.txt).

  http_client_e2e.py --bin BUILD_DIR --src SOURCE_DIR --client CMD --clean [--baseline FILE] PATHS...
      a correct client: no FAIL, WARN, ERROR or XPASS (--strict), at least one PASS
  http_client_e2e.py --bin BUILD_DIR --src SOURCE_DIR --client CMD --fault NAME --requirement REQ PATHS...
      tests/http/http_test_client.py with one injected fault: some FAIL (or WARN) must name REQ,
      and mcpspec must exit 1

CMD may use {src} (the source folder) besides mcpspec's own {url}. Reads the JSON report of the real
mcpspec binary, as a CI job would.
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
    ap.add_argument("--client", required=True)
    ap.add_argument("--transport", default="http")
    ap.add_argument("--clean", action="store_true")
    ap.add_argument("--fault")
    ap.add_argument("--requirement")
    ap.add_argument("--protocol", default="2025-11-25")
    ap.add_argument("--baseline")
    ap.add_argument("--timeout-ms", default="5000")
    ap.add_argument("--auth", action="store_true", help="protected endpoint and mock authorization server")
    ap.add_argument("--deadline", type=int, default=50, help="mcpspec's --deadline in seconds")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()

    client = a.client.replace("{src}", shlex.quote(a.src))
    if a.fault:
        client += " --fault " + shlex.quote(a.fault)
    cmd = [os.path.join(a.bin, "mcpspec"), "run", "--client", client + " {url}", "--transport", a.transport,
           "--cooperative", "--protocol", a.protocol, "--strict", "-j", "4", "--timeout-ms", a.timeout_ms,
           "--startup-timeout-ms", "15000", "--deadline", str(a.deadline)]
    if a.auth:
        cmd.append("--auth")
    code, results = run_mcpspec(cmd, a, a.deadline + 8, "mcpspec-http-client-e2e-")
    return judge(results, code, a, "client over " + a.transport)


if __name__ == "__main__":
    sys.exit(main())
