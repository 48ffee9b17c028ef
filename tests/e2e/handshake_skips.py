#!/usr/bin/env python3
"""A scenario whose SKIP an earlier scenario's handshake already decided is not started.

The server under test is the test server with --profile tools-only (it declares tools only),
behind a wrapper that counts its starts. The resources scenarios require the resources capability,
so each is a SKIP. Checked:
- the run at -j 1 starts the server once for the preflight, once for every scenario that ran a
  handshake, and not at all for the scenarios the memo skipped (their wire log says "not started");
  at -j 1 every scenario skipped for an undeclared capability (but at most the first) is skipped
  that way (a memo that does nothing fails);
- every scenario's verdict and reason, at -j 1 and at -j 8, are those it gets in a run of its own
  (where no earlier handshake exists): a memo keyed or applied wrongly would skip a scenario that
  runs, or give another reason.

  handshake_skips.py BINDIR SOURCEDIR
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

GATED = "scenarios/mcp/resources"   # every scenario here requires the resources capability
OTHERS = ["scenarios/mcp/ping/answered-with-empty-result.json", "scenarios/mcp/tools/names-unique.json"]


def run(bindir, src, server, jobs, paths, report):
    cmd = [os.path.join(bindir, "mcpspec"), "run", "-q", "--server", server, "-j", str(jobs), "--timeout-ms", "3000",
           "--report", "json:" + report] + [os.path.join(src, p) for p in paths]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=240, cwd=src)
    with open(report) as fh:
        return json.load(fh)["results"]


def outcome(results):
    return {(r["id"], r["protocol"]): (r["verdict"], r.get("reason", "")) for r in results}


def not_started(r):
    return any(w.get("dir") == "event" and w.get("text", "").startswith("not started:") for w in r.get("wire", []))


def main():
    bindir, src = sys.argv[1], sys.argv[2]
    check = Checks("skips without a server start")
    server_bin = os.path.join(bindir, "mcpspec-testserver")
    suite = sorted(os.path.relpath(p, src) for p in glob.glob(os.path.join(src, GATED, "*.json"))) + OTHERS
    with tempfile.TemporaryDirectory() as d:
        count = os.path.join(d, "starts")
        server = "echo x >> %s; exec %s --profile tools-only" % (count, server_bin)
        alone = {}
        for i, p in enumerate(suite):
            alone.update(outcome(run(bindir, src, server, 1, [p], os.path.join(d, "alone%d.json" % i))))
        gated = [k for k, (verdict, reason) in alone.items() if verdict == "skip" and "does not declare" in reason]
        check(len(gated) >= 5, "only %d scenarios skipped for an undeclared capability (the suite changed?)" % len(gated))

        os.remove(count)
        results = run(bindir, src, server, 1, suite, os.path.join(d, "j1.json"))
        with open(count) as fh:
            starts = len(fh.readlines())
        memo = [r for r in results if not_started(r)]
        ran = [r for r in results if r.get("wire") and not not_started(r)]
        check(starts == 1 + len(ran), "%d server starts for %d scenarios that ran a session (+1 preflight); "
              "the %d skipped by the memo must start none" % (starts, len(ran), len(memo)))
        # A scenario run earlier with the same handshake (ping, tools) decides them all; else the first does.
        check(len(memo) >= len(gated) - 1 and all(r["verdict"] == "skip" for r in memo),
              "%d of the %d scenarios skipped for an undeclared capability were skipped without a start "
              "(want all but at most the first)" % (len(memo), len(gated)))
        parallel = outcome(run(bindir, src, server, 8, suite, os.path.join(d, "j8.json")))
        for name, got in (("-j 1", outcome(results)), ("-j 8", parallel)):
            diff = sorted(k for k in set(alone) | set(got) if alone.get(k) != got.get(k))
            check(not diff, "%s differs from each scenario run alone: %s" % (
                name, ["%s@%s %s -> %s" % (k[0], k[1], alone.get(k), got.get(k)) for k in diff[:4]]))
    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
