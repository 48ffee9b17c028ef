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
import os
import sys

SCENARIOS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(SCENARIOS), "tests", "support"))
from mutant_runs import judge_control, judge_mutant, suite_verdicts, verdict_of_all  # noqa: E402
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
    target = [suite["role"], command] + (["--cooperative"] if suite["role"] == "--client" else [])
    return suite_verdicts(args.mcpspec, target, os.path.join(SCENARIOS, args.current), filters, args.jobs)


def check_suite(args, name, wanted):
    suite = SUITES[name]
    args.current = name
    escaped = []
    real = os.path.join(args.bindir, suite["real"])
    for mutant in ["none"] + [m for m in suite["mutants"] if not wanted or m in wanted]:
        if mutant == "none":
            if judge_control(f"{name}/none ({suite['real']})", run_suite(args, suite, suite["command"](real), [f"{name}/*"])):
                escaped.append(f"{name}/none")
            continue
        bug, scenarios = suite["mutants"][mutant]
        exe = os.path.join(args.bindir, suite["mutant_dir"], suite["mutant_prefix"] + mutant)
        if not os.access(exe, os.X_OK):
            sys.stderr.write(f"run_mutants.py: {exe} is missing: build the mutant targets first\n")
            sys.exit(2)
        if judge_mutant(f"{name}/{mutant}", scenarios, run_suite(args, suite, suite["command"](exe), scenarios)):
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
    return verdict_of_all(escaped)


if __name__ == "__main__":
    sys.exit(main())
