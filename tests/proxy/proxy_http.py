#!/usr/bin/env python3
"""`mcpspec proxy --listen --upstream` (HTTP), end to end (docs/proxy.md).

    proxy_http.py BINDIR correct   a scripted host talks Streamable HTTP through the proxy to a small
                                   server written here (JSON answers, an SSE answer, a pretty-printed
                                   JSON answer, 202 for a notification, a GET stream, DELETE), in two
                                   MCP sessions: every status, body and session header reaches the
                                   host as the server sent it, there is no finding, the trace holds
                                   each message with its HTTP facts and session number and judges the
                                   same offline, the report has one result per session, SIGINT ends
                                   the proxy with exit 0
    proxy_http.py BINDIR wrong-id  the server answers tools/list (on an SSE stream) with another id:
                                   a BASE-06 finding on that s2c message, live and offline alike, and
                                   exit 1
    proxy_http.py BINDIR upstream-down
                                   nothing listens upstream: the host gets 502 naming the upstream,
                                   the proxy keeps serving and ends cleanly
    proxy_http.py BINDIR bad-input usage errors name what is wrong and exit 2
"""
import http.client
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from proxy_support import finding_lines, free_port, offline

DEADLINE_S = 20


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def make_server(fault):
    sessions = []

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def reply(self, status, body=b"", ctype="application/json", extra=None):
            self.send_response(status)
            if body or ctype:
                self.send_header("Content-Type", ctype)
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            m = json.loads(body)
            method = m.get("method")
            if method == "initialize":
                sid = f"session-{len(sessions) + 1}"
                sessions.append(sid)
                result = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}, "logging": {}},
                          "serverInfo": {"name": "http-test", "version": "1"}}
                self.reply(200, json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": result}).encode(),
                           extra={"Mcp-Session-Id": sid})
            elif "id" not in m:
                self.reply(202, b"", ctype=None)
            elif method == "tools/list":
                rid = m["id"] + 1000 if fault == "wrong-id" else m["id"]
                answer = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"tools": []}})
                event = f"id: e1\ndata: {answer}\n\n".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for part in (event[:10], event[10:]):  # one event over two chunks
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                    self.wfile.flush()
                    time.sleep(0.05)
                self.wfile.write(b"0\r\n\r\n")
            elif method == "ping":  # pretty-printed: legal over HTTP
                self.reply(200, json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {}}, indent=2).encode())
            else:
                self.reply(200, json.dumps({"jsonrpc": "2.0", "id": m["id"],
                                            "error": {"code": -32601, "message": "no"}}).encode())

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                               "params": {"level": "info", "data": "hi"}})
            try:
                for part in (b": keep-alive\n\n", f"data: {note}\n\n".encode()):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                    self.wfile.flush()
                time.sleep(DEADLINE_S)  # a stream that stays open; the host closes it
            except OSError:
                pass

        def do_DELETE(self):
            self.reply(200, b"", ctype=None)

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def start_proxy(mcpspec, upstream, d, extra=()):
    findings, trace, report = (os.path.join(d, n) for n in ("findings", "trace.jsonl", "report.json"))
    p = subprocess.Popen([mcpspec, "proxy", "--listen", "127.0.0.1:0", "--upstream", upstream, "--findings", findings,
                          "--record", trace, "--report", f"json:{report}", *extra],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    if "listening on http://127.0.0.1:" not in line:
        p.kill()
        fail(f"the proxy did not say where it listens: {line!r}")
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    return p, port, findings, trace, report


def stop_proxy(p):
    p.send_signal(signal.SIGINT)
    try:
        return p.wait(timeout=DEADLINE_S)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("the proxy did not end within 20 s of SIGINT")


def post(port, body, session=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=DEADLINE_S)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
    c.request("POST", "/mcp", body=json.dumps(body), headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, r.getheader("Content-Type"), r.getheader("Mcp-Session-Id"), data


def host_session(port, n):
    """One MCP session as a host runs it; returns what it received, in order."""
    got = []
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": f"host{n}", "version": "1"}}}
    status, ctype, sid, data = post(port, init)
    got.append((status, ctype, sid, data))
    if not sid:
        fail(f"the initialize answer lost its Mcp-Session-Id header: {status} {data!r}")
    for msg in ({"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                {"jsonrpc": "2.0", "id": 3, "method": "ping"}):
        got.append(post(port, msg, sid))
    # The GET stream: its first event arrives while the stream stays open; the host then closes it.
    s = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE_S)
    s.sendall(f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {sid}\r\n\r\n".encode())
    buf = b""
    while b"notifications/message" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            fail(f"the GET stream ended before its event: {buf!r}")
        buf += chunk
    s.close()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=DEADLINE_S)
    c.request("DELETE", "/mcp", headers={"Mcp-Session-Id": sid})
    r = c.getresponse()
    r.read()
    got.append(("DELETE", r.status))
    return got


def correct_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    srv = make_server(None)
    upstream = f"http://127.0.0.1:{srv.server_address[1]}"
    direct = host_session(srv.server_address[1], 0)
    with tempfile.TemporaryDirectory() as d:
        p, port, findings, trace, report = start_proxy(mcpspec, upstream, d)
        proxied = [host_session(port, 1), host_session(port, 2)]
        code = stop_proxy(p)
        for got in proxied:
            # Session ids differ per session; everything else must be what the server sent directly.
            norm = [(x[0], x[1], bool(x[2]), x[3]) if len(x) == 4 else x for x in got]
            want = [(x[0], x[1], bool(x[2]), x[3]) if len(x) == 4 else x for x in direct]
            if norm != want:
                fail(f"through the proxy the host got {norm}, directly {want}")
        live = finding_lines(findings)
        if live or code != 0:
            fail(f"a correct server gave findings {live} (exit {code})")
        with open(trace) as f:
            entries = [json.loads(l) for l in f]
        messages = [e for e in entries if e["text"]]
        sessions = {e["http"]["session"] for e in messages}
        if sessions != {1, 2} or not all("http" in e for e in entries):
            fail(f"the trace does not name the two sessions on every message: {sessions}")
        sse = [e for e in messages if e["http"].get("sse_id") == "e1"]
        if len(sse) != 2 or sse[0]["dir"] != "s2c":
            fail(f"the SSE answers are not in the trace with their event id: {sse}")
        if not any(e["http"].get("method") == "GET" for e in entries):
            fail("the GET request is not in the trace")
        rc, off = offline(mcpspec, trace)
        if rc != 0 or off:
            fail(f"validate --trace of a clean trace: exit {rc}, {off}")
        with open(report) as f:
            results = json.load(f)["results"]
        if sorted(r["id"] for r in results) != ["proxy-session-1", "proxy-session-2"] or any(
                r["verdict"] != "pass" for r in results):
            fail(f"the report should hold two passing sessions: {[(r['id'], r['verdict']) for r in results]}")
        print(f"ok: 2 sessions, {len(messages)} messages, identical answers, no finding")
    srv.shutdown()


def wrong_id_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    srv = make_server("wrong-id")
    with tempfile.TemporaryDirectory() as d:
        p, port, findings, trace, report = start_proxy(mcpspec, f"http://127.0.0.1:{srv.server_address[1]}/", d)
        host_session(port, 1)
        code = stop_proxy(p)
        live = finding_lines(findings)
        if code != 1 or not any(" s2c " in l and "BASE-06" in l for l in live):
            fail(f"the wrong id was not a MUST finding on the server's message (exit {code}): {live}")
        rc, off = offline(mcpspec, trace)
        if rc != 1 or off != live:
            fail(f"offline judging differs: live {live}, offline {off} (exit {rc})")
        print(f"ok: {live}")
    srv.shutdown()


def upstream_down_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    dead = free_port()  # nothing listens there
    with tempfile.TemporaryDirectory() as d:
        p, port, _, _, _ = start_proxy(mcpspec, f"http://127.0.0.1:{dead}/mcp", d)
        for _ in range(2):  # the proxy keeps serving after a failed exchange
            status, _, _, data = post(port, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "h", "version": "1"}}})
            if status != 502 or f"127.0.0.1:{dead}" not in data.decode():
                fail(f"expected 502 naming the upstream, got {status} {data!r}")
        code = stop_proxy(p)
        if code != 0:
            fail(f"exit {code} after the upstream failures (no finding was made)")
        print("ok: 502 naming the upstream, twice; clean end")


