#!/usr/bin/env python3
"""The default run against server-everything: wall time against the floor the server sets.

  python3 bench/default-run/run.py [--build build] [--transports stdio,http] [--jobs default,1]
                                   [--keep DIR] [--json out.json]

Runs `mcpspec run` with the generic suite (scenarios/mcp, its default --call-tools readonly) against
@modelcontextprotocol/server-everything over stdio (a server process per scenario) and over
Streamable HTTP (one server process, bound to 127.0.0.1 by tests/http/loopback-preload.cjs), and
with --transports stdio-pretty over stdio with its output pretty-printed (pretty_print.py: every
message over several lines, which cannot be framed), once per --jobs value ("default" means no -j: mcpspec's own choice). Measured per run: wall time (GNU
time -v), the verdict counts, and from the JSON report's wire log the time the server spent on
tools/call requests that took 5 s or more (its slow tools: waits no tester can shorten):

- slow sum: all such calls of the run added up (what a run at --jobs 1 cannot go below);
- slow floor: the largest such sum within one scenario (what no parallelism can go below);
- CPU: what mcpspec and every process it started used (over stdio the server processes too: a
  process per scenario), divided by the cores: the floor a machine of that size sets.

It prints wall / slow floor, wall / slow sum and wall(default) / wall(--jobs 1), and whether every
run gave the same id/protocol/verdict list (the verdicts must not depend on --jobs). Not a test:
timings do not belong in ctest. Needs `cd tests && npm ci`.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "vs-official"))
from run import EVERYTHING, NODE, Server  # noqa: E402  (the same server start as bench/vs-official)

sys.path.insert(0, HERE)
from verdicts import compare, verdict_list  # noqa: E402

SLOW_MS = 5000  # a tools/call answered after this long counts as the server's own wait (fast tools on a
#                busy machine can take a second)


def slow_calls(report):
    """Per scenario: the durations (ms) of its tools/call requests answered after SLOW_MS or more."""
    out = {}
    for r in report["results"]:
        sent = {}
        for w in r.get("wire", []):
            text = w.get("text", "")
            if w.get("dir") not in ("out", "in") or not text.startswith("{"):
                continue
            try:
                msg = json.loads(text)
            except ValueError:
                continue
            if not isinstance(msg, dict) or "id" not in msg:
                continue
            key = json.dumps(msg["id"])
            if w["dir"] == "out" and msg.get("method") == "tools/call":
                sent[key] = w["t_ms"]
            elif w["dir"] == "in" and "method" not in msg and key in sent:
                took = w["t_ms"] - sent.pop(key)
                if took >= SLOW_MS:
                    out.setdefault(r["id"] + " @" + r["protocol"], []).append(took)
    return out


def run_once(build, transport, jobs, report_path):
    cmd = [os.path.join(build, "mcpspec"), "run", "--report", "json:" + report_path, "-q"]
    if jobs != "default":
        cmd += ["-j", str(jobs)]
    server = None
    node = NODE if os.path.exists(NODE) else "node"
    if transport == "stdio":
        cmd += ["--server", "%s %s stdio" % (node, EVERYTHING)]
    elif transport == "stdio-pretty":
        # The same server with every message pretty-printed over several lines: output that cannot
        # be framed (STDIO-02), which must fail fast rather than wait out every step's timeout.
        cmd += ["--server", "%s %s stdio | %s -u %s" % (node, EVERYTHING, sys.executable,
                                                        os.path.join(HERE, "pretty_print.py"))]
    else:
        server = Server()
        cmd += ["--url", server.url]
    cmd.append(os.path.join(ROOT, "scenarios", "mcp"))
    try:
        t0 = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-v"] + cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=1800)
        wall = time.monotonic() - t0
    finally:
        if server:
            server.stop()
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    u = re.search(r"User time \(seconds\): ([0-9.]+)", p.stderr)
    k = re.search(r"System time \(seconds\): ([0-9.]+)", p.stderr)
    with open(report_path) as fh:
        report = json.load(fh)
    slow = slow_calls(report)
    counts = {}
    for r in report["results"]:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    notes = [line for line in p.stderr.splitlines() if line.startswith("mcpspec:")]
    return {"transport": transport, "jobs": jobs, "wall_s": wall, "exit": p.returncode,
            "rss_mb": int(m.group(1)) / 1024.0 if m else float("nan"),
            # mcpspec and every process it started (stdio: the servers too), user + system
            "cpu_s": float(u.group(1)) + float(k.group(1)) if u and k else float("nan"),
            "slow_sum_s": sum(sum(v) for v in slow.values()) / 1000.0,
            "slow_floor_s": max((sum(v) for v in slow.values()), default=0) / 1000.0,
            "slow_scenarios": len(slow), "counts": counts, "notes": notes, "report": report_path,
            "verdicts": verdict_list(report)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--transports", default="stdio,http")
    ap.add_argument("--jobs", default="default,1", help="comma-separated -j values; 'default' is mcpspec's own choice")
    ap.add_argument("--keep", help="folder for the JSON reports (default: a temporary one)")
    ap.add_argument("--json", help="write the measurements here")
    a = ap.parse_args()
    for need in (EVERYTHING, os.path.join(a.build, "mcpspec")):
        if not os.path.exists(need):
            print("missing %s (build mcpspec; cd tests && npm ci)" % need, file=sys.stderr)
            return 2
    keep = a.keep or tempfile.mkdtemp(prefix="mcpspec-default-run-")
    os.makedirs(keep, exist_ok=True)
    rows = []
    for transport in a.transports.split(","):
        for jobs in a.jobs.split(","):
            r = run_once(a.build, transport, jobs, os.path.join(keep, "%s-j%s.json" % (transport, jobs)))
            rows.append(r)
            print("%-5s -j %-7s wall %6.2f s  CPU %5.1f s  peak RSS %5.1f MB  slow tool calls: %d scenarios, sum %5.1f s, "
                  "floor %5.1f s  exit %d  %s" % (transport, jobs, r["wall_s"], r["cpu_s"], r["rss_mb"], r["slow_scenarios"],
                                                   r["slow_sum_s"], r["slow_floor_s"], r["exit"],
                                                   " ".join("%s=%d" % kv for kv in sorted(r["counts"].items()))),
                  flush=True)
            for n in r["notes"]:
                print("      " + n)
    print("\nratios (same run):")
    ratio = lambda a, b: "%5.2f" % (a / b) if b > 0 else "  n/a"
    cores = os.cpu_count() or 1
    for transport in a.transports.split(","):
        mine = [r for r in rows if r["transport"] == transport]
        first = mine[0]
        for r in mine:
            print("  %-5s -j %-7s wall/slow floor %s  wall/slow sum %s  wall/(CPU/%d cores) %s  wall/wall(-j %s) %s"
                  % (transport, r["jobs"], ratio(r["wall_s"], first["slow_floor_s"]), ratio(r["wall_s"], r["slow_sum_s"]),
                     cores, ratio(r["wall_s"], r["cpu_s"] / cores), first["jobs"], ratio(r["wall_s"], first["wall_s"])))
        for r in mine[1:]:
            diff = compare(first["verdicts"], r["verdicts"])
            print("  %-5s verdicts -j %s vs -j %s: %s" % (transport, first["jobs"], r["jobs"],
                                                        "identical" if not diff else "%d differ" % len(diff)))
            for d in diff[:20]:
                print("      " + d)
    # Output that cannot be framed must fail fast: its wall against the correct server's, same -j.
    for r in rows:
        if r["transport"] == "stdio-pretty":
            for c in rows:
                if c["transport"] == "stdio" and c["jobs"] == r["jobs"]:
                    print("  unframeable output: wall stdio-pretty/stdio at -j %s %s (target <= 2)"
                          % (r["jobs"], ratio(r["wall_s"], c["wall_s"])))
    print("reports in " + keep)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump([{k: v for k, v in r.items() if k != "verdicts"} for r in rows], fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
