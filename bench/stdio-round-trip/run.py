#!/usr/bin/env python3
"""A request's round trip through the harness over stdio, against a bare pipe ping-pong.

  python3 bench/stdio-round-trip/run.py [--build build] [--n 2000] [--rounds 3]

Both sides talk to the same server, mcpspec-testserver over stdio, with `ping` requests:

- bare: mcpspec-bench-bare-ping-pong (bare_ping_pong.cpp, C++) writes a ping to the server's stdin
  and reads its answer line from stdout, N times in a row (after the handshake): a pipe ping-pong
  with nothing but a JSON dump and a line read per round trip;
- harness: `mcpspec run` of a scenario with N `{"request": {"method": "ping"}, "expect": ...}`
  steps; the time from the first ping written to the last answer read (the JSON report's wire log
  clock), divided by N, is one step's round trip: the request built, validated, logged and written,
  the answer framed, parsed, classified, judged by the monitors and the schema, selected and
  matched. Start-up and handshake are left out on both sides.

The two sides run alternately, --rounds times each. It prints microseconds per round trip for
both, their medians and the ratio (target: <= 1.3), and the bare side's own CPU per round trip (what
a round trip costs without waiting for the scheduler). Not run by ctest (timings are not tests).
"""
import argparse
import json
import resource
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BARE = lambda build: os.path.join(build, "bench", "stdio-round-trip", "mcpspec-bench-bare-ping-pong")


def bare_round_trip_us(build, server, n):
    """(wall, own CPU) microseconds per round trip of the C++ pipe ping-pong (bare_ping_pong.cpp)."""
    out = subprocess.run([BARE(build), server, str(n)],
                         capture_output=True, text=True, timeout=600, check=True).stdout.split()
    return float(out[0]), float(out[1])


def children_cpu_us():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (u.ru_utime + u.ru_stime) * 1e6


def cpu_per_round_trip_us(run, n):
    """CPU (us) of every process of one side (the client and the server, both reaped) per round trip:
    a run of n pings against one of n/4, so start-up and handshake cancel out (the harness's wire
    log and JSON report grow with n, so their share stays in)."""
    used = []
    for count in (n, n // 4):
        before = children_cpu_us()
        run(count)
        used.append(children_cpu_us() - before)
    return (used[0] - used[1]) / (n - n // 4)


def scenario(n):
    return {"id": "bench/ping-%d" % n, "title": "bench", "role": "server", "requirements": ["PING-01"],
            "level": "MUST", "steps": [{"request": {"method": "ping"}, "expect": {"result": {}}}] * n}


def harness_round_trip_us(build, server, n, tmp):
    path = os.path.join(tmp, "s", "ping.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    link = os.path.join(tmp, "s", "fixtures")
    if not os.path.exists(link):
        os.symlink(os.path.join(ROOT, "scenarios", "mcp", "fixtures"), link)
    with open(path, "w") as fh:
        json.dump(scenario(n), fh)
    report = os.path.join(tmp, "r.json")
    subprocess.run([os.path.join(build, "mcpspec"), "run", "-q", "-j", "1", "--server", server,
                    "--report", "json:" + report, path], stdout=subprocess.DEVNULL, timeout=600)
    with open(report) as fh:
        r = json.load(fh)["results"][0]
    if r["verdict"] != "pass":
        raise RuntimeError("the bench scenario did not pass: %s %s" % (r["verdict"], r["reason"]))
    # From the first ping written to the last answer read, by the wire log's clock: the steps
    # alone, without the start-up and handshake.
    pings = [w["t_ms"] for w in r["wire"] if w["dir"] == "out" and '"method":"ping"' in w["text"]]
    answers = [w["t_ms"] for w in r["wire"] if w["dir"] == "in"]
    if len(pings) != n:
        raise RuntimeError("the wire log holds %d pings, not %d (bounded: lower --n)" % (len(pings), n))
    return (answers[-1] - pings[0]) / n * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--n", type=int, default=2000, help="pings per side (at most 2400: the wire log keeps 5000 entries)")
    ap.add_argument("--rounds", type=int, default=9)
    a = ap.parse_args()
    server = os.path.join(os.path.abspath(a.build), "mcpspec-testserver")
    if not os.path.exists(server):
        print("missing %s (build it)" % server, file=sys.stderr)
        return 2
    if not os.path.exists(BARE(a.build)):
        print("missing %s (build it)" % BARE(a.build), file=sys.stderr)
        return 2
    bare, bare_cpu, harness = [], [], []
    with tempfile.TemporaryDirectory(prefix="mcpspec-rtt-") as tmp:
        for _ in range(a.rounds):
            wall, cpu = bare_round_trip_us(a.build, server, a.n)
            bare.append(wall)
            bare_cpu.append(cpu)
            harness.append(harness_round_trip_us(a.build, server, a.n, tmp))
            print("bare %.1f us (its CPU %.1f us), harness %.1f us per round trip" % (wall, cpu, harness[-1]),
                  flush=True)
        bare_cpu_all = cpu_per_round_trip_us(lambda k: bare_round_trip_us(a.build, server, k), a.n)
        harness_cpu_all = cpu_per_round_trip_us(lambda k: harness_round_trip_us(a.build, server, k, tmp), a.n)
    b, h = statistics.median(bare), statistics.median(harness)
    print("median of %d rounds, %d pings: bare pipe ping-pong %.1f us, through the harness %.1f us, "
          "ratio %.2f (target <= 1.3); the bare side's own CPU %.1f us per round trip"
          % (a.rounds, a.n, b, h, h / b, statistics.median(bare_cpu)))
    print("CPU per round trip, client and server together (n against n/4 pings): bare %.1f us, through the "
          "harness %.1f us, ratio %.2f" % (bare_cpu_all, harness_cpu_all, harness_cpu_all / bare_cpu_all))
    return 0


if __name__ == "__main__":
    sys.exit(main())
