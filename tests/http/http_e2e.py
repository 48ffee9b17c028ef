#!/usr/bin/env python3
"""End-to-end checks of mcpspec's HTTP transports, run by ctest (tests/http/CMakeLists.txt).

  http_e2e.py --bin BUILD_DIR --src SOURCE_DIR --clean [--server-args ARGS] [--transport T] [--protocol V] PATHS...
      our HTTP test server, correct: no FAIL, WARN or ERROR (--strict)
  http_e2e.py --bin BUILD_DIR --src SOURCE_DIR --fault NAME --requirement REQ [--protocol V] PATHS...
      one injected HTTP-level fault: some FAIL (or WARN) must name REQ, and mcpspec must exit 1

Reads the JSON report of the real mcpspec binary, as a CI job would.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile


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
    with tempfile.TemporaryDirectory(prefix="mcpspec-http-e2e-") as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [os.path.join(a.bin, "mcpspec"), "run", "--server", " ".join(shlex.quote(s) for s in server),
               "--transport", a.transport, "--port-env", "PORT", "--protocol", a.protocol, "--strict", "-j", "4",
               "--startup-timeout-ms", "10000", "--deadline", "240", "--report", "json:" + report]
        if a.baseline:
            cmd += ["--baseline", os.path.join(a.src, a.baseline)]
        cmd += [p if os.path.isabs(p) else os.path.join(a.src, p) for p in a.paths]
        print("$", " ".join(shlex.quote(c) for c in cmd), flush=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=280)
        print("\n".join(proc.stdout.splitlines()[:300]))
        if not os.path.exists(report):
            print("no JSON report written (exit %d)" % proc.returncode)
            return 1
        with open(report) as f:
            results = json.load(f)["results"]

    bad = [r for r in results if r["verdict"] in ("fail", "warn", "error", "xpass")]
    passed = [r for r in results if r["verdict"] == "pass"]
    if a.clean:
        for r in bad:
            print("UNEXPECTED %s: %s %s" % (r["verdict"], r["id"], r.get("reason", "")))
        if bad or proc.returncode != 0 or not passed:
            print("the correct HTTP server got %d non-passing result(s), %d passes, exit %d"
                  % (len(bad), len(passed), proc.returncode))
            return 1
        print("correct HTTP server (%s, %s): %d passed, no FAIL/WARN/ERROR" % (a.transport, a.protocol, len(passed)))
        return 0
    for r in bad:
        if r["verdict"] not in ("fail", "warn"):
            continue
        for f in r.get("findings", []):
            if a.requirement in f.get("requirements", []):
                if proc.returncode != 1:
                    print("the fault was found but mcpspec exited %d instead of 1" % proc.returncode)
                    return 1
                print("caught %s: %s %s names %s: %s" % (a.fault, r["verdict"], r["id"], a.requirement, f["message"]))
                return 0
    print("NOT CAUGHT: fault %s: no FAIL/WARN names %s (exit %d)" % (a.fault, a.requirement, proc.returncode))
    return 1


if __name__ == "__main__":
    sys.exit(main())
