#!/usr/bin/env python3
"""Round-trip latency and throughput through `mcpspec proxy` against a bare pipe, in the same run
(bench/proxy-overhead/README.md).

Starts mcpspec-testserver directly (a bare pipe) and behind `mcpspec proxy --record`, does the
handshake, then times ROUNDS pings one at a time (send, wait for the answer) and one burst of
BURST pings written at once (throughput). The two setups alternate in BLOCKS so load on the
machine hits both alike. Prints medians, p95, the added latency per round trip and the ratios.

  run.py BINDIR [ROUNDS] [BURST] [BLOCKS]
"""
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 500
BURST = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
BLOCKS = int(sys.argv[4]) if len(sys.argv) > 4 else 4
TIMEOUT_S = 30


class Session:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.next_id = 1

    def send_all(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def wait_lines(self, n):
        deadline = time.monotonic() + TIMEOUT_S
        while self.buf.count(b"\n") < n:
            left = deadline - time.monotonic()
            r, _, _ = select.select([self.p.stdout], [], [], max(0, left))
            if not r:
                sys.exit(f"no answer within {TIMEOUT_S} s")
            chunk = os.read(self.p.stdout.fileno(), 1 << 20)
            if not chunk:
                sys.exit("the server's stdout ended")
            self.buf += chunk
        for _ in range(n):
            self.buf = self.buf[self.buf.index(b"\n") + 1:]

    def request(self, method, params=None):
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.next_id += 1
        return (json.dumps(msg) + "\n").encode()

    def handshake(self):
        self.send_all(self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                                  "clientInfo": {"name": "bench", "version": "1"}}))
        self.wait_lines(1)
        self.send_all(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=TIMEOUT_S)


def measure(cmd):
    s = Session(cmd)
    s.handshake()
    rtts = []
    for _ in range(ROUNDS):
        line = s.request("ping")
        t0 = time.perf_counter()
        s.send_all(line)
        s.wait_lines(1)
        rtts.append((time.perf_counter() - t0) * 1e6)
    burst = b"".join(s.request("ping") for _ in range(BURST))
    t0 = time.perf_counter()
    s.send_all(burst)
    s.wait_lines(BURST)
    rate = BURST / (time.perf_counter() - t0)
    s.close()
    return rtts, rate


def p95(xs):
    return sorted(xs)[int(len(xs) * 0.95) - 1]


def main():
    server = [os.path.join(BIN, "mcpspec-testserver")]
    with tempfile.TemporaryDirectory() as d:
        proxied = [os.path.join(BIN, "mcpspec"), "proxy", "--record", os.path.join(d, "trace.jsonl"),
                   "--findings", os.path.join(d, "findings"), "--"] + server
        bare_rtt, proxy_rtt, bare_rate, proxy_rate = [], [], [], []
        for _ in range(BLOCKS):
            r, t = measure(server)
            bare_rtt += r
            bare_rate.append(t)
            r, t = measure(proxied)
            proxy_rtt += r
            proxy_rate.append(t)
        with open(os.path.join(d, "findings")) as f:
            findings = f.read().strip()
    bm, pm = statistics.median(bare_rtt), statistics.median(proxy_rtt)
    print(f"{ROUNDS * BLOCKS} pings one at a time, {BLOCKS} bursts of {BURST}")
    print(f"round trip, bare pipe:      median {bm:8.1f} us   p95 {p95(bare_rtt):8.1f} us")
    print(f"round trip, through proxy:  median {pm:8.1f} us   p95 {p95(proxy_rtt):8.1f} us")
    print(f"added per round trip:       median {pm - bm:8.1f} us   ratio {pm / bm:.2f}x")
    br, pr = statistics.median(bare_rate), statistics.median(proxy_rate)
    print(f"burst throughput: bare {br:,.0f} msg/s, proxy {pr:,.0f} msg/s (ratio {pr / br:.2f})")
    if findings:
        print("the proxy reported findings (unexpected for this traffic):\n" + findings)


if __name__ == "__main__":
    main()