def bad_input_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    cases = [
        (["--listen", "127.0.0.1:0"], "--upstream"),
        (["--listen", "127.0.0.1:99999", "--upstream", "http://127.0.0.1:1/"], "99999"),
        (["--listen", "127.0.0.1:0", "--upstream", "https://example.org/"], "https"),
        (["--listen", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1/", "--", "cat"], "stdio"),
    ]
    for args, word in cases:
        r = subprocess.run([mcpspec, "proxy", *args], capture_output=True, text=True, timeout=DEADLINE_S)
        if r.returncode != 2 or word not in r.stderr:
            fail(f"proxy {args}: exit {r.returncode}, {r.stderr!r} (expected 2 and {word!r})")
    # A port in use: the message names the address.
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    busy = s.getsockname()[1]
    r = subprocess.run([mcpspec, "proxy", "--listen", f"127.0.0.1:{busy}", "--upstream", "http://127.0.0.1:1/"],
                       capture_output=True, text=True, timeout=DEADLINE_S)
    s.close()
    if r.returncode != 2 or f"127.0.0.1:{busy}" not in r.stderr:
        fail(f"a port in use: exit {r.returncode}, {r.stderr!r}")
    print("ok")


if __name__ == "__main__":
    cases = {"correct": correct_case, "wrong-id": wrong_id_case, "upstream-down": upstream_down_case,
             "bad-input": bad_input_case}
    if len(sys.argv) != 3 or sys.argv[2] not in cases:
        print(__doc__)
        sys.exit(2)
    cases[sys.argv[2]](sys.argv[1])
