#!/usr/bin/env python3
"""The default-targets file (`mcpspec run --targets FILE`, scenarios/targets.json by default).

A file with a server target and a client target runs both, each with its own role, suites and
report (out.<name>.json); each malformed entry is refused with exit status 2 and a message that
names the entry and what is wrong with it.

  targets_file.py BINDIR SOURCEDIR
"""
import json
import os
import subprocess
import sys
import tempfile


def run(bindir, targets, *extra):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "targets.json")
        with open(path, "w") as f:
            json.dump(targets, f)
        cmd = [os.path.join(bindir, "mcpspec"), "run", "--targets", path, "-j", "2", "--timeout-ms", "3000",
               "--report", "json:" + os.path.join(d, "out.json"), *extra]
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=240)
        reports = {}
        for name in os.listdir(d):
            if name.startswith("out.") and name.endswith(".json"):
                with open(os.path.join(d, name)) as f:
                    reports[name[4:-5]] = json.load(f)
        return done.returncode, done.stdout, reports


def main():
    bindir, src = sys.argv[1], sys.argv[2]
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    both = {"targets": [
        {"name": "srv", "server": "${bindir}/mcpspec-testserver", "scenarios": ["scenarios/mcp/ping"]},
        {"name": "cli", "client": "${bindir}/mcpspec-testclient -- {server}",
         "scenarios": ["scenarios/mcp/client/lifecycle"]},
    ]}
    code, out, reports = run(bindir, both)
    check(code == 0, f"server + client targets: exit {code}, expected 0\n{out}")
    check(set(reports) == {"srv", "cli"}, f"expected reports out.srv.json and out.cli.json, got {sorted(reports)}")
    for name, role in (("srv", "mcp/ping/"), ("cli", "mcp-client/")):
        ids = [r["id"] for r in reports.get(name, {}).get("results", [])]
        check(ids and all(i.startswith(role) for i in ids), f"target {name}: expected only {role}* results, got {ids}")
        verdicts = {r["verdict"] for r in reports.get(name, {}).get("results", [])}
        check(verdicts and verdicts <= {"pass", "skip"}, f"target {name}: verdicts {verdicts}")

    bad = [
        ({"targets": [{"name": "x"}]}, "/targets/0: needs exactly one of"),
        ({"targets": [{"name": "x", "server": "a", "client": "b {server}"}]}, "/targets/0: needs exactly one of"),
        ({"targets": [{"name": "x", "server": ""}]}, "/targets/0/server: must be a non-empty string"),
        ({"targets": [{"name": "x", "server": "a", "transport": "carrier-pigeon"}]}, "/targets/0/transport"),
        ({"targets": [{"name": "x", "server": "a", "scenarios": [3]}]}, "/targets/0/scenarios"),
        ({"targets": [{"name": "x", "server": "a", "cooperative": "yes"}]}, "/targets/0/cooperative"),
        ({"targets": [{"server": "a"}]}, "/targets/0: needs a \"name\""),
        ({"targets": {}}, "needs a \"targets\" array"),
    ]
    for doc, expected in bad:
        code, out, _ = run(bindir, doc)
        check(code == 2 and expected in out, f"{json.dumps(doc)}: expected exit 2 and '{expected}', got {code}:\n{out}")

    if failures:
        print("\n".join(failures))
        return 1
    print("targets file: server and client targets run in their roles; malformed entries refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
