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
    ap.add_argument("--client", required=True)
    ap.add_argument("--transport", default="http")
    ap.add_argument("--clean", action="store_true")
    ap.add_argument("--fault")
    ap.add_argument("--requirement")
    ap.add_argument("--protocol", default="2025-11-25")
    ap.add_argument("--baseline")
    ap.add_argument("--timeout-ms", default="5000")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()

    client = a.client.replace("{src}", shlex.quote(a.src))
    if a.fault:
        client += " --fault " + shlex.quote(a.fault)
    with tempfile.TemporaryDirectory(prefix="mcpspec-http-client-e2e-") as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [os.path.join(a.bin, "mcpspec"), "run", "--client", client + " {url}", "--transport", a.transport,
               "--cooperative", "--protocol", a.protocol, "--strict", "-j", "4", "--timeout-ms", a.timeout_ms,
               "--startup-timeout-ms", "15000", "--deadline", "50", "--report", "json:" + report]
        if a.baseline:
            cmd += ["--baseline", os.path.join(a.src, a.baseline)]
        cmd += [p if os.path.isabs(p) else os.path.join(a.src, p) for p in a.paths]
        print("$", " ".join(shlex.quote(c) for c in cmd), flush=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=58)
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
            print("the client got %d non-passing result(s), %d passes, exit %d" % (len(bad), len(passed), proc.returncode))
            return 1
        print("client over %s: %d passed, no FAIL/WARN/ERROR/XPASS" % (a.transport, len(passed)))
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
