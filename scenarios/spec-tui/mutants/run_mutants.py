#!/usr/bin/env python3
"""Runs the speckit-agent and spec-tui suites against each mutant of mutant_proxy.py.

    run_mutants.py --mcpspec build/mcpspec --agent build/speckit-agent --spec-tui build/spec-tui [--jobs 2] [MUTANT ...]

Each mutant's scenarios must end FAIL or WARN. The controls (agent-none, client-none) run the
whole suite of their program through the proxy with its baseline and must pass, so that a
failure elsewhere can only come from the mutation. Exit 0 when every mutant is caught, 1
otherwise, 2 on a usage or harness problem. Standard library only.
"""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mutant_proxy import MUTANTS  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(SCENARIOS), "tests", "support"))
from mutant_runs import judge_control, judge_mutant, suite_verdicts, verdict_of_all  # noqa: E402

PROXY = os.path.join(HERE, "mutant_proxy.py")
# spec-tui takes its command and input from the environment of the target's command line, as in
# scenarios/targets.json.
CLIENT_LINE = '{spec_tui} --batch "${{SPEC_TUI_COMMAND:-plan}}" --input "${{SPEC_TUI_INPUT:-}}" --log {log} -- python3 {proxy} {mutant} -- {{server}}'


def run_suite(args, mutant, program, scenarios):
    suite = os.path.join(SCENARIOS, "speckit-agent" if program == "agent" else "spec-tui")
    with tempfile.TemporaryDirectory() as tmp:
        if program == "agent":
            target = ["--server", f"python3 {PROXY} {mutant} -- {os.path.abspath(args.agent)}"]
        else:
            line = CLIENT_LINE.format(spec_tui=os.path.abspath(args.spec_tui), log=os.path.join(tmp, "spec-tui.log"),
                                      proxy=PROXY, mutant=mutant)
            target = ["--client", line]
        return suite_verdicts(args.mcpspec, target, suite, scenarios, args.jobs,
                              extra=["--baseline", os.path.join(suite, "baseline.json")], timeout=300)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mcpspec", required=True)
    ap.add_argument("--agent", required=True, help="the speckit-agent executable")
    ap.add_argument("--spec-tui", required=True, help="the spec-tui executable")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("mutants", nargs="*", help="mutants to run (default: all; see mutant_proxy.py --list)")
    args = ap.parse_args()
    unknown = [m for m in args.mutants if m not in MUTANTS]
    if unknown:
        ap.error(f"unknown mutant(s): {', '.join(unknown)}")
    for path in (args.mcpspec, args.agent, args.spec_tui):
        if not os.access(path, os.X_OK):
            ap.error(f"{path} is not an executable file")

    escaped = []
    for mutant in args.mutants or list(MUTANTS):
        program, bug, scenarios = MUTANTS[mutant]
        if not scenarios:
            whole = ["speckit-agent/*" if program == "agent" else "spec-tui/*"]
            if judge_control(f"{mutant} (through the proxy)", run_suite(args, mutant, program, whole), ("pass", "xfail")):
                escaped.append(mutant)
        elif judge_mutant(mutant, scenarios, run_suite(args, mutant, program, scenarios)):
            escaped.append(mutant)
    return verdict_of_all(escaped)


if __name__ == "__main__":
    sys.exit(main())
