#!/usr/bin/env python3
"""An MCP server over HTTP (mcpspec run --url) that misbehaves in one chosen way, for the
hostile-target tests (hostile_check.py): `hostile_http.py MODE PORT-FILE` listens on a free
loopback port, writes the port number to PORT-FILE and serves until killed. Built on the
standard library's http.server."""
import http.server
import os
import socketserver
import sys
import time


def sleep_forever():
    while True:
        time.sleep(3600)


class Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = ""

    def log_message(self, *args):
        pass

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_POST(self):
        self.read_body()
        getattr(self, "mode_" + self.mode.replace("-", "_"))()

    do_GET = do_POST
    do_DELETE = do_POST

    def mode_refuse(self):
        # Answers every request at once with 405 (the upstream of the proxy's own-end test:
        # what passes the proxy's guard gets an answer).
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def mode_silent(self):
        # Accepts the request and never answers.
        sleep_forever()

    def mode_endless_sse(self):
        # A 200 event stream that never ends and never carries the answer.
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        while True:
            self.wfile.write(b": keep-alive\n\n" + b'event: message\ndata: {"jsonrpc":"2.0","method":"x"}\n\n')
            self.wfile.flush()
            time.sleep(0.001)

    def mode_huge_headers(self):
        # 64 MiB of response headers, written in 1 MiB headers, then nothing.
        self.send_response(200)
        value = "h" * (1 << 20)
        for i in range(64):
            self.send_header(f"X-Huge-{i}", value)
            self.flush_headers()
        self.end_headers()
        sleep_forever()

    def mode_redirect_loop(self):
        self.send_response(307)
        self.send_header("Location", self.path)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def mode_slowloris(self):
        # A valid-looking answer, one byte a second.
        reply = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n"
                 + b'{"jsonrpc":"2.0","id":0,"result":{}}')
        for byte in reply:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(1)
        sleep_forever()


MODES = ["refuse", "silent", "endless-sse", "huge-headers", "redirect-loop", "slowloris"]


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in MODES:
        sys.exit("usage: hostile_http.py " + "|".join(MODES) + " PORT-FILE")
    Hostile.mode = sys.argv[1]
    server = Server(("127.0.0.1", 0), Hostile)
    tmp = sys.argv[2] + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, sys.argv[2])
    server.serve_forever()
