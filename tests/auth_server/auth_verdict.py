#!/usr/bin/env python3
"""Runs `mcpspec run --auth` against mcpspec-auth-testserver at {url} and judges the JSON report.

  auth_verdict.py --mcpspec BIN --url URL --protocol V [--fault NAME --faults faults.json]
  auth_verdict.py --mcpspec BIN --url URL --protocol V --peer --expect ID=VERDICT ... [--host H]
  auth_verdict.py --mcpspec BIN --server CMD --protocol V[,V...] --faults faults.json --mock-as

Without --fault: the correct server must pass under --strict (exit 0, no FAIL, WARN or ERROR).
With --fault: a result must fail (or warn, for a SHOULD fault) with a finding naming one of the
fault's AUTH rows, and the run must exit non-zero under --strict.
With --mock-as (mock-AS mode: mcpspec starts CMD trusting its own authorization server and mints
the tokens): the correct server at each version of --protocol, then every fault of faults.json
with mode "mock-as" at its version, one mcpspec run each, all judged as above in this one process.
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


def run_mcpspec(a, target, protocol, strict, tokens):
    """One `mcpspec run --auth`; returns (exit code, results) or (exit code, None) without a report."""
    with tempfile.TemporaryDirectory(prefix="mcpspec-auth-") as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [a.mcpspec, "run"] + target + ["--auth", "--protocol", protocol, "--timeout-ms", "5000",
                                             "--report", "json:" + report] + (["--strict"] if strict else []) + tokens
        print("$", " ".join(cmd), flush=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        print(proc.stdout[:20000])
        if not os.path.exists(report):
            print("FAIL: no JSON report (exit %d)" % proc.returncode)
            return proc.returncode, None
        with open(report) as f:
            return proc.returncode, json.load(f)["results"]


def judge_correct(code, results, protocol):
    bad = [r for r in results if r["verdict"] in ("fail", "warn", "error", "xpass")]
    for r in bad:
        print("unexpected %s: %s %s" % (r["verdict"], r["id"], r.get("reason", "")))
    if bad or code != 0:
        print("FAIL: the correct server does not pass under --strict at %s (exit %d)" % (protocol, code))
        return 1
    print("PASS: %d checks at %s, none failing" % (len(results), protocol))
    return 0


def judge_fault(code, results, fault):
    wanted = set(fault["requirements"])
    verdicts = ("fail",) if fault["level"] == "MUST" else ("fail", "warn")
    caught = [r["id"] for r in results if r["verdict"] in verdicts and
              any(wanted & set(fd.get("requirements", [])) for fd in r.get("findings", []))]
    if caught and code != 0:
        print("PASS: fault %s caught by %s naming %s" % (fault["name"], ", ".join(caught), " or ".join(sorted(wanted))))
        return 0
    print("FAIL: fault %s not caught as %s naming %s (exit %d)" % (fault["name"], "/".join(verdicts), sorted(wanted),
                                                                     code))
    return 1


def mock_as_mode(a):
    """The correct server at each version, then each mock-as fault, every one started by mcpspec."""
    target = ["--transport", "http", "--port-env", "PORT", "--server"]
    failures = 0
    for protocol in a.protocol.split(","):
        code, results = run_mcpspec(a, target + [a.server], protocol, True, [])
        failures += 1 if results is None else judge_correct(code, results, protocol)
        # Proof the minted tokens were used: the control and the minted-token rows passed, not skipped.
        got = {r["id"]: r["verdict"] for r in results or []}
        # (Both judge rows of 2025-06-18 onwards only.)
        for must_pass in ["auth/rs/valid-token", "auth/rs/minted-tokens"] if protocol >= "2025-06-18" else []:
            if got.get(must_pass) != "pass":
                print("FAIL: %s is %s at %s, not pass" % (must_pass, got.get(must_pass), protocol))
                failures += 1
    with open(a.faults) as f:
        faults = [x for x in json.load(f)["faults"] if x.get("mode") == "mock-as"]
    for fault in faults:
        code, results = run_mcpspec(a, target + [a.server + " --fault " + fault["name"]], fault["protocol"], True, [])
        failures += 1 if results is None else judge_fault(code, results, fault)
    print("%s: %d of %d runs as expected" % ("PASS" if not failures else "FAIL",
                                             len(a.protocol.split(",")) + len(faults) - failures,
                                             len(a.protocol.split(",")) + len(faults)))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcpspec", required=True)
    ap.add_argument("--url")
    ap.add_argument("--server")
    ap.add_argument("--mock-as", action="store_true")
    ap.add_argument("--protocol", required=True)
    ap.add_argument("--fault")
    ap.add_argument("--faults")
    ap.add_argument("--peer", action="store_true")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--host")
    a = ap.parse_args()
    if a.mock_as:
        return mock_as_mode(a)
    if a.host:
        a.url = a.url.replace("127.0.0.1", a.host)
    code, results = run_mcpspec(a, ["--url", a.url], a.protocol, not a.peer, [] if a.peer else TOKENS)
    if results is None:
        return 1
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
        return judge_correct(code, results, a.protocol)
    with open(a.faults) as f:
        fault = next(x for x in json.load(f)["faults"] if x["name"] == a.fault)
    return judge_fault(code, results, fault)


if __name__ == "__main__":
    sys.exit(main())
