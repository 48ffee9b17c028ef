#!/usr/bin/env python3
"""What a user types at mcpspec: --version, `explain ID`, and the did-you-mean answers.

- --version names the mcpspec version and every protocol version it tests.
- `explain TOOL-17` prints the requirement's text, level, spec section, versions and the scenarios
  that check it (as `list --json` says they do); `explain <scenario id>` prints its requirements.
- An unknown id, a --filter (plain id or glob with a misspelt area) or a --tag that selects
  nothing is exit 2 with the nearest names; a selector that matches nothing beside others that do
  is a warning and the run goes on.

  cli_usability.py BINDIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

MCPSPEC = os.path.join(os.path.abspath(sys.argv[1]), "mcpspec")
SERVER = os.path.join(os.path.abspath(sys.argv[1]), "mcpspec-testserver")
check = Checks("cli usability")


def run(*args):
    done = subprocess.run([MCPSPEC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def main():
    code, out, _ = run("--version")
    check(code == 0 and out.startswith("mcpspec 0.") and
          "protocol versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25" in out, f"--version: {code} {out!r}")

    code, out, err = run("explain", "TOOL-17")
    listed = json.loads(run("list", "--json", "scenarios")[1])
    checking = [s["id"] for s in listed if "TOOL-17" in s["requirements"]]
    check(code == 0 and out.startswith("TOOL-17 (") and "spec section: server/tools" in out and "versions:" in out,
          f"explain TOOL-17: {code}\n{out}{err}")
    check(checking and all(i in out for i in checking) and f"checked by {len(checking)} scenario(s)" in out,
          f"explain TOOL-17 should list {checking}:\n{out}")

    scenario = checking[0] if checking else "mcp/tools/unknown-tool-is-protocol-error"
    code, out, _ = run("explain", scenario)
    check(code == 0 and out.startswith(scenario) and "TOOL-17" in out and "requirements:" in out, f"explain {scenario}:\n{out}")

    code, _, err = run("explain", "TOOL-71")
    check(code == 2 and "neither a requirement id nor a scenario id (did you mean 'TOOL-01', 'TOOL-11', 'TOOL-21'?)" in err,
          f"explain TOOL-71: {code} {err}")
    code, _, err = run("explain", "mcp/tools/unknown-tool-is-protocl-error")
    check(code == 2 and "did you mean 'mcp/tools/unknown-tool-is-protocol-error'" in err, f"misspelt scenario id: {code} {err}")

    for args, expected in ((["--filter", "mcp/tols/*"], "--filter 'mcp/tols/*' matches no scenario id (did you mean 'mcp/tools/*'?)"),
                           (["--filter", "mcp/ping/answred-with-empty-result"], "did you mean 'mcp/ping/answered-with-empty-result'"),
                           (["--tag", "pagnation"], "--tag 'pagnation' is on no scenario (did you mean 'pagination'?)")):
        code, _, err = run("run", "--server", SERVER, *args)
        check(code == 2 and expected in err and "no scenario selected" in err, f"{args}: {code} {err}")
    code, out, err = run("run", "--server", SERVER, "--filter", "mcp/ping/*", "--filter", "mcp/pnig/*", "-q")
    check(code == 0 and "warning: --filter 'mcp/pnig/*' matches no scenario id (did you mean 'mcp/ping/*'?)" in err,
          f"one unmatched filter beside a matching one: {code} {err}")
    code, _, err = run("run", "--server", SERVER, "--verbos")
    check(code == 2 and "--verbos" in err, f"unknown option: {code} {err}")

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
