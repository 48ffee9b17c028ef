#!/usr/bin/env python3
"""A target that cannot be started or reached is one clear error before the suite, exit status 2.

Each case runs `mcpspec run` (or `mcpspec fuzz`) against a broken target and checks: exit status 2, stderr is exactly
one line starting "mcpspec:" that names the cause (the command or URL and what went wrong), and no
scenario result was printed. The controls check that the start-up probe lets a working server and
a working client through (exit 0), that a client that runs and gives up before reaching its server
is judged by the scenarios (exit 1), and that in a run over a targets file a target that cannot start
does not hide the results of the others.

  startup_errors.py BINDIR SOURCEDIR CASE
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from loopback import free_port  # noqa: E402

PING = "scenarios/mcp/ping/answered-with-empty-result.json"
CLIENT_SCENARIO = "scenarios/mcp/client/lifecycle/initialize-request-shape.json"



def mcpspec(bindir, *args, command="run"):
    done = subprocess.run([os.path.join(bindir, "mcpspec"), command, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def one_line_error(bindir, args, needles, command="run"):
    """None when the run exits 2 with one stderr line containing every needle, else why not."""
    code, out, err = mcpspec(bindir, *args, command=command)
    lines = err.splitlines()
    problems = []
    if code != 2:
        problems.append(f"exit status {code}, expected 2")
    if len(lines) != 1 or not lines[0].startswith("mcpspec: "):
        problems.append(f"expected one stderr line starting 'mcpspec: ', got {len(lines)} line(s)")
    missing = [n for n in needles if n not in err]
    if missing:
        problems.append(f"stderr does not name {missing}")
    if "FAIL" in out or "ERROR" in out or "PASS" in out:
        problems.append("scenario results were printed although the target never started")
    if problems:
        return "; ".join(problems) + f"\n--- stdout:\n{out}--- stderr:\n{err}"
    print(lines[0])
    return None


def targets_file_case(bindir, src):
    """A broken target among working ones: the others are tested and reported, the run exits 2."""
    with tempfile.TemporaryDirectory() as d:
        targets = {"targets": [
            {"name": "broken", "server": "/nonexistent/mcp-server --stdio", "scenarios": [PING]},
            {"name": "good", "server": "${bindir}/mcpspec-testserver", "scenarios": [PING]},
        ]}
        path = os.path.join(d, "targets.json")
        with open(path, "w") as f:
            json.dump(targets, f)
        code, out, err = mcpspec(bindir, "--targets", path, "--report", "json:" + os.path.join(d, "out.json"))
        problems = []
        if code != 2:
            problems.append(f"exit status {code}, expected 2")
        if not os.path.exists(os.path.join(d, "out.good.json")):
            problems.append("the working target's report out.good.json is missing")
        if os.path.exists(os.path.join(d, "out.broken.json")):
            problems.append("a report was written for the target that never started")
        if "/nonexistent/mcp-server" not in err or "could not be tested: broken" not in err:
            problems.append("stderr does not name the broken target and its command")
        if problems:
            return "; ".join(problems) + f"\n--- stdout:\n{out}--- stderr:\n{err}"
        print(err.strip())
        return None


def fuzz_case(bindir):
    with tempfile.TemporaryDirectory() as d:
        return one_line_error(bindir, ["--server", "/nonexistent/mcp-server", "--duration", "5", "-q", "--findings", d],
                              ["`/nonexistent/mcp-server`", "exit code 127", "not found"], command="fuzz")


def control(bindir, args, expected=0):
    code, out, err = mcpspec(bindir, *args)
    if code != expected or "mcpspec: " in err:
        return f"the run exits {code}, expected {expected} with no start-up error\n--- stdout:\n{out}--- stderr:\n{err}"
    return None


def main():
    bindir, src, case = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    os.chdir(src)
    port = free_port()
    cases = {
        # The shell cannot find the program: exit status 127 and the shell's own words.
        "command-not-found": lambda: one_line_error(
            bindir, ["--server", "/nonexistent/mcp-server --stdio", PING],
            ["`/nonexistent/mcp-server --stdio`", "exit code 127", "not found"]),
        # Starts, complains on stderr and exits before a byte on stdout.
        "exits-at-once": lambda: one_line_error(
            bindir, ["--server", "echo 'config file missing' >&2; exit 3", PING],
            ["exit code 3", "config file missing"]),
        # Runs but never answers initialize: waited for --startup-timeout-ms, no longer.
        "never-answers": lambda: one_line_error(
            bindir, ["--server", "exec sleep 60", "--startup-timeout-ms", "400", PING],
            ["`exec sleep 60`", "within 400 ms"]),
        # A URL where nothing listens.
        "connection-refused": lambda: one_line_error(
            bindir, ["--url", f"http://127.0.0.1:{port}/mcp", PING],
            [f"http://127.0.0.1:{port}/mcp", "refused"]),
        # A served HTTP server that exits before it listens on its port.
        "served-exits-before-listening": lambda: one_line_error(
            bindir, ["--server", "echo 'no such option --port' >&2; exit 4", "--transport", "http", PING],
            ["exit code 4", "before listening", "no such option --port"]),
        # A client command the shell cannot start, so it never reaches the server mcpspec plays.
        "client-cannot-start": lambda: one_line_error(
            bindir, ["--client", "/nonexistent/mcp-client --server {server}",
                     "scenarios/mcp/client/lifecycle"],
            ["`/nonexistent/mcp-client --server {server}`", "exit code 127", "could not be started"]),
        # The live fuzzer makes the same check instead of reporting a crash finding.
        "fuzz-command-not-found": lambda: fuzz_case(bindir),
        "targets-file": lambda: targets_file_case(bindir, src),
        # Controls: working targets pass the probe (a server that is silent until spoken to, a client).
        "control-server": lambda: control(bindir, ["--server", os.path.join(bindir, "mcpspec-testserver"), PING]),
        "control-client": lambda: control(bindir, ["--client", os.path.join(bindir, "mcpspec-testclient") +
                                                   " -- {server}", "scenarios/mcp/client/lifecycle"]),
        # A client that runs and gives up before reaching its server is behaviour the scenarios
        # judge (a FAIL each, exit 1), not a set-up error.
        "control-client-gives-up": lambda: control(
            bindir, ["--client", "echo 'giving up on {server}' >&2; exit 1", CLIENT_SCENARIO], expected=1),
    }
    if case not in cases:
        print(f"unknown case {case}; known: {', '.join(cases)}")
        return 2
    why = cases[case]()
    if why:
        print(f"FAIL {case}: {why}")
        return 1
    print(f"PASS {case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
