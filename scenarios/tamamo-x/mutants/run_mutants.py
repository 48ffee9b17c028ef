#!/usr/bin/env python3
"""Runs the tamamo-x suite against each fault of tamamo-x-mcp-mutant and checks it is caught.

    run_mutants.py --mcpspec MCPSPEC --mutant-binary tamamo-x-mcp-mutant \\
        --upstream tamamo-x-demo-upstream --testserver mcpspec-testserver [--jobs 2] [MUTANT ...]

The mutant binary is tamamo-x-mcp built from the same sources with TAMAMO_MUTANTS; the
environment variable TAMAMO_MUTANT switches one fault on (MUTANTS below lists them with the
scenarios that must FAIL). The control run ("none": the mutant binary with no fault switched on)
runs the whole suite in both roles and must pass, so a failure of a mutant can only come from its
fault. The targets are the default run's (scenarios/targets.json): tamamo in front of the demo
upstream and the test server; in the client role, `build` with a failing server before the one
the harness plays. Exit 0 when every mutant is caught and the control passes, 1 otherwise, 2 on a
usage or harness problem. Standard library only.
"""
import argparse
import os
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(SUITE)), "tests", "support"))
from mutant_runs import judge_control, judge_mutant, suite_verdicts, verdict_of_all  # noqa: E402

# The faults of tamamo-x-mcp-mutant (reference-servers/tamamo-x/src/mutants.hpp) and the scenarios
# of scenarios/tamamo-x that must each end FAIL against it. (Kept here, not in a .json file: every
# .json under the suite is read as a scenario.)
MUTANTS = {
    "tool-in-two-groups": {
        "breaks": "grouping puts the first tool of the first group into the second group too",
        "role": "server",
        "caught_by": [
            "tamamo-x/agents/groups-of-the-target",
        ],
    },
    "list-changed-true": {
        "breaks": "initialize declares tools.listChanged true although the list never changes",
        "role": "server",
        "caught_by": [
            "tamamo-x/protocol/initialize-as-documented",
        ],
    },
    "error-data-without-toolname": {
        "breaks": "error data carries details but no toolName",
        "role": "server",
        "caught_by": [
            "tamamo-x/errors/upstream-error-names-tool",
            "tamamo-x/errors/bad-calls-name-the-tool",
            "tamamo-x/upstream/kept-alive-and-restarted",
            "tamamo-x/upstream/call-deadline",
        ],
    },
    "no-restart": {
        "breaks": "an upstream that crashed is never started again",
        "role": "server",
        "caught_by": [
            "tamamo-x/upstream/kept-alive-and-restarted",
        ],
    },
    "any-failure-fails-build": {
        "breaks": "build discovers every server but fails (exit 1, nothing written) when any one failed",
        "role": "client",
        "caught_by": [
            "tamamo-x/discovery/failing-upstream-does-not-block-others",
            "tamamo-x/discovery/handshake-as-documented",
        ],
    },
    "discovery-aborts": {
        "breaks": "discovery queries servers one by one and gives up at the first failure (the harness's server is never started: mcpspec reports that as ERROR, see CAUGHT)",
        "role": "client",
        "caught_by": [
            "tamamo-x/discovery/failing-upstream-does-not-block-others",
            "tamamo-x/discovery/handshake-as-documented",
        ],
    },
}


# A client that never starts the server the harness plays ends its scenario as ERROR ("the client
# never started the server"), not FAIL. The control run passes those same scenarios, so an ERROR
# against a mutant comes from its fault and counts as caught.
CAUGHT = ("fail", "error")


def target_command(args, role, mutant):
    fault = f"TAMAMO_MUTANT={shlex.quote(mutant)} " if mutant != "none" else ""
    binary = shlex.quote(os.path.abspath(args.mutant_binary))
    if role == "server":
        return (f"env {fault}{binary} mcp --call-timeout-ms 2000"
                f" --server demo={shlex.quote(os.path.abspath(args.upstream))}"
                f" --server test={shlex.quote(os.path.abspath(args.testserver))}")
    return f"env {fault}{binary} build --print --timeout-ms 2000 --server broken='exit 7' --server-argv harness={{server_argv_json}}"


def run_suite(args, role, mutant, scenarios):
    target = ["--server" if role == "server" else "--client", target_command(args, role, mutant)]
    return suite_verdicts(args.mcpspec, target, SUITE, scenarios, args.jobs, timeout=300)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mcpspec", required=True)
    ap.add_argument("--mutant-binary", required=True)
    ap.add_argument("--upstream", required=True, help="tamamo-x-demo-upstream")
    ap.add_argument("--testserver", required=True, help="mcpspec-testserver")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("mutants", nargs="*", help="mutants to run (default: all, and the control)")
    args = ap.parse_args()
    mutants = MUTANTS
    unknown = [m for m in args.mutants if m not in mutants and m != "none"]
    if unknown:
        ap.error(f"unknown mutant(s): {', '.join(unknown)}; see MUTANTS in run_mutants.py")
    for path in (args.mcpspec, args.mutant_binary, args.upstream, args.testserver):
        if not os.access(path, os.X_OK):
            ap.error(f"{path} is not an executable file")

    escaped = []
    for mutant in args.mutants or ["none"] + list(mutants):
        if mutant == "none":
            verdicts = {}
            for role in ("server", "client"):
                verdicts.update({f"{i} [{role}]": v for i, v in run_suite(args, role, "none", ["tamamo-x/*"]).items()})
            if judge_control("none (control, both roles)", verdicts, ("pass", "skip")):
                escaped.append("none")
            continue
        spec = mutants[mutant]
        if judge_mutant(mutant, spec["caught_by"], run_suite(args, spec["role"], mutant, spec["caught_by"]), CAUGHT):
            escaped.append(mutant)
    return verdict_of_all(escaped)


if __name__ == "__main__":
    sys.exit(main())
