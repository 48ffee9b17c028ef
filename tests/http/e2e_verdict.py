"""What the HTTP end-to-end scripts (http_e2e.py for servers, http_client_e2e.py for clients) share:
running the real mcpspec binary with a JSON report, and judging that report as a CI job would.
"""
import json
import os
import shlex
import subprocess
import tempfile


def run_mcpspec(cmd, a, timeout_s, prefix):
    """Runs mcpspec `cmd` (report, baseline and paths added here); returns (exit code, results), or
    (exit code, None) when no report was written. The first 300 output lines are printed."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = cmd + ["--report", "json:" + report]
        if a.baseline:
            cmd += ["--baseline", os.path.join(a.src, a.baseline)]
        cmd += [p if os.path.isabs(p) else os.path.join(a.src, p) for p in a.paths]
        print("$", " ".join(shlex.quote(c) for c in cmd), flush=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout_s)
        print("\n".join(proc.stdout.splitlines()[:300]))
        if not os.path.exists(report):
            print("no JSON report written (exit %d)" % proc.returncode)
            return proc.returncode, None
        with open(report) as f:
            return proc.returncode, json.load(f)["results"]


def stdio_rules_cited(results):
    """Findings of an HTTP, SSE or WebSocket run that cite a stdio rule: text that is no message was
    judged as if it had come on a stdout line (an answer labelled text/plain once read as STDIO-03)."""
    return [(r["id"], f) for r in results for f in r.get("findings", [])
            if any(q.startswith("STDIO-") for q in f.get("requirements", []))]


def judge(results, code, a, what):
    """--clean: no FAIL, WARN, ERROR or XPASS and at least one PASS. --fault: some FAIL or WARN names
    --requirement and mcpspec exited 1. Either way no finding cites a stdio rule. Returns the
    script's exit code."""
    if results is None:
        return 1
    misjudged = stdio_rules_cited(results)
    for rid, f in misjudged:
        print("STDIO RULE OVER %s: %s %s: %s" % (a.transport, rid, f["requirements"], f["message"]))
    if misjudged:
        return 1
    bad = [r for r in results if r["verdict"] in ("fail", "warn", "error", "xpass")]
    passed = [r for r in results if r["verdict"] == "pass"]
    if a.clean:
        for r in bad:
            print("UNEXPECTED %s: %s %s" % (r["verdict"], r["id"], r.get("reason", "")))
        if bad or code != 0 or not passed:
            print("%s got %d non-passing result(s), %d passes, exit %d" % (what, len(bad), len(passed), code))
            return 1
        print("%s: %d passed, no FAIL/WARN/ERROR/XPASS" % (what, len(passed)))
        return 0
    for r in bad:
        if r["verdict"] not in ("fail", "warn"):
            continue
        for f in r.get("findings", []):
            if a.requirement in f.get("requirements", []):
                if code != 1:
                    print("the fault was found but mcpspec exited %d instead of 1" % code)
                    return 1
                print("caught %s: %s %s names %s: %s" % (a.fault, r["verdict"], r["id"], a.requirement, f["message"]))
                return 0
    print("NOT CAUGHT: fault %s: no FAIL/WARN names %s (exit %d)" % (a.fault, a.requirement, code))
    return 1
