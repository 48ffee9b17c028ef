#!/usr/bin/env python3
"""A request's round trip through the harness over stdio, against a bare pipe ping-pong.

  python3 bench/stdio-round-trip/run.py [--build build] [--n 2000] [--rounds 3]

Both sides talk to the same server, mcpspec-testserver over stdio, with `ping` requests:

- bare: this script writes a ping to the server's stdin and reads its answer line from stdout, N
  times in a row (after the handshake): a pipe ping-pong with nothing but a JSON dump and a line
  read per round trip;
- harness: `mcpspec run` of a scenario with N `{"request": {"method": "ping"}, "expect": ...}`
  steps; the time from the first ping written to the last answer read (the JSON report's wire log
  clock), divided by N, is one step's round trip: the request built, validated, logged and written,
  the answer framed, parsed, classified, judged by the monitors and the schema, selected and
  matched. Start-up and handshake are left out on both sides.

It prints microseconds per round trip for both and the ratio (target: <= 1.3). Medians of
--rounds. Not run by ctest (timings are not tests).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def bare_round_trip_us(server, n):
    p = subprocess.Popen([server], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         bufsize=0)
    out = p.stdout

    def call(msg):
        p.stdin.write((json.dumps(msg) + "\n").encode())
        return out.readline()

    call({"jsonrpc": "2.0", "id": 0, "method": "initialize",
          "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}})
    p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    t0 = time.perf_counter()
    for i in range(1, n + 1):
        line = call({"jsonrpc": "2.0", "id": i, "method": "ping"})
        if not line:
            raise RuntimeError("the server closed its output")
    took = time.perf_counter() - t0
    p.stdin.close()
    p.wait(timeout=10)
    return took / n * 1e6


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
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    server = os.path.join(os.path.abspath(a.build), "mcpspec-testserver")
    if not os.path.exists(server):
        print("missing %s (build it)" % server, file=sys.stderr)
        return 2
    bare, harness = [], []
    with tempfile.TemporaryDirectory(prefix="mcpspec-rtt-") as tmp:
        for _ in range(a.rounds):
            bare.append(bare_round_trip_us(server, a.n))
            harness.append(harness_round_trip_us(a.build, server, a.n, tmp))
            print("bare %.1f us, harness %.1f us per round trip" % (bare[-1], harness[-1]), flush=True)
    b, h = statistics.median(bare), statistics.median(harness)
    print("median of %d rounds, %d pings: bare pipe ping-pong %.1f us, through the harness %.1f us, "
          "ratio %.2f (target <= 1.3)" % (a.rounds, a.n, b, h, h / b))
    return 0


if __name__ == "__main__":
    sys.exit(main())
