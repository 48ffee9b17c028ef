#!/usr/bin/env python3
"""Runs `mcpspec run --auth` against mcpspec-auth-testserver at {url} and judges the JSON report.

  auth_verdict.py --mcpspec BIN --url URL --protocol V [--fault NAME --faults faults.json]
  auth_verdict.py --mcpspec BIN --url URL --protocol V --peer --expect ID=VERDICT ... [--host H]

Without --fault: the correct server must pass under --strict (exit 0, no FAIL, WARN or ERROR).
With --fault: a result must fail (or warn, for a SHOULD fault) with a finding naming one of the
fault's AUTH rows, and the run must exit non-zero under --strict.
With --peer (a real server, probe mode, not --strict): every --expect ID=VERDICT must hold (each a
deviation seen on the wire), and no other result may fail, warn or end in error. --host replaces
the 127.0.0.1 of URL (a server whose metadata names localhost).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# The token table the server is started with (tests/auth_server/CMakeLists.txt).
TOKENS = ["--auth-token", "good", "--auth-token-low-scope", "low",
          "--auth-token-other-audience", "other", "--auth-token-expired", "old"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcpspec", required=True)
    ap.add_argument("--url", required=True)
    ap.add_argument("--protocol", required=True)
    ap.add_argument("--fault")
    ap.add_argument("--faults")
    ap.add_argument("--peer", action="store_true")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--host")
    a = ap.parse_args()
    if a.host:
        a.url = a.url.replace("127.0.0.1", a.host)
    with tempfile.TemporaryDirectory(prefix="mcpspec-auth-") as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [a.mcpspec, "run", "--url", a.url, "--auth", "--protocol", a.protocol, "--timeout-ms", "5000",
               "--report", "json:" + report] + ([] if a.peer else ["--strict"] + TOKENS)
        print("$", " ".join(cmd), flush=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        print(proc.stdout[:20000])
        if not os.path.exists(report):
            print("FAIL: no JSON report (exit %d)" % proc.returncode)
            return 1
        with open(report) as f:
            results = json.load(f)["results"]
    if a.peer:
        expected = dict(e.split("=", 1) for e in a.expect)
        got = {r["id"]: r["verdict"] for r in results}
        wrong = ["%s: expected %s, got %s" % (i, v, got.get(i)) for i, v in expected.items() if got.get(i) != v]
        wrong += ["%s: unexpected %s" % (i, v) for i, v in got.items()
                  if i not in expected and v in ("fail", "warn", "error", "xpass")]
        for w in wrong:
            print(w)
        if wrong:
            print("FAIL: the peer's verdicts differ from the expected ones")
            return 1
        print("PASS: %d checks, the %d expected deviations seen" % (len(results), len(expected)))
        return 0
    if not a.fault:
        bad = [r for r in results if r["verdict"] in ("fail", "warn", "error", "xpass")]
        for r in bad:
            print("unexpected %s: %s %s" % (r["verdict"], r["id"], r.get("reason", "")))
        if bad or proc.returncode != 0:
            print("FAIL: the correct server does not pass under --strict at %s (exit %d)" % (a.protocol, proc.returncode))
            return 1
        print("PASS: %d checks at %s, none failing" % (len(results), a.protocol))
        return 0
    with open(a.faults) as f:
        fault = next(x for x in json.load(f)["faults"] if x["name"] == a.fault)
    wanted = set(fault["requirements"])
    verdicts = ("fail",) if fault["level"] == "MUST" else ("fail", "warn")
    caught = [r["id"] for r in results if r["verdict"] in verdicts and
              any(wanted & set(fd.get("requirements", [])) for fd in r.get("findings", []))]
    if caught and proc.returncode != 0:
        print("PASS: fault %s caught by %s naming %s" % (a.fault, ", ".join(caught), " or ".join(sorted(wanted))))
        return 0
    print("FAIL: fault %s not caught as %s naming %s (exit %d)" % (a.fault, "/".join(verdicts), sorted(wanted),
                                                                     proc.returncode))
    return 1


if __name__ == "__main__":
    sys.exit(main())
