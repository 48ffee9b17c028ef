#!/usr/bin/env python3
"""Loopback load on a reference system's Streamable HTTP end: N concurrent sessions, each
initializing, then sending ping and tools/list back to back for a bounded time. Prints requests,
errors, latency and the server's resident memory over the run (flat memory: the last samples are
not above the first ones after warm-up by more than a margin).

  python3 bench/http-load/load.py build                 # 200 sessions, 30 s, tamamo-x-mcp
  python3 bench/http-load/load.py build --sessions 50 --seconds 10

Timings are figures, not pass/fail: exit 1 only for errors (a failed or refused request, a
server that died) or memory still growing at the end.
"""
import argparse
import http.client
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "load", "version": "1"}}}


def rss_kb(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Session(threading.Thread):
    def __init__(self, port: int, stop_at: float):
        super().__init__(daemon=True)
        self.port, self.stop_at = port, stop_at
        self.ok = 0
        self.errors = []
        self.latencies = []

    def post(self, conn, body, session=None):
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                   "MCP-Protocol-Version": "2025-06-18"}
        if session:
            headers["Mcp-Session-Id"] = session
        started = time.monotonic()
        conn.request("POST", "/mcp", json.dumps(body), headers)
        res = conn.getresponse()
        data = res.read()
        self.latencies.append(time.monotonic() - started)
        if res.status not in (200, 202):
            raise RuntimeError(f"HTTP {res.status}: {data[:200]!r}")
        if res.getheader("Connection", "").lower() == "close":
            conn.close()  # the server ended keep-alive: the next request reconnects
        return res, data

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            res, _ = self.post(conn, INIT)
            session = res.getheader("Mcp-Session-Id")
            self.post(conn, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
            n = 2
            while time.monotonic() < self.stop_at:
                method = "ping" if n % 2 else "tools/list"
                _, data = self.post(conn, {"jsonrpc": "2.0", "id": n, "method": method}, session)
                if "result" not in json.loads(data):
                    raise RuntimeError(f"{method}: {data[:200]!r}")
                self.ok += 1
                n += 1
            conn.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
            conn.getresponse().read()
        except Exception as e:  # every failure is counted and shown, none stops the others
            self.errors.append(f"{type(e).__name__}: {e}")
        finally:
            conn.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", help="build folder holding tamamo-x-mcp")
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30)
    args = ap.parse_args()
    binary = (pathlib.Path(args.bin) / "tamamo-x-mcp").resolve()
    upstream = binary.parent / "tamamo-x-demo-upstream"
    work = tempfile.mkdtemp(prefix="http-load-")
    # As the default run starts it (scenarios/targets.json): one stdio upstream, whose tools it lists.
    server = subprocess.Popen([str(binary), "mcp", "--transport", "http", "--port", "0",
                               "--server", f"demo={upstream}"], cwd=work,
                              stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        m, line = None, ""
        for _ in range(20):  # start-up lines (one per upstream), then the address
            line = server.stderr.readline().decode()
            m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/mcp", line)
            if m or not line:
                break
        if not m:
            print(f"load: tamamo-x-mcp did not start: {line.strip()}", file=sys.stderr)
            return 1
        threading.Thread(target=lambda: server.stderr.read(), daemon=True).start()
        port = int(m.group(1))
        stop_at = time.monotonic() + args.seconds
        sessions = [Session(port, stop_at) for _ in range(args.sessions)]
        for s in sessions:
            s.start()
        samples = []
        while any(s.is_alive() for s in sessions) and time.monotonic() < stop_at + 60:
            samples.append(rss_kb(server.pid))
            time.sleep(1)
        alive = server.poll() is None
    finally:
        os.killpg(server.pid, 9)
        server.wait()
    ok = sum(s.ok for s in sessions)
    errors = [e for s in sessions for e in s.errors]
    lat = sorted(x for s in sessions for x in s.latencies)
    quarter = max(1, len(samples) // 4)
    warm, last = samples[quarter:2 * quarter] or samples, samples[-quarter:]
    growth = max(last) - max(warm)
    print(f"sessions {args.sessions}, {args.seconds:.0f} s: {ok} requests answered ({ok / args.seconds:.0f}/s), "
          f"{len(errors)} error(s); latency median {lat[len(lat) // 2] * 1000:.1f} ms, "
          f"p99 {lat[int(len(lat) * 0.99)] * 1000:.1f} ms")
    print(f"server RSS (MB) per second: first {samples[0] / 1024:.1f}, after warm-up max {max(warm) / 1024:.1f}, "
          f"last quarter max {max(last) / 1024:.1f}, overall max {max(samples) / 1024:.1f}")
    for e in errors[:10]:
        print("  error:", e)
    flat = growth <= max(2048, max(warm) // 10)  # 2 MB or 10 %
    if not alive:
        print("load: the server died during the run")
    if not flat:
        print(f"load: memory still growing: +{growth / 1024:.1f} MB over the last quarter")
    return 0 if alive and not errors and flat else 1


if __name__ == "__main__":
    sys.exit(main())
