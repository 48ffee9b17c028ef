#!/usr/bin/env python3
"""Runs the speckit-agent and spec-tui suites against each mutant of mutant_proxy.py.

    run_mutants.py --mcpspec build/mcpspec --agent build/speckit-agent --spec-tui build/spec-tui [--jobs 2] [MUTANT ...]

Each mutant's scenarios must end FAIL or WARN. The controls (agent-none, client-none) run the
whole suite of their program through the proxy with its baseline and must pass, so that a
failure elsewhere can only come from the mutation. Exit 0 when every mutant is caught, 1
otherwise, 2 on a usage or harness problem. Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mutant_proxy import MUTANTS  # noqa: E402

PROXY = os.path.join(HERE, "mutant_proxy.py")
# spec-tui takes its command and input from the environment of the target's command line, as in
# scenarios/targets.json.
CLIENT_LINE = '{spec_tui} --batch "${{SPEC_TUI_COMMAND:-plan}}" --input "${{SPEC_TUI_INPUT:-}}" --log {log} -- python3 {proxy} {mutant} -- {{server}}'


def run_suite(args, mutant, program, scenarios):
    suite = os.path.join(SCENARIOS, "speckit-agent" if program == "agent" else "spec-tui")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        if program == "agent":
            target = ["--server", f"python3 {PROXY} {mutant} -- {os.path.abspath(args.agent)}"]
        else:
            line = CLIENT_LINE.format(spec_tui=os.path.abspath(args.spec_tui), log=os.path.join(tmp, "spec-tui.log"),
                                      proxy=PROXY, mutant=mutant)
            target = ["--client", line]
        cmd = [args.mcpspec, "run", *target, "-j", str(args.jobs), "--report", f"json:{report}",
               "--baseline", os.path.join(suite, "baseline.json")]
        for s in scenarios:
            cmd += ["--filter", s]
        cmd.append(suite)
        env = dict(os.environ, MCPSPEC_HOME=os.path.dirname(SCENARIOS))
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=300)
        if not os.path.exists(report):
            sys.stderr.write(f"run_mutants.py: mcpspec wrote no report for {mutant}:\n{done.stdout}\n")
            sys.exit(2)
        with open(report) as f:
            return {r["id"]: r["verdict"] for r in json.load(f)["results"]}


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
            verdicts = run_suite(args, mutant, program, ["speckit-agent/*" if program == "agent" else "spec-tui/*"])
            bad = sorted(i for i, v in verdicts.items() if v not in ("pass", "xfail"))
            print(f"{mutant:40} {len(verdicts)} scenarios through the proxy: " + ("ok" if not bad else "PROXY BROKE: " + ", ".join(bad)))
            if bad or not verdicts:
                escaped.append(mutant)
            continue
        verdicts = run_suite(args, mutant, program, scenarios)
        passed = [s for s in scenarios if verdicts.get(s) not in ("fail", "warn")]
        print(f"{mutant:40} caught by {len(scenarios) - len(passed)}/{len(scenarios)}" +
              ("" if not passed else "  NOT CAUGHT by: " + ", ".join(f"{s} ({verdicts.get(s, 'not run')})" for s in passed)))
        if passed:
            escaped.append(mutant)
    print("every mutant caught" if not escaped else f"{len(escaped)} mutant(s) escaped: {', '.join(escaped)}")
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
