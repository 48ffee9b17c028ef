#!/usr/bin/env python3
"""A server that cannot run twice at once still gets the verdicts it gets alone.

The server under test is the correct test server behind `flock -n LOCK`: while one of its processes
runs, every other one exits at once without a word, which is how a server with a fixed port, a lock
file or a single-instance database fails under parallel scenarios. `mcpspec run -j 8` must notice
(a line on stderr saying it runs fewer at a time), rerun the scenarios that failed to come up, and
give exactly the id/verdict list of `-j 1`. The same is asked of a server that is unable to start
at all after its first start (every later start fails, alone too): those failures are the
scenarios' own, and must stay FAIL/ERROR rather than loop or pass.

  parallel_backoff.py BINDIR SOURCEDIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

SUITE = ["scenarios/mcp/ping", "scenarios/mcp/lifecycle/initialize-result-fields.json", "scenarios/mcp/tools/names-unique.json",
         "scenarios/mcp/resources"]


def run(bindir, src, server, jobs, report):
    cmd = [os.path.join(bindir, "mcpspec"), "run", "--server", server, "-j", str(jobs), "--timeout-ms", "3000",
           "--report", "json:" + report] + [os.path.join(src, p) for p in SUITE]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=240, cwd=src)
    with open(report) as fh:
        results = json.load(fh)["results"]
    return done.returncode, done.stderr, {(r["id"], r["protocol"]): r["verdict"] for r in results}


def main():
    bindir, src = sys.argv[1], sys.argv[2]
    check = Checks("parallel back-off")
    server_bin = os.path.join(bindir, "mcpspec-testserver")
    with tempfile.TemporaryDirectory() as d:
        lock = os.path.join(d, "one-at-a-time.lock")
        one_at_a_time = "flock -n %s %s" % (lock, server_bin)
        code1, _, alone = run(bindir, src, one_at_a_time, 1, os.path.join(d, "j1.json"))
        check(code1 == 0 and alone and all(v == "pass" or v == "skip" for v in alone.values()),
              "-j 1 against the one-at-a-time server: exit %d, verdicts %s" % (code1, sorted(set(alone.values()))))
        code8, err8, parallel = run(bindir, src, one_at_a_time, 8, os.path.join(d, "j8.json"))
        check(code8 == code1, "-j 8 exited %d, -j 1 exited %d" % (code8, code1))
        diff = sorted(k for k in set(alone) | set(parallel) if alone.get(k) != parallel.get(k))
        check(not diff, "-j 8 and -j 1 verdicts differ: %s" % ["%s@%s %s->%s" % (k[0], k[1], alone.get(k),
                                                                                 parallel.get(k)) for k in diff[:5]])
        check("failed to come up with" in err8 and "running at most" in err8,
              "-j 8 did not say it lowered its parallelism; stderr: %s" % err8[-600:])

        # After its first start (the preflight), every start fails: alone too, so no rerun helps.
        marker = os.path.join(d, "started-once")
        once_only = "if [ -e %s ]; then exit 3; fi; touch %s; exec %s" % (marker, marker, server_bin)
        code, err, verdicts = run(bindir, src, once_only, 8, os.path.join(d, "once.json"))
        bad = [k for k, v in verdicts.items() if v not in ("fail", "error", "skip")]
        check(code == 1 and verdicts and not bad,
              "a server that never starts again: exit %d (want 1), not failed: %s" % (code, bad[:5]))
        check("its own failure" in err, "the run did not say the failures were the scenarios' own: %s" % err[-600:])

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
