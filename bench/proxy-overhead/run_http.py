#!/usr/bin/env python3
"""Round-trip latency through `mcpspec proxy --listen --upstream` against a bare HTTP connection to
the same server, in the same run (bench/proxy-overhead/README.md).

The server is a minimal Streamable HTTP endpoint in this script (one JSON answer per POST, no
work), so the figures are the HTTP path's own: client -> server directly, and client -> proxy ->
server (the proxy judges each message and writes a trace). ROUNDS pings one at a time on one
keep-alive connection per setup; the two setups alternate in BLOCKS so load hits both alike.

  run_http.py BINDIR [ROUNDS] [BLOCKS]
"""
import http.client
import http.server
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BIN = os.path.abspath(sys.argv[1])
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 500
BLOCKS = int(sys.argv[3]) if len(sys.argv) > 3 else 4


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are written apart: no 40 ms delayed-ACK stalls

    def log_message(self, *a):
        pass

    def do_POST(self):
        m = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if m.get("method") == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "bench", "version": "1"}}
        else:
            result = {}
        if "id" not in m:
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": result}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Mcp-Session-Id", "bench")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Client:
    def __init__(self, port):
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.n = 0
        self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}})
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, m):
        # bytes: http.client then sends headers and body in one write (no Nagle/delayed-ACK stall)
        self.c.request("POST", "/mcp", body=json.dumps(m).encode(), headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Session-Id": "bench"})
        r = self.c.getresponse()
        r.read()
        return r.status

    def ping_ms(self):
        self.n += 1
        t = time.perf_counter()
        self.post({"jsonrpc": "2.0", "id": self.n, "method": "ping"})
        return (time.perf_counter() - t) * 1000


def main():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    upstream = f"http://127.0.0.1:{srv.server_address[1]}/mcp"
    with tempfile.TemporaryDirectory() as d:
        proxy = subprocess.Popen([os.path.join(BIN, "mcpspec"), "proxy", "--listen", "127.0.0.1:0", "--upstream", upstream,
                                  "--record", os.path.join(d, "trace.jsonl"), "--findings", os.path.join(d, "findings")],
                                 stderr=subprocess.PIPE, text=True)
        line = proxy.stderr.readline()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        bare, through = Client(srv.server_address[1]), Client(port)
        times = {"bare": [], "proxy": []}
        for _ in range(BLOCKS):
            for name, c in (("bare", bare), ("proxy", through)):
                times[name] += [c.ping_ms() for _ in range(ROUNDS // BLOCKS)]
        proxy.send_signal(signal.SIGINT)
        proxy.wait(timeout=30)
    srv.shutdown()
    med = {k: statistics.median(v) for k, v in times.items()}
    p95 = {k: statistics.quantiles(v, n=20)[18] for k, v in times.items()}
    print(f"HTTP ping round trip, {ROUNDS} each, {BLOCKS} alternating blocks:")
    for k in ("bare", "proxy"):
        print(f"  {k:6} median {med[k]:.3f} ms   p95 {p95[k]:.3f} ms")
    print(f"  added by the proxy: {med['proxy'] - med['bare']:.3f} ms per round trip (median), "
          f"{med['proxy'] / med['bare']:.2f}x the bare connection")


if __name__ == "__main__":
    main()
