#!/usr/bin/env python3
"""A hostile client of one of mcpspec's own server ends: the Streamable HTTP, legacy HTTP+SSE or
WebSocket end mcpspec serves a client under test on (run as that client:
`mcpspec run --client 'hostile_ends.py {url} RESULTS' --transport http|sse|ws ...`), or the
`mcpspec proxy --listen` end (`hostile_ends.py --proxy MCPSPEC UPSTREAM RESULTS` starts the proxy
in front of UPSTREAM and ends it with SIGTERM after the attack; `--proxy-silent` sends one request
through it to an upstream that never answers instead). It attacks every bound of docs/security.md ("The
harness's own server ends") and writes what it saw to RESULTS, one JSON object: check name ->
"ok" or what went wrong. hostile_check.py turns each entry into a check. Standard library only.

The bounds it expects (harness/transport/http/request_guard.hpp): a foreign Host or Origin is
refused with 403, a loopback Origin is not; a head over 64 KiB gets 431 (the WebSocket end closes
without answering); a body over --max-message-bytes gets 413 (WebSocket: close status 1009); a
silent connection is closed by the end (after 5 s); with 64 connections open one more is refused
with 503."""
import json
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.parse

MAX_CONNECTIONS = 64
HEAD_LIMIT = 64 * 1024
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
PROXY_MAX_BODY = 64 * 1024 * 1024  # HttpProxyOptions::max_request_body
PROXY_END_BOUND_S = 15
IDLE_BOUND_S = 15  # the end closes a silent connection after 5 s; this is our wait, not a timing claim


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.settimeout(10)
    return s


def read_status(s):
    """The status code of the answer on `s`, or None when the end closed without answering."""
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    if not data.startswith(b"HTTP/1.1 "):
        return None
    return int(data[9:12])


def request(port, path, headers, body=b"", method="GET"):
    """Sends one request with exactly these headers and returns the answer's status (None: none)."""
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    with connect(port) as s:
        s.sendall(head.encode() + body)
        return read_status(s)


