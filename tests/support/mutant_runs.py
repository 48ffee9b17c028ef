"""What every suite's mutant runner (scenarios/<suite>/mutants/run_mutants.py) does the same way:
run mcpspec against one target with a selection of scenarios and read each scenario's verdict,
then judge a control run (every scenario passes) or a mutant (every scenario listed for it
catches it). Standard library only.
"""
import json
import os
import subprocess
import sys
import tempfile

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def suite_verdicts(mcpspec, target, suite, filters, jobs=2, extra=(), timeout=600):
    """The verdict of each scenario id: `mcpspec run TARGET... -j JOBS [--filter F]... EXTRA SUITE`.

    `target` is the target's options (["--server", CMD] or ["--client", CMD, ...]). Exits 2 when
    mcpspec writes no report (a harness or usage problem, not a verdict)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [mcpspec, "run", *target, "-j", str(jobs), "--report", f"json:{report}", *extra]
        for f in filters:
            cmd += ["--filter", f]
        cmd.append(suite)
        env = dict(os.environ, MCPSPEC_HOME=REPOSITORY)
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                              timeout=timeout)
        if not os.path.exists(report):
            sys.stderr.write(f"mutant run: mcpspec wrote no report for {' '.join(target)}:\n{done.stdout}\n")
            sys.exit(2)
        with open(report) as f:
            return {r["id"]: r["verdict"] for r in json.load(f)["results"]}


def judge_control(label, verdicts, fine=("pass",)):
    """Prints the control's line; True when it escaped (a scenario did not pass, or none ran)."""
    bad = sorted(f"{i} ({v})" for i, v in verdicts.items() if v not in fine)
    print(f"{label:40} {len(verdicts)} scenarios: " + ("ok" if verdicts and not bad else "CONTROL FAILED: " + ", ".join(bad)))
    return bool(bad) or not verdicts


def judge_mutant(label, scenarios, verdicts, caught=("fail", "warn")):
    """Prints the mutant's line; True when it escaped (a listed scenario did not catch it)."""
    missed = [s for s in scenarios if verdicts.get(s) not in caught]
    print(f"{label:40} caught by {len(scenarios) - len(missed)}/{len(scenarios)}" +
          ("" if not missed else "  NOT CAUGHT by: " + ", ".join(f"{s} ({verdicts.get(s, 'not run')})" for s in missed)))
    return bool(missed)


def verdict_of_all(escaped):
    """The runner's closing line and exit status: 0 when nothing escaped, 1 otherwise."""
    print("every mutant caught, controls pass" if not escaped else f"{len(escaped)} escaped or failed: {', '.join(escaped)}")
    return 1 if escaped else 0
