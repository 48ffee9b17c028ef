#!/usr/bin/env python3
"""Runs the meditation and project-chat suites against deliberately broken builds, checks each is caught.

    run_mutants.py --mcpspec BUILD/mcpspec --bindir BUILD [--suite meditation|project-chat|both] [MUTANT ...]

The mutants are test-only builds of the same sources with one bug each (see the CMakeLists.txt of
reference-servers/meditation and reference-servers/project-chat; they land in
BUILD/reference-servers/<system>/mutants/). For every mutant the scenarios listed for it must end
FAIL or WARN. The control run ("none") runs the whole suite against the real program and must pass,
so a failure under a mutant can only come from its bug. Exit 0 when every mutant is caught, 1
otherwise, 2 on a usage or harness problem. Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SCENARIOS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The server finds its notes through MEDITATION_NOTES_DIR (set by scenarios that bring a folder),
# else the suite's sample library; the same command as in scenarios/targets.json.
NOTES = os.path.join(SCENARIOS, "meditation", "fixtures", "library", "notes")

SUITES = {
    "meditation": {
        "role": "--server",
        "real": "meditation-mcp",
        "mutant_dir": "reference-servers/meditation/mutants",
        "mutant_prefix": "meditation-mcp-mutant-",
        "command": lambda exe: f'{exe} --notes "${{MEDITATION_NOTES_DIR:-{NOTES}}}"',
        "mutants": {
            "traversal": ("reads a URI's path below the notes folder as a file path (../ climbs out)",
                          ["meditation/safety/parent-folder", "meditation/safety/nested-parent"]),
            "internal-error": ("answers an unknown URI with -32603 instead of -32000 Resource not found",
                               ["meditation/resources/read-unknown-uri", "meditation/resources/read-other-scheme",
                                "meditation/resources/read-deleted-note", "meditation/safety/parent-folder"]),
        },
    },
    "project-chat": {
        "role": "--client",
        "real": "project_chat",
        "mutant_dir": "reference-servers/project-chat/mutants",
        "mutant_prefix": "project_chat-mutant-",
        "command": lambda exe: f'exec {exe} --server "{{server}}" drive',
        "mutants": {
            "no-restart": ("never starts a crashed server again",
                           ["project-chat/recovery/restart-after-crash", "project-chat/recovery/restart-after-idle-crash",
                            "project-chat/recovery/backoff-grows"]),
            "no-backoff": ("retries at a fixed 100 ms pace instead of backing off",
                           ["project-chat/recovery/backoff-grows"]),
            "timeout-ignored": ("waits an hour for any answer (no timeout in effect)",
                                ["project-chat/timeouts/resource-request-500ms", "project-chat/timeouts/resource-list-500ms",
                                 "project-chat/timeouts/tool-call-1000ms", "project-chat/timeouts/initialize-2000ms"]),
            "cache-never-invalidated": ("keeps its cache across sync_repository",
                                        ["project-chat/cache/sync-invalidates", "project-chat/cache/failed-sync-invalidates"]),
        },
    },
}


def run_suite(args, suite, command, filters):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [args.mcpspec, "run", suite["role"], command, "-j", str(args.jobs), "--report", f"json:{report}"]
        if suite["role"] == "--client":
            cmd.append("--cooperative")
        for f in filters:
            cmd += ["--filter", f]
        cmd.append(os.path.join(SCENARIOS, args.current))
        env = dict(os.environ, MCPSPEC_HOME=os.path.dirname(SCENARIOS))
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=600)
        if not os.path.exists(report):
            sys.stderr.write(f"run_mutants.py: mcpspec wrote no report:\n{done.stdout}\n")
            sys.exit(2)
        with open(report) as f:
            return {r["id"]: r["verdict"] for r in json.load(f)["results"]}


def check_suite(args, name, wanted):
    suite = SUITES[name]
    args.current = name
    escaped = []
    real = os.path.join(args.bindir, suite["real"])
    for mutant in ["none"] + [m for m in suite["mutants"] if not wanted or m in wanted]:
        if mutant == "none":
            verdicts = run_suite(args, suite, suite["command"](real), [f"{name}/*"])
            bad = sorted(f"{i} ({v})" for i, v in verdicts.items() if v != "pass")
            print(f"{name:13} {'none':24} {len(verdicts)} scenarios against {suite['real']}: " +
                  ("ok" if verdicts and not bad else "CONTROL FAILED: " + ", ".join(bad)))
            if bad or not verdicts:
                escaped.append(f"{name}/none")
            continue
        bug, scenarios = suite["mutants"][mutant]
        exe = os.path.join(args.bindir, suite["mutant_dir"], suite["mutant_prefix"] + mutant)
        if not os.access(exe, os.X_OK):
            sys.stderr.write(f"run_mutants.py: {exe} is missing: build the mutant targets first\n")
            sys.exit(2)
        verdicts = run_suite(args, suite, suite["command"](exe), scenarios)
        passed = [s for s in scenarios if verdicts.get(s) not in ("fail", "warn")]
        print(f"{name:13} {mutant:24} caught by {len(scenarios) - len(passed)}/{len(scenarios)} ({bug})" +
              ("" if not passed else "  NOT CAUGHT by: " + ", ".join(f"{s} ({verdicts.get(s, 'not run')})" for s in passed)))
        if passed:
            escaped.append(f"{name}/{mutant}")
    return escaped


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mcpspec", required=True, help="the mcpspec executable")
    ap.add_argument("--bindir", required=True, help="the build folder holding meditation-mcp, project_chat and the mutants")
    ap.add_argument("--suite", choices=["meditation", "project-chat", "both"], default="both")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="print the mutants and the scenarios that must catch them")
    ap.add_argument("mutants", nargs="*", help="mutants to run (default: all of the suite)")
    args = ap.parse_args()
    names = ["meditation", "project-chat"] if args.suite == "both" else [args.suite]
    if args.list:
        for n in names:
            for m, (bug, scenarios) in SUITES[n]["mutants"].items():
                print(f"{n}/{m}: {bug}\n    caught by: {', '.join(scenarios)}")
        return 0
    known = {m for n in names for m in SUITES[n]["mutants"]}
    unknown = [m for m in args.mutants if m not in known]
    if unknown:
        ap.error(f"unknown mutant(s): {', '.join(unknown)}; see --list")
    if not os.access(args.mcpspec, os.X_OK):
        ap.error(f"{args.mcpspec} is not an executable file")
    escaped = []
    for n in names:
        escaped += check_suite(args, n, set(args.mutants))
    print("every mutant caught, controls pass" if not escaped else f"{len(escaped)} escaped or failed: {', '.join(escaped)}")
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
