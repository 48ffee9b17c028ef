#!/usr/bin/env python3
"""The GitHub Action (action.yml) the way a runner executes it, locally.

Checks that action.yml's steps run the scripts under tools/action/ and hand every declared input
to them, then runs the run step (tools/action/run.sh) with the environment a runner gives it
(INPUT_*, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT) against the reference server chant with its
baseline: exit code, outputs, job summary and report files. Also a failing server (exit 1, an
::error annotation), a bad input (exit 2) and a config file with two servers (a report each and a
matrix). The build step (tools/action/build.sh) is the project's normal CMake build of one target
and is not repeated here.

  action_steps.py BINDIR SOURCEDIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

BIN, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
check = Checks("action steps")


def run_step(work, **inputs):
    summary, output = os.path.join(work, "summary.md"), os.path.join(work, "output.txt")
    for f in (summary, output):
        open(f, "w").close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("INPUT_")}
    env.update({"MCPSPEC": os.path.join(BIN, "mcpspec"), "GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": output,
                "GITHUB_ACTION_PATH": SRC})
    env.update({"INPUT_" + k.upper(): v for k, v in inputs.items()})
    done = subprocess.run(["bash", os.path.join(SRC, "tools/action/run.sh")], cwd=SRC, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=280)
    outputs = dict(line.split("=", 1) for line in open(output).read().splitlines() if "=" in line)
    return done.returncode, done.stdout, open(summary).read(), outputs


def main():
    action = open(os.path.join(SRC, "action.yml")).read()
    declared = re.findall(r"^  ([a-z][a-z-]*):\n    description:", action.split("\noutputs:")[0], re.M)
    passed = set(re.findall(r"\$\{\{ inputs\.([a-z-]+) \}\}", action))
    check(set(declared) - {"mcpspec"} <= passed, f"inputs declared but not passed to the run step: {set(declared) - passed}")
    for script in re.findall(r'run: bash "\$GITHUB_ACTION_PATH/([^"]+)"', action):
        check(os.path.exists(os.path.join(SRC, script)), f"action.yml runs {script}, which does not exist")
    run_sh = open(os.path.join(SRC, "tools/action/run.sh")).read()
    for name in set(re.findall(r"INPUT_([A-Z_]+)", run_sh)):
        check(f"INPUT_{name}:" in action, f"run.sh reads INPUT_{name}, which action.yml does not set")

    with tempfile.TemporaryDirectory(prefix="mcpspec-action-") as work:
        reports = os.path.join(work, "reports")
        # A reference server with its baseline: passes.
        code, out, summary, outputs = run_step(
            work, server=os.path.join(BIN, "chant") + " mcp", baseline="scenarios/chant/baseline.json",
            filter="mcp/tools/* mcp/ping/* chant/*", scenarios="scenarios/mcp scenarios/chant", args="-j 2",
            reports_dir=reports)
        check(code == 0, f"chant with its baseline: exit {code}\n{out[-3000:]}")
        check(outputs.get("exit-code") == "0" and outputs.get("reports-dir") == reports, f"outputs: {outputs}")
        for name in ("mcpspec.json", "mcpspec.xml", "mcpspec.md", "mcpspec.html"):
            check(os.path.exists(os.path.join(reports, name)), f"report {name} missing")
        check("PASSED" in summary and "chant" in summary, f"job summary does not hold the Markdown report:\n{summary[:500]}")
        rep = json.load(open(os.path.join(reports, "mcpspec.json")))
        ids = {r["id"] for r in rep["results"]}
        check(any(i.startswith("chant/") for i in ids) and any(i.startswith("mcp/ping/") for i in ids),
              f"filters and scenario folders not applied: {sorted(ids)[:10]}")

        # A faulty server: exit 1, the output says so, an error annotation for the log.
        code, out, summary, outputs = run_step(
            work, server=os.path.join(BIN, "mcpspec-testserver") + " --fault wrong-error-code",
            filter="mcp/base/*", reports_dir=reports, strict="true")
        check(code == 1 and outputs.get("exit-code") == "1", f"faulty server: exit {code}, outputs {outputs}\n{out[-2000:]}")
        check("::error title=mcpspec::conformance failures" in out, "no ::error annotation for a failing run")
        check("FAILED" in summary, "the job summary does not say FAILED")

        # A bad input: exit 2 before anything runs.
        code, out, _, _ = run_step(work, server="x", strict="maybe", reports_dir=reports)
        check(code == 2 and "strict must be true or false" in out, f"bad strict input: exit {code}\n{out}")

        # A config file with two servers: a report per server and a matrix of both.
        config = os.path.join(work, ".mcp.json")
        with open(config, "w") as f:
            json.dump({"mcpServers": {"a": {"command": os.path.join(BIN, "mcpspec-testserver")},
                                      "b": {"command": os.path.join(BIN, "mcpspec-testserver"), "args": ["--profile", "minimal"]}}}, f)
        many = os.path.join(work, "many")
        code, out, summary, outputs = run_step(work, config=config, filter="mcp/ping/*", reports_dir=many)
        check(code == 0, f"config with two servers: exit {code}\n{out[-2000:]}")
        for name in ("mcpspec.a.json", "mcpspec.b.json", "mcpspec.a.html", "matrix.html"):
            check(os.path.exists(os.path.join(many, name)), f"{name} missing after a two-server config run: {os.listdir(many)}")
        check(summary.count("PASSED") >= 2, "the job summary should hold both servers' reports")

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
