#!/usr/bin/env python3
"""Runs the chant suite against each mutant of chant_mutant.py and checks it gets caught.

    run_mutants.py --mcpspec build-x/mcpspec --chant build-x/chant [--jobs 2] [MUTANT ...]

For every mutant, the scenarios listed for it must end FAIL or WARN (WARN where the broken
point is a SHOULD). The control mutant "none" runs the whole suite through the proxy and must
pass, so that a failure elsewhere can only come from the mutation. Exit 0 when every mutant is
caught, 1 otherwise, 2 on a usage or harness problem. Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from chant_mutant import MUTANTS  # noqa: E402


def run_suite(args, mutant, scenarios):
    proxy = f"python3 {os.path.join(HERE, 'chant_mutant.py')} {mutant} {os.path.abspath(args.chant)} mcp"
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [args.mcpspec, "run", "--server", proxy, "-j", str(args.jobs), "--report", f"json:{report}"]
        for s in scenarios:
            cmd += ["--filter", s]
        cmd.append(SUITE)
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not os.path.exists(report):
            sys.stderr.write(f"run_mutants.py: mcpspec wrote no report for {mutant}:\n{done.stdout}\n")
            sys.exit(2)
        with open(report) as f:
            return {r["id"]: r["verdict"] for r in json.load(f)["results"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mcpspec", required=True, help="the mcpspec executable")
    ap.add_argument("--chant", required=True, help="the chant executable the proxy wraps")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("mutants", nargs="*", help="mutants to run (default: all)")
    args = ap.parse_args()
    unknown = [m for m in args.mutants if m not in MUTANTS]
    if unknown:
        ap.error(f"unknown mutant(s): {', '.join(unknown)}; see chant_mutant.py --list")
    for path in (args.mcpspec, args.chant):
        if not os.access(path, os.X_OK):
            ap.error(f"{path} is not an executable file")

    escaped = []
    for mutant in args.mutants or list(MUTANTS):
        bug, scenarios = MUTANTS[mutant]
        if mutant == "none":
            verdicts = run_suite(args, mutant, ["chant/*"])
            bad = sorted(i for i, v in verdicts.items() if v != "pass")
            status = "ok" if not bad else "PROXY BROKE: " + ", ".join(bad)
            print(f"{mutant:28} {len(verdicts)} scenarios through the proxy: {status}")
            if bad:
                escaped.append(mutant)
            continue
        verdicts = run_suite(args, mutant, scenarios)
        passed = [s for s in scenarios if verdicts.get(s) not in ("fail", "warn")]
        caught = len(scenarios) - len(passed)
        print(f"{mutant:28} caught by {caught}/{len(scenarios)}" +
              ("" if not passed else "  NOT CAUGHT by: " + ", ".join(f"{s} ({verdicts.get(s, 'not run')})"
                                                                      for s in passed)))
        if passed:
            escaped.append(mutant)
    print("every mutant caught" if not escaped else f"{len(escaped)} mutant(s) escaped: {', '.join(escaped)}")
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
