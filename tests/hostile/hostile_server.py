#!/usr/bin/env python3
"""A stdio MCP server under test that misbehaves in one chosen way (the first argument), for the
hostile-target tests (hostile_check.py). Every mode either never behaves or behaves just enough
(answers initialize and ping) for the harness to get past start-up and meet the fault in the
scenarios. Standard library only; nothing here holds a big message in memory."""
import json
import os
import signal
import sys
import threading
import time

OUT = sys.stdout.buffer
LOCK = threading.Lock()


def write(data: bytes):
    with LOCK:
        OUT.write(data)
        OUT.flush()


def answer(msg):
    """The minimal correct answer to a request, or None for a notification or a response."""
    if "id" not in msg or "method" not in msg:
        return None
    if msg["method"] == "initialize":
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        result = {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                  "capabilities": {"logging": {}}, "serverInfo": {"name": "hostile", "version": "1"}}
        return {"jsonrpc": "2.0", "id": msg["id"], "result": result}
    if msg["method"] == "ping":
        return {"jsonrpc": "2.0", "id": msg["id"], "result": {}}
    return {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no such method"}}


def requests():
    """The messages read from stdin, one per line, skipping what does not parse."""
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict):
            yield msg


def serve(rewrite=lambda reply: reply):
    for msg in requests():
        reply = answer(msg)
        if reply is not None:
            write(json.dumps(rewrite(reply)).encode() + b"\n")


def sleep_forever():
    while True:
        time.sleep(3600)


def in_background(fn):
    threading.Thread(target=fn, daemon=True).start()


def flood(put, line):
    """A loop that writes `line` with `put` at full speed, forever."""
    def run():
        while True:
            put(line)
    return run


def drain():
    for _ in sys.stdin.buffer:
        pass


def huge_line():
    # One response line of 1 GiB, written in 1 MiB pieces: the program holds one piece only.
    next(requests())
    chunk = b"a" * (1 << 20)
    write(b'{"jsonrpc":"2.0","id":0,"result":{"blob":"')
    for _ in range(1024):
        write(chunk)
    write(b'"}}\n')
    sleep_forever()


def fork_and_exit():
    # Children and grandchildren stay in the process group and keep stdout open, so the harness
    # never sees end-of-file from them; the leader answers start-up, then exits.
    for _ in range(3):
        if os.fork() == 0:
            if os.fork() == 0:
                sleep_forever()
            sleep_forever()
    msg = next(requests())
    write(json.dumps(answer(msg)).encode() + b"\n")
    os._exit(0)


def ignore_term():
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.fork() == 0:  # a child that ignores SIGTERM as well (inherited disposition)
        sleep_forever()
    serve()
    sleep_forever()  # stdin closed: a polite server would exit here


def exit_mid_message():
    next(requests())
    write(b'{"jsonrpc":"2.0","id":0,"result":{"protocolVer')
    os._exit(0)


def no_read():
    # Answers start-up, then never reads again: what the harness sends piles up in the pipe.
    msg = next(requests())
    write(json.dumps(answer(msg)).encode() + b"\n")
    sleep_forever()


def close_stdout():
    os.close(1)
    sys.stdout = None
    sleep_forever()


def wrong_ids():
    def shift(reply):
        asked = reply["id"]
        reply["id"] = asked + 1000 if isinstance(asked, int) else f"{asked}-never-asked"
        return reply
    # Start-up needs one message back: the first answer also goes out with an id never asked.
    serve(shift)


def notification_storm():
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                       "params": {"level": "info", "data": "storm"}}).encode() + b"\n"
    in_background(flood(write, note))
    serve()


def bad_utf8():
    for msg in requests():
        reply = answer(msg)
        if reply is None:
            continue
        text = json.dumps(reply).encode()
        # Bytes that are never valid UTF-8 inside a string value of the answer.
        write(text[:-1] + b', "junk": "\xff\xfe\xc0\xaf"}\n')


MODES = {
    "polite": serve,  # answers initialize and ping, as the host of a proxy case needs
    "hang": lambda: (in_background(drain), sleep_forever()),
    "no-read": no_read,
    "flood-stdout": flood(write, b"x" * 4095 + b"\n"),
    "flood-stderr": lambda: (in_background(flood(sys.stderr.buffer.write, b"e" * 4095 + b"\n")), serve()),
    "huge-line": huge_line,
    "bad-utf8": bad_utf8,
    "fork-and-exit": fork_and_exit,
    "ignore-term": ignore_term,
    "exit-mid-message": exit_mid_message,
    "close-stdout": close_stdout,
    "wrong-ids": wrong_ids,
    "notification-storm": notification_storm,
}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        sys.exit("usage: hostile_server.py " + "|".join(MODES))
    MODES[sys.argv[1]]()