def ws_headers(port, host=None):
    return [("Host", host or f"127.0.0.1:{port}"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Version", "13"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ("Sec-WebSocket-Protocol", "mcp")]


class Attack:
    def __init__(self, url, max_body):
        self.max_body = max_body
        u = urllib.parse.urlsplit(url)
        self.port = u.port
        self.path = u.path or "/"
        self.kind = "ws" if u.scheme == "ws" else "sse" if self.path.endswith("/sse") else "http"
        self.results = {}

    def headers(self, host=None, origin=None):
        h = ws_headers(self.port, host) if self.kind == "ws" else [
            ("Host", host or f"127.0.0.1:{self.port}"), ("Accept", "application/json, text/event-stream")]
        return h + ([("Origin", origin)] if origin else [])

    def expect(self, name, got, want):
        ok = got in want if isinstance(want, (set, tuple)) else got == want
        self.results[name] = "ok" if ok else f"answered {got}, expected {want}"

    def host_and_origin(self):
        p = self.port
        self.expect("foreign Host is 403", request(p, self.path, self.headers(host=f"evil.example:{p}")), 403)
        self.expect("rebinding Host (127.0.0.1.evil.example) is 403",
                    request(p, self.path, self.headers(host=f"127.0.0.1.evil.example:{p}")), 403)
        self.expect("Host with another port is 403", request(p, self.path, self.headers(host="127.0.0.1:1")), 403)
        self.expect("foreign Origin is 403", request(p, self.path, self.headers(origin="http://evil.example")), 403)
        self.expect("Origin null is 403", request(p, self.path, self.headers(origin="null")), 403)
        loopback = request(p, self.path, self.headers(host=f"localhost:{p}", origin="http://localhost:3000"))
        self.results["loopback Host and Origin are served"] = (
            "ok" if loopback not in (None, 403) else f"answered {loopback}")

    def big_head(self):
        filler = [(f"X-Filler-{i}", "x" * 2000) for i in range(HEAD_LIMIT // 2000 + 2)]
        got = request(self.port, self.path, self.headers() + filler)
        # The WebSocket end reads the head itself and closes the connection without an answer.
        self.expect("head over 64 KiB is refused", got, None if self.kind == "ws" else 431)

    def big_body(self):
        if self.kind == "ws":
            self.results["body over the message limit is refused"] = self.ws_oversize()
            return
        path = self.path if self.kind == "http" else self.path.replace("/sse", "/messages") + "?session_id=x"
        hdrs = self.headers() + [("Content-Type", "application/json"), ("Content-Length", str(self.max_body + 1))]
        self.expect("body over the message limit is refused", request(self.port, path, hdrs, b"{", "POST"), 413)

    def ws_oversize(self):
        head = f"GET {self.path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in self.headers()) + "\r\n"
        with connect(self.port) as s:
            s.sendall(head.encode())
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    return "the handshake was not answered"
                data += chunk
            if not data.startswith(b"HTTP/1.1 101"):
                return "the handshake was refused: " + data.split(b"\r\n")[0].decode()
            rest = data.split(b"\r\n\r\n", 1)[1]
            # A masked text frame announcing one byte more than the limit (64-bit length).
            s.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", self.max_body + 1) + b"\0\0\0\0")
            while len(rest) < 4:
                chunk = s.recv(4096)
                if not chunk:
                    return "the connection was closed without a close frame"
                rest += chunk
            if rest[0] != 0x88:
                return f"a frame with opcode {rest[0] & 0x0F} came instead of a close frame"
            code = struct.unpack(">H", rest[2:4])[0]
            return "ok" if code == 1009 else f"close status {code}, expected 1009"

    def idle(self, out):
        """A connection that says nothing must be closed by the end."""
        try:
            with connect(self.port) as s:
                s.settimeout(IDLE_BOUND_S)
                start = time.monotonic()
                data = s.recv(4096)
                out["silent connection is closed"] = "ok" if not data or data.startswith(b"HTTP/1.1 408") else \
                    f"the end sent {data[:40]!r} on a silent connection"
                print(f"a silent connection was closed after {time.monotonic() - start:.1f} s", file=sys.stderr)
        except socket.timeout:
            out["silent connection is closed"] = f"still open after {IDLE_BOUND_S} s"

    def too_many(self):
        held = []
        try:
            for _ in range(MAX_CONNECTIONS):
                held.append(connect(self.port))
            time.sleep(0.3)  # let the end accept them all
            got = request(self.port, self.path, self.headers())
            self.expect(f"connection {MAX_CONNECTIONS + 1} is 503", got, 503)
        finally:
            for s in held:
                s.close()

    def run(self):
        idle = {}
        t = threading.Thread(target=self.idle, args=(idle,))
        t.start()
        self.host_and_origin()
        self.big_head()
        self.big_body()
        t.join()
        self.results.update(idle)
        time.sleep(0.3)  # the end notices the connections above closed
        self.too_many()
        return self.results


def start_proxy(mcpspec, upstream):
    """Starts `mcpspec proxy --listen 127.0.0.1:0` and returns (process, its URL)."""
    proxy = subprocess.Popen([mcpspec, "proxy", "--listen", "127.0.0.1:0", "--upstream", upstream],
                             stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proxy.stderr.readline()  # "mcpspec proxy: listening on http://127.0.0.1:PORT/ for URL"
    threading.Thread(target=lambda: [print(l, end="", file=sys.stderr) for l in proxy.stderr], daemon=True).start()
    m = re.search(r"listening on (http://\S+/)", line)
    if not m:
        proxy.kill()
        sys.exit(f"the proxy did not start: {line!r}")
    return proxy, m.group(1) + "mcp"


def end_proxy(proxy, results):
    """SIGTERM, as a user ends it; it must be gone within the bound."""
    proxy.send_signal(signal.SIGTERM)
    try:
        code = proxy.wait(timeout=PROXY_END_BOUND_S)
        print(f"the proxy ended (exit {code})", file=sys.stderr)
    except subprocess.TimeoutExpired:
        results["the proxy ends on SIGTERM"] = f"still running {PROXY_END_BOUND_S} s after SIGTERM"
        proxy.kill()
        proxy.wait()


def silent_upstream(url, results):
    """The upstream accepts and never answers: the host's request hangs until the host gives up;
    the proxy must still end on SIGTERM (its open upstream request ended, not waited for)."""
    port = urllib.parse.urlsplit(url).port
    try:
        with connect(port) as s:
            s.settimeout(2)
            s.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                      f"Content-Length: 2\r\n\r\n{{}}".encode())
            data = s.recv(4096)
            results["a silent upstream is not answered for"] = "ok" if not data or b" 502 " in data[:20] else \
                f"the host got {data[:40]!r}"
    except socket.timeout:
        results["a silent upstream is not answered for"] = "ok"  # still waiting: the host gives up


def main():
    # hostile_ends.py URL RESULTS: attack URL (an end of `mcpspec run --client`).
    # hostile_ends.py --proxy MCPSPEC UPSTREAM RESULTS: start the HTTP proxy in front of UPSTREAM,
    #   attack its --listen end, then end it with SIGTERM.
    # hostile_ends.py --proxy-silent MCPSPEC UPSTREAM RESULTS: one request through the proxy to an
    #   upstream that never answers, then SIGTERM.
    args = sys.argv[1:]
    proxy = None
    results = {}
    try:
        if args and args[0] in ("--proxy", "--proxy-silent") and len(args) == 4:
            proxy, url = start_proxy(args[1], args[2])
            out = args[3]
            if args[0] == "--proxy":
                results = Attack(url, PROXY_MAX_BODY).run()
            else:
                silent_upstream(url, results)
        elif len(args) == 2:
            url, out = args
            results = Attack(url, MAX_MESSAGE_BYTES).run()
        else:
            sys.exit("usage: hostile_ends.py URL RESULTS.json | --proxy[-silent] MCPSPEC UPSTREAM RESULTS.json")
    except OSError as e:
        results["attack"] = f"broke off: {e}"
    finally:
        if proxy:
            end_proxy(proxy, results)
    results = dict(results)
    with open(out, "w") as f:
        json.dump(results, f, indent=1)
    for k, v in results.items():
        print(f"{k}: {v}", file=sys.stderr)


if __name__ == "__main__":
    main()
