#!/usr/bin/env python3
"""Runs the chant suite against each mutant of chant_mutant.py and checks it gets caught.

    run_mutants.py --mcpspec build-x/mcpspec --chant build-x/chant [--jobs 2] [MUTANT ...]

For every mutant, the scenarios listed for it must end FAIL or WARN (WARN where the broken
point is a SHOULD). The control mutant "none" runs the whole suite through the proxy and must
pass, so that a failure elsewhere can only come from the mutation. Exit 0 when every mutant is
caught, 1 otherwise, 2 on a usage or harness problem. Standard library only.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from chant_mutant import MUTANTS  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(SUITE)), "tests", "support"))
from mutant_runs import judge_control, judge_mutant, suite_verdicts, verdict_of_all  # noqa: E402


def run_suite(args, mutant, scenarios):
    proxy = f"python3 {os.path.join(HERE, 'chant_mutant.py')} {mutant} {os.path.abspath(args.chant)} mcp"
    return suite_verdicts(args.mcpspec, ["--server", proxy], SUITE, scenarios, args.jobs)


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
            if judge_control(f"{mutant} (through the proxy)", run_suite(args, mutant, ["chant/*"])):
                escaped.append(mutant)
        elif judge_mutant(mutant, scenarios, run_suite(args, mutant, scenarios)):
            escaped.append(mutant)
    return verdict_of_all(escaped)


if __name__ == "__main__":
    sys.exit(main())
