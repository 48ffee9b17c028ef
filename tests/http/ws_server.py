#!/usr/bin/env python3
"""WebSocket front for mcpspec-testserver (RFC 6455, Python standard library only), to test
mcpspec's WebSocket transport: one JSON-RPC message per text frame, one stdio test server per
connection. Listens on 127.0.0.1:$PORT (or --port).

  ws_server.py --backend CMD [--port N] [--ping] [--outlive-backend]
      --ping: send a ping before every message
      --outlive-backend: keep a connection open after its backend has gone (frames for it are
      dropped), a planted fault for tests that must catch a wait that never ends
"""
import argparse
import base64
import hashlib
import os
import socket
import struct
import subprocess
import sys
import threading

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode, payload):
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 65536:
        head += bytes([126]) + struct.pack(">H", n)
    else:
        head += bytes([127]) + struct.pack(">Q", n)
    return head + payload


def read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def read_frame(sock):
    b0, b1 = read_exact(sock, 2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", read_exact(sock, 2))[0]
    elif n == 127:
        n = struct.unpack(">Q", read_exact(sock, 8))[0]
    if not b1 & 0x80:
        raise ValueError("client frame not masked")
    mask = read_exact(sock, 4)
    data = bytearray(read_exact(sock, n))
    for i in range(n):
        data[i] ^= mask[i % 4]
    return b0 & 0x0F, bytes(data)


def serve(conn, args):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = conn.recv(4096)
        if not chunk:
            return
        head += chunk
    lines = head.decode("latin-1").split("\r\n")
    headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
    key = headers.get("sec-websocket-key")
    if headers.get("upgrade", "").lower() != "websocket" or not key:
        conn.sendall(b"HTTP/1.1 426 Upgrade Required\r\nContent-Length: 0\r\n\r\n")
        return
    accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
    extra = "Sec-WebSocket-Protocol: mcp\r\n" if "mcp" in headers.get("sec-websocket-protocol", "") else ""
    conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Accept: %s\r\n%s\r\n" % (accept, extra)).encode())
    backend = subprocess.Popen(args.backend, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()

    def pump_out():
        for line in backend.stdout:
            line = line.rstrip(b"\n")
            if not line:
                continue
            with lock:
                try:
                    if args.ping:
                        conn.sendall(frame(9, b"mcpspec"))
                    conn.sendall(frame(1, line))
                except OSError:
                    return

    t = threading.Thread(target=pump_out, daemon=True)
    t.start()
    try:
        while True:
            op, data = read_frame(conn)
            if op == 8:
                with lock:
                    conn.sendall(frame(8, data[:2]))
                break
            if op == 9:
                with lock:
                    conn.sendall(frame(10, data))
            elif op == 1:
                try:
                    backend.stdin.write(data + b"\n")
                    backend.stdin.flush()
                except OSError:
                    # Without the fault the broken pipe closes the connection; with it, whether the
                    # backend had already gone when a frame came no longer decides the outcome.
                    if not args.outlive_backend:
                        raise
    except (EOFError, OSError, ValueError):
        pass
    finally:
        try:
            backend.stdin.close()
        except OSError:
            pass
        try:
            backend.wait(timeout=2)
        except subprocess.TimeoutExpired:
            backend.kill()
            backend.wait()
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", required=True)
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "0")))
    ap.add_argument("--ping", action="store_true")
    ap.add_argument("--outlive-backend", action="store_true")
    args = ap.parse_args()
    if not 0 < args.port < 65536:
        print("ws_server.py: no valid port (--port or PORT)", file=sys.stderr)
        return 2
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", args.port))
    srv.listen(16)
    print("ws_server.py: listening on 127.0.0.1:%d" % args.port, file=sys.stderr, flush=True)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=serve, args=(conn, args), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
