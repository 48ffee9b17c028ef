#!/usr/bin/env python3
"""Black-box self-check of mcpspec-testserver (python3 standard library only).

Part 1 drives the correct server through every behaviour its README promises, for all four
legacy protocol revisions and all three profiles, the stateless 2026-07-28 requests (and
--modern-only), plus hostile input. Part 2 starts the server once
per fault and shows that the injected bug is really on the wire (a fault that silently does
nothing would make the harness's end-to-end tests meaningless). It also checks that
faults.json and --list-faults name the same faults.

Optionally (--schemas DIR, and only when the python `jsonschema` package is importable) every
message of a scripted session per revision is validated against the official schemas of the
specification: read-only use for a cross-check, as the project allows.

usage: selfcheck.py PATH/TO/mcpspec-testserver PATH/TO/faults.json [--schemas DIR] [-k SUBSTRING]
"""
import argparse
import base64
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
import zlib

VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
LATEST = "2025-11-25"
BINARY = None
FAILURES = []
CHECKS = 0


class Timeout(Exception):
    pass


def check(cond, what):
    global CHECKS
    CHECKS += 1
    if not cond:
        FAILURES.append(what)
        print("  FAIL: " + what, flush=True)
    return cond


class Server:
    """One server process; stdout is read by a thread into a queue of raw lines."""

    def __init__(self, *args):
        self.p = subprocess.Popen([BINARY, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._pump, daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        self.next_id = 1000
        self.seen = []  # every parsed message, for the schema cross-check

    def _pump(self):
        while True:
            line = self.p.stdout.readline()
            if not line:
                break
            self.lines.put(line)
        self.lines.put(None)

    def _drain_stderr(self):
        for line in self.p.stderr:
            self.stderr.append(line)

    def send(self, msg):
        data = msg if isinstance(msg, bytes) else json.dumps(msg).encode()
        try:
            self.p.stdin.write(data + b"\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            pass

    def raw(self, timeout=3.0):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Timeout()
        if line is None:
            self.lines.put(None)  # stay at EOF for later readers
            return None
        return line

    def recv(self, timeout=3.0):
        line = self.raw(timeout)
        if line is None:
            raise EOFError("server closed stdout")
        msg = json.loads(line)
        self.seen.append(msg)
        return msg

    def silence(self, seconds):
        """Messages that arrive within `seconds` (a correct exchange expects none)."""
        got = []
        end = time.time() + seconds
        while True:
            left = end - time.time()
            if left <= 0:
                return got
            try:
                line = self.raw(left)
            except Timeout:
                return got
            if line is None:
                return got
            got.append(line)

    def request(self, method, params=None, rid=None, timeout=3.0):
        if rid is None:
            self.next_id += 1
            rid = self.next_id
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.until_response(rid, timeout)

    def until_response(self, rid, timeout=3.0):
        """(response, notifications before it)."""
        notes = []
        end = time.time() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.time()))
            if isinstance(msg, dict) and "method" not in msg and msg.get("id") == rid and \
                    type(msg.get("id")) is type(rid):
                return msg, notes
            notes.append(msg)

    def initialize(self, version=LATEST):
        resp, _ = self.request("initialize", {"protocolVersion": version, "capabilities": {},
                                              "clientInfo": {"name": "selfcheck", "version": "1"}},
                               rid=0)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return resp

    def close(self, timeout=5.0):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            rc = None
        self._check_stderr()
        return rc

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        self._check_stderr()

    def _check_stderr(self):
        """A sanitizer build reports memory errors, races and UB on stderr: any such report fails."""
        self._stderr_thread.join(2)
        text = b"".join(self.stderr)
        for marker in (b"ERROR: AddressSanitizer", b"runtime error:", b"WARNING: ThreadSanitizer",
                       b"ERROR: LeakSanitizer"):
            if marker in text:
                at = text.index(marker)
                check(False, "sanitizer report: " + text[at:at + 300].decode(errors="replace"))
                break


MODERN = "2026-07-28"


def modern_meta(caps=None, version=MODERN):
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": caps if caps is not None else {}}


def modern(s, method, params=None, caps=None, rid=None, timeout=3.0):
    """A stateless 2026-07-28 request: params._meta carries the version and capabilities."""
    p = dict(params or {})
    p.setdefault("_meta", modern_meta(caps))
    return s.request(method, p, rid=rid, timeout=timeout)


ELICIT = {"elicitation": {"form": {}}}


def confirm_round(s, caps=ELICIT, state=None, answer=None):
    """tools/call confirm, then (when asked) its retry: (first answer, retry answer or None)."""
    first, _ = modern(s, "tools/call", {"name": "confirm", "arguments": {"target": "prod"}}, caps)
    if first.get("result", {}).get("resultType") != "input_required":
        return first, None
    params = {"name": "confirm", "arguments": {"target": "prod"},
              "inputResponses": {"confirm": answer or {"action": "accept", "content": {"ok": True}}}}
    st = first["result"].get("requestState") if state is None else state
    if st is not False:
        params["requestState"] = st
    retry, _ = modern(s, "tools/call", params, caps)
    return first, retry


URL_ONLY = {"elicitation": {"url": {}}}
SAMPLING, SAMPLING_TOOLS = {"sampling": {}}, {"sampling": {"tools": {}}}
TWO_TOOL_USES = {"role": "assistant", "model": "m", "stopReason": "toolUse",
                 "content": [{"type": "tool_use", "id": "u1", "name": "lookup", "input": {"q": "a"}},
                             {"type": "tool_use", "id": "u2", "name": "lookup", "input": {"q": "b"}}]}


def asked(resp, key):
    """The params of the input request `key` of an input_required answer ({} when absent)."""
    return resp.get("result", {}).get("inputRequests", {}).get(key, {}).get("params", {})


def brainstorm(s, caps=SAMPLING_TOOLS, answer=None, state=None):
    """tools/call brainstorm, then (with `answer`) its retry: (first answer, retry answer or None)."""
    args = {"name": "brainstorm", "arguments": {"topic": "tea"}}
    first, _ = modern(s, "tools/call", args, caps)
    if answer is None or first.get("result", {}).get("resultType") != "input_required":
        return first, None
    retry, _ = modern(s, "tools/call", dict(args, inputResponses={"draft": answer},
                                            requestState=state or first["result"]["requestState"]), caps)
    return first, retry


def tool_round(s):
    """The messages of the brainstorm round that follows a model answer using two tools."""
    return asked(brainstorm(s, answer=TWO_TOOL_USES)[1] or {}, "draft").get("messages", [])


def declined_round(s, method, params):
    """One input round of `method` with the elicitation capability, its input declined: the retry's
    answer (None when the first answer asked for nothing)."""
    first, _ = modern(s, method, params, ELICIT)
    if first.get("result", {}).get("resultType") != "input_required":
        return None
    retry, _ = modern(s, method, dict(params, inputResponses={"confirm": {"action": "decline"}},
                                      requestState=first["result"].get("requestState")), ELICIT)
    return retry


def listen(s, rid, kinds):
    """Opens a subscription; returns the messages that came within a short window."""
    s.send({"jsonrpc": "2.0", "id": rid, "method": "subscriptions/listen",
            "params": {"notifications": kinds, "_meta": modern_meta()}})
    return [json.loads(line) for line in s.silence(0.3)]


def error_code(resp):
    return resp.get("error", {}).get("code")


def tool_call(s, name, args=None, meta=None, timeout=3.0):
    params = {"name": name}
    if args is not None:
        params["arguments"] = args
    if meta is not None:
        params["_meta"] = meta
    return s.request("tools/call", params, timeout=timeout)


def text_of(result):
    return "".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")


# ----------------------------------------------------------------------------------------------
# Part 1: the correct server
# ----------------------------------------------------------------------------------------------

def check_lifecycle():
    for v in VERSIONS:
        s = Server()
        resp = s.initialize(v)
        r = resp.get("result", {})
        check(resp.get("jsonrpc") == "2.0" and resp.get("id") == 0, f"{v}: initialize envelope")
        check(r.get("protocolVersion") == v, f"{v}: initialize echoes the requested version")
        check(r.get("serverInfo", {}).get("name") == "mcpspec-testserver", f"{v}: serverInfo")
        caps = r.get("capabilities", {})
        want = {"tools", "resources", "prompts", "logging"} | ({"completions"} if v != "2024-11-05" else set())
        check(set(caps) == want, f"{v}: full profile capabilities {sorted(caps)}")
        check(caps.get("resources") == {"subscribe": True, "listChanged": True}, f"{v}: resources caps")
        check(s.silence(0.2) == [], f"{v}: no reply to notifications/initialized")
        check(s.close() == 0, f"{v}: exit status 0 on stdin EOF")
    s = Server()
    check(s.initialize("1999-01-01")["result"]["protocolVersion"] == LATEST, "unknown version -> latest")
    again, _ = s.request("initialize", {"protocolVersion": LATEST, "capabilities": {}})
    check(error_code(again) == -32600, "second initialize refused")
    s.close()
    s = Server()
    pong, _ = s.request("ping", rid=1)
    check(pong.get("result") == {}, "ping before initialize answered {}")
    early, _ = s.request("tools/list", rid=2)
    check(error_code(early) == -32600, "request before initialize -> -32600")
    bad, _ = s.request("initialize", {"capabilities": {}}, rid=3)
    check(error_code(bad) == -32602, "initialize without protocolVersion -> -32602")
    s.close()


def check_envelope():
    s = Server()
    s.initialize()
    s.silence(0.1)
    for rid in ["abc", "", 7, -5, 0, 9223372036854775807, 18446744073709551615]:
        resp, _ = s.request("ping", rid=rid)
        check(resp.get("id") == rid and type(resp["id"]) is type(rid), f"id {rid!r} echoed exactly")
    resp, _ = s.request("no/such/method", rid=5)
    check(error_code(resp) == -32601, "unknown method -> -32601")
    s.send({"jsonrpc": "2.0", "method": "notifications/unknown"})
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 424242}})
    check(s.silence(0.3) == [], "unknown notification / unknown cancellation ignored")
    cases = [
        (b"not json", -32700, None),
        (b'{"jsonrpc":"2.0","id":1,', -32700, None),
        (json.dumps({"jsonrpc": "2.0", "id": 11}).encode(), -32600, 11),
        (json.dumps({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}).encode(), -32600, None),
        (json.dumps({"jsonrpc": "2.0", "id": None, "method": "ping"}).encode(), -32600, None),
        (json.dumps({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}).encode(), -32600, None),
        (json.dumps({"jsonrpc": "1.0", "id": 12, "method": "ping"}).encode(), -32600, 12),
        (json.dumps({"id": 13, "method": "ping"}).encode(), -32600, 13),
        (json.dumps({"jsonrpc": "2.0", "id": 14, "method": 5}).encode(), -32600, 14),
        (json.dumps({"jsonrpc": "2.0", "id": 15, "method": "ping", "params": 3}).encode(), -32600, 15),
        (json.dumps({"jsonrpc": "2.0", "id": 16, "method": "tools/list", "params": []}).encode(), -32602, 16),
        (b"42", -32600, None),
        (b"[]", -32600, None),
        (b"[1]", -32600, None),
        (b'"\xff\xfe"', -32700, None),
        (b"\x00\x01\x02garbage\x80", -32700, None),
    ]
    for raw, code, rid in cases:
        s.send(raw)
        resp = s.recv()
        ok = isinstance(resp, dict) and error_code(resp) == code and resp.get("id", "missing") == rid \
            and resp.get("jsonrpc") == "2.0" and isinstance(resp["error"].get("message"), str)
        check(ok, f"{raw[:40]!r} -> {code} with id {rid}: got {resp}")
    s.send(b"   ")
    s.send({"jsonrpc": "2.0", "id": 1, "result": {}})  # a stray response: nothing to say
    check(s.silence(0.3) == [], "blank line and stray response ignored")
    # Hostile sizes and shapes: the server must answer and stay alive.
    s.send(b"[" * 100000)
    check(error_code(s.recv()) == -32700, "100000 nested arrays refused with -32700")
    s.send(b'{"a":' * 600 + b"1" + b"}" * 600)
    check(error_code(s.recv()) == -32700, "600 nested objects refused")
    s.send(json.dumps({"jsonrpc": "2.0", "id": 17, "method": "ping",
                       "params": {"deep": json.loads("[" * 500 + "]" * 500)}}).encode())
    check(s.recv().get("result") == {}, "500 levels of nesting are accepted")
    s.send(b"x" * (17 << 20))
    check(error_code(s.recv(60)) == -32600, "17 MiB line refused with -32600")
    big = "y" * (8 << 20)
    resp, _ = tool_call(s, "echo", {"text": big}, timeout=60)  # generous for sanitizer builds
    check(text_of(resp.get("result", {})) == big, "8 MiB echo round-trips")
    pong, _ = s.request("ping")
    check(pong.get("result") == {}, "still alive after hostile input")
    check(s.close() == 0, "exit 0 after hostile input")


def check_batches():
    s = Server()
    s.initialize("2025-03-26")
    s.silence(0.1)
    s.send([{"jsonrpc": "2.0", "id": "a", "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/whatever"},
            {"jsonrpc": "2.0", "id": "b", "method": "nope"},
            {"jsonrpc": "2.0", "id": "c", "method": "initialize", "params": {"protocolVersion": LATEST}}])
    out = s.recv()
    check(isinstance(out, list) and [m.get("id") for m in out] == ["a", "b", "c"], f"03-26 batch -> array {out}")
    check(isinstance(out, list) and len(out) == 3 and out[0].get("result") == {} and
          error_code(out[1]) == -32601 and error_code(out[2]) == -32600, "batch element answers")
    s.send([{"jsonrpc": "2.0", "method": "notifications/a"}])
    check(s.silence(0.3) == [], "batch of notifications only: no reply")
    s.send(b"[]")
    check(error_code(s.recv()) == -32600, "empty batch -> -32600")
    s.send([{"jsonrpc": "2.0", "id": "p", "method": "tools/call",
             "params": {"name": "slow_progress", "arguments": {"steps": 2, "delay_ms": 1},
                        "_meta": {"progressToken": 5}}}])
    msgs = [s.recv() for _ in range(4)]  # info log, 2 progress, the batch array
    check(isinstance(msgs[-1], list) and msgs[-1][0].get("id") == "p", "slow_progress inside a batch")
    s.close()
    for v in ["2024-11-05", "2025-06-18", "2025-11-25"]:
        s = Server()
        s.initialize(v)
        s.silence(0.1)
        s.send([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])
        resp = s.recv()
        check(isinstance(resp, dict) and error_code(resp) == -32600 and resp.get("id") is None,
              f"{v}: batch rejected with -32600")
        s.close()


def check_tools():
    for v in VERSIONS:
        s = Server()
        s.initialize(v)
        s.silence(0.1)
        listed, _ = s.request("tools/list")
        tools = {t["name"]: t for t in listed["result"]["tools"]}
        check(set(tools) == {"echo", "add", "slow_progress", "fail", "image", "delete_everything"},
              f"{v}: tool names")
        for t in tools.values():
            check(t["inputSchema"].get("type") == "object", f"{v}: {t['name']} inputSchema is an object")
            if v == "2024-11-05":
                check("annotations" not in t, f"{v}: no annotations before 2025-03-26")
            else:
                ro = t["annotations"].get("readOnlyHint")
                check(ro is (t["name"] != "delete_everything"), f"{v}: {t['name']} readOnlyHint")
            check(("title" in t) == (v >= "2025-06-18"), f"{v}: title only from 2025-06-18")
        check(tools["delete_everything"].get("annotations", {}).get("destructiveHint", v == "2024-11-05"),
              f"{v}: delete_everything destructive")
        check(("outputSchema" in tools["add"]) == (v >= "2025-06-18"), f"{v}: add outputSchema")
        resp, notes = tool_call(s, "echo", {"text": "héllo"})
        check(text_of(resp["result"]) == "héllo", f"{v}: echo")
        check([n["params"]["level"] for n in notes] == ["info"], f"{v}: one info log per call: {notes}")
        resp, _ = tool_call(s, "add", {"a": 2, "b": 40})
        r = resp["result"]
        if v >= "2025-06-18":
            check(r.get("structuredContent") == {"sum": 42} and json.loads(text_of(r)) == {"sum": 42},
                  f"{v}: add structured + text")
        else:
            check(text_of(r) == "42" and "structuredContent" not in r, f"{v}: add text only")
        resp, _ = tool_call(s, "add", {"a": 9223372036854775807, "b": 1})
        check("result" in resp and not resp["result"].get("isError"), f"{v}: add overflow -> float")
        resp, notes = tool_call(s, "fail")
        check(resp["result"].get("isError") is True, f"{v}: fail isError")
        check([n["params"]["level"] for n in notes] == ["info", "warning"], f"{v}: fail logs {notes}")
        resp, _ = tool_call(s, "image")
        c = resp["result"]["content"][0]
        png = base64.b64decode(c["data"], validate=True)
        check(c["type"] == "image" and c["mimeType"] == "image/png" and png.startswith(b"\x89PNG\r\n\x1a\n"),
              f"{v}: image is a PNG")
        check(valid_png(png), f"{v}: PNG chunks, CRCs and zlib stream are valid")
        resp, _ = tool_call(s, "delete_everything")
        check("result" in resp and not resp["result"].get("isError"), f"{v}: delete_everything harmless")
        resp, _ = tool_call(s, "no_such_tool")
        check(error_code(resp) == -32602, f"{v}: unknown tool -> -32602")
        for args in [{}, {"text": 5}, {"text": "x", "extra": 1}]:
            resp, _ = tool_call(s, "echo", args)
            if v == "2025-11-25":
                check(resp.get("result", {}).get("isError") is True, f"{v}: bad echo args {args} -> isError")
            else:
                check(error_code(resp) == -32602, f"{v}: bad echo args {args} -> -32602")
        for args in [{"steps": 0}, {"steps": 21}, {"steps": 1.5}, {"delay_ms": 1001}]:
            resp, _ = tool_call(s, "slow_progress", args)
            ok = resp.get("result", {}).get("isError") is True if v == "2025-11-25" else error_code(resp) == -32602
            check(ok, f"{v}: slow_progress {args} refused")
        resp, _ = s.request("tools/call", {"name": "echo", "arguments": [1]})
        check(error_code(resp) == -32602, f"{v}: arguments not an object -> -32602")
        resp, _ = tool_call(s, "echo", {"text": "x"}, meta={"progressToken": 1.5})
        check(error_code(resp) == -32602, f"{v}: non-integer progressToken -> -32602")
        resp, _ = s.request("tools/list", {"cursor": "bogus"})
        check(error_code(resp) == -32602, f"{v}: tools/list invalid cursor")
        check_progress(s, v)
        s.close()


def valid_png(png):
    pos, idat = 8, b""
    while pos < len(png):
        n = int.from_bytes(png[pos:pos + 4], "big")
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
        crc = int.from_bytes(png[pos + 8 + n:pos + 12 + n], "big")
        if zlib.crc32(kind + data) != crc:
            return False
        if kind == b"IDAT":
            idat += data
        pos += 12 + n
    try:
        return len(zlib.decompress(idat)) == 8 * (1 + 8 * 3)
    except zlib.error:
        return False


def check_progress(s, v):
    resp, notes = tool_call(s, "slow_progress", {"steps": 4, "delay_ms": 5},
                            meta={"progressToken": "p-" + v})
    prog = [n["params"] for n in notes if n.get("method") == "notifications/progress"]
    check([p["progress"] for p in prog] == [1, 2, 3, 4], f"{v}: progress 1..4: {prog}")
    check(all(p["progressToken"] == "p-" + v and p["total"] == 4 for p in prog), f"{v}: progress token/total")
    check(all(("message" in p) == (v != "2024-11-05") for p in prog), f"{v}: progress message from 03-26")
    check("result" in resp, f"{v}: slow_progress answers")
    check(s.silence(0.2) == [], f"{v}: nothing after the response")
    resp, notes = tool_call(s, "slow_progress", {"steps": 2, "delay_ms": 0})
    check("result" in resp and not [n for n in notes if n.get("method") == "notifications/progress"],
          f"{v}: no progress without a token")
    # Cancellation: the call stops and is never answered; the server stays responsive.
    s.send({"jsonrpc": "2.0", "id": "slow", "method": "tools/call",
            "params": {"name": "slow_progress", "arguments": {"steps": 20, "delay_ms": 100},
                       "_meta": {"progressToken": 77}}})
    first = [s.recv(), s.recv()]  # info log, first progress
    check(first[1].get("method") == "notifications/progress", f"{v}: first progress before cancel")
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow", "reason": "test"}})
    pong, _ = s.request("ping")
    check(pong.get("result") == {}, f"{v}: ping while cancelling")
    check(s.silence(0.5) == [], f"{v}: cancelled call sends nothing more")
    # Concurrent calls and a reused in-flight id.
    s.send({"jsonrpc": "2.0", "id": "c1", "method": "tools/call",
            "params": {"name": "slow_progress", "arguments": {"steps": 2, "delay_ms": 200}}})
    s.recv()  # info log
    dup, _ = s.request("tools/call", {"name": "slow_progress", "arguments": {"steps": 1}}, rid="c1")
    check(error_code(dup) == -32600 or "result" in dup, f"{v}: duplicate in-flight id handled")
    # The first c1 call may be the one that answered above; drain whatever follows.
    s.silence(0.6)


def check_resources():
    for v in VERSIONS:
        s = Server()
        s.initialize(v)
        s.silence(0.1)
        uris, cursor, pages = [], None, 0
        while True:
            resp, _ = s.request("resources/list", {"cursor": cursor} if cursor else {})
            r = resp["result"]
            check(len(r["resources"]) <= 2, f"{v}: page size 2")
            uris += [x["uri"] for x in r["resources"]]
            pages += 1
            cursor = r.get("nextCursor")
            if not cursor or pages > 5:
                break
        check(pages == 3 and len(uris) == 5 and len(set(uris)) == 5, f"{v}: 5 resources on 3 pages {uris}")
        for bad in ["bogus", "pg2-0000000000000000", "", 5]:
            resp, _ = s.request("resources/list", {"cursor": bad})
            check(error_code(resp) == -32602, f"{v}: invalid cursor {bad!r} -> -32602")
        resp, _ = s.request("resources/read", {"uri": "test://static/text"})
        c = resp["result"]["contents"][0]
        check(c["mimeType"] == "text/plain" and c["text"] and c["uri"] == "test://static/text", f"{v}: read text")
        resp, _ = s.request("resources/read", {"uri": "test://static/blob"})
        c = resp["result"]["contents"][0]
        check(base64.b64decode(c["blob"], validate=True) == bytes(range(32)), f"{v}: blob is base64")
        resp, _ = s.request("resources/read", {"uri": "test://nope"})
        check(error_code(resp) == -32002 and resp["error"].get("data", {}).get("uri") == "test://nope",
              f"{v}: unknown resource -> -32002 with data.uri")
        resp, _ = s.request("resources/read", {})
        check(error_code(resp) == -32602, f"{v}: read without uri -> -32602")
        resp, _ = s.request("resources/templates/list")
        check(resp["result"]["resourceTemplates"][0]["uriTemplate"] == "test://items/{id}", f"{v}: template")
        resp, _ = s.request("resources/read", {"uri": "test://items/42"})
        check("42" in resp["result"]["contents"][0]["text"], f"{v}: template read")
        resp, _ = s.request("resources/read", {"uri": "test://items/a/b"})
        check(error_code(resp) == -32002, f"{v}: bad template id -> -32002")
        resp, _ = s.request("resources/subscribe", {"uri": "test://static/text"})
        check(resp.get("result") == {}, f"{v}: subscribe")
        resp, _ = s.request("resources/unsubscribe", {"uri": "test://static/text"})
        check(resp.get("result") == {}, f"{v}: unsubscribe")
        resp, _ = s.request("resources/subscribe", {"uri": "test://missing"})
        check(error_code(resp) == -32002, f"{v}: subscribe to unknown -> -32002")
        s.close()


def check_prompts_logging_completion():
    for v in VERSIONS:
        s = Server()
        s.initialize(v)
        s.silence(0.1)
        resp, _ = s.request("prompts/list")
        names = [p["name"] for p in resp["result"]["prompts"]]
        check(names == ["greeting", "plain"], f"{v}: prompts")
        resp, _ = s.request("prompts/get", {"name": "greeting", "arguments": {"name": "Ada"}})
        check("Ada" in resp["result"]["messages"][0]["content"]["text"], f"{v}: greeting")
        resp, _ = s.request("prompts/get", {"name": "plain"})
        check(resp["result"]["messages"][0]["role"] == "user", f"{v}: plain")
        for params in [{"name": "greeting"}, {"name": "greeting", "arguments": {}},
                       {"name": "nope"}, {"name": "greeting", "arguments": {"name": 3}}, {}]:
            resp, _ = s.request("prompts/get", params)
            check(error_code(resp) == -32602, f"{v}: prompts/get {params} -> -32602")
        resp, _ = s.request("logging/setLevel", {"level": "loud"})
        check(error_code(resp) == -32602, f"{v}: bad level -> -32602")
        s.request("logging/setLevel", {"level": "debug"})
        _, notes = tool_call(s, "echo", {"text": "a"})
        check([n["params"]["level"] for n in notes] == ["debug", "info"], f"{v}: debug shows debug+info")
        s.request("logging/setLevel", {"level": "error"})
        _, notes = tool_call(s, "fail")
        check(notes == [], f"{v}: error level hides info and warning")
        resp, _ = s.request("completion/complete", {"ref": {"type": "ref/prompt", "name": "greeting"},
                                                     "argument": {"name": "name", "value": "al"}})
        check(resp["result"]["completion"]["values"] == ["Alice", "Albert"], f"{v}: name completion")
        resp, _ = s.request("completion/complete", {"ref": {"type": "ref/resource", "uri": "test://items/{id}"},
                                                     "argument": {"name": "id", "value": "2"}})
        vals = resp["result"]["completion"]["values"]
        check(vals[0] == "2" and len(vals) == 11 and len(vals) <= 100, f"{v}: id completion {vals}")
        for bad in [{"ref": {"type": "ref/prompt", "name": "nope"}, "argument": {"name": "x", "value": ""}},
                    {"ref": {"type": "ref/other"}, "argument": {"name": "x", "value": ""}},
                    {"ref": {"type": "ref/prompt", "name": "greeting"}}]:
            resp, _ = s.request("completion/complete", bad)
            check(error_code(resp) == -32602, f"{v}: completion {bad} -> -32602")
        s.close()


def check_modern():
    """2026-07-28: stateless requests next to (and without) a legacy session."""
    s = Server()
    resp, _ = modern(s, "server/discover")
    r = resp.get("result", {})
    check(r.get("resultType") == "complete" and MODERN in r.get("supportedVersions", []) and
          "tools" in r.get("capabilities", {}) and "logging" not in r.get("capabilities", {}) and
          r.get("ttlMs") == 60000 and r.get("cacheScope") == "public" and
          r.get("_meta", {}).get("io.modelcontextprotocol/serverInfo", {}).get("name") == "mcpspec-testserver",
          "modern: server/discover without initialize")
    resp, _ = modern(s, "tools/list")
    names = [t["name"] for t in resp.get("result", {}).get("tools", [])]
    check(resp["result"].get("resultType") == "complete" and {"confirm", "touch_catalog", "region_echo"} <= set(names),
          "modern: tools/list has resultType and the 2026-07-28 tools")
    resp, _ = s.request("tools/list", {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}})
    check(error_code(resp) == -32602, "modern: _meta without protocolVersion -> -32602")
    resp, _ = s.request("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}})
    check(error_code(resp) == -32602, "modern: _meta without clientCapabilities -> -32602")
    resp, _ = s.request("tools/list", {"_meta": modern_meta(version="1900-01-01")})
    data = resp.get("error", {}).get("data", {})
    check(error_code(resp) == -32022 and MODERN in data.get("supported", []) and data.get("requested") == "1900-01-01",
          "modern: unsupported version -> -32022 with supported and requested")
    for method in ("ping", "logging/setLevel", "resources/subscribe", "initialize"):
        resp, _ = modern(s, method, {"level": "info"} if method == "logging/setLevel" else None)
        check(error_code(resp) == -32601, f"modern: removed method {method} -> -32601")
    resp, _ = modern(s, "resources/read", {"uri": "test://nothing/here"})
    check(error_code(resp) == -32602, "modern: a missing resource -> -32602")
    first, retry = confirm_round(s, caps={})
    check(error_code(first) == -32021 and "elicitation" in first["error"].get("data", {}).get("requiredCapabilities", {}),
          "modern: confirm without the elicitation capability -> -32021")
    first, retry = confirm_round(s)
    check(first["result"].get("inputRequests", {}).get("confirm", {}).get("method") == "elicitation/create" and
          first["result"].get("requestState") and retry and "confirmed: prod" == text_of(retry.get("result", {})),
          "modern: confirm asks, the retry with requestState completes")
    _, retry = confirm_round(s, state="forged")
    check(error_code(retry) == -32602, "modern: a forged requestState -> -32602")
    _, retry = confirm_round(s, state=False)
    check(error_code(retry) == -32602, "modern: a retry without requestState -> -32602")
    first, retry = confirm_round(s, caps=URL_ONLY, answer={"action": "accept"})
    check(asked(first, "confirm").get("mode") == "url" and "elicitationId" not in asked(first, "confirm") and
          retry and "confirmed: prod" == text_of(retry.get("result", {})),
          "modern: confirm asks in url mode when only url mode is declared")
    _, retry = confirm_round(s, answer={"action": "cancel"})
    check(text_of((retry or {}).get("result", {})) == "not confirmed (cancel): prod", "modern: a cancelled confirm completes")
    first, _ = brainstorm(s, caps={})
    check(error_code(first) == -32021, "modern: brainstorm without the sampling capability -> -32021")
    first, _ = brainstorm(s, caps=SAMPLING)
    check(asked(first, "draft").get("messages", [{}])[0].get("role") == "user" and "tools" not in asked(first, "draft"),
          "modern: brainstorm asks sampling, without tools when sampling.tools is not declared")
    messages = tool_round(s)
    check([m.get("role") for m in messages] == ["user", "assistant", "user"] and
          [b.get("toolUseId") for b in messages[2]["content"]] == ["u1", "u2"],
          "modern: brainstorm answers both tool uses of the model with tool results")
    final = {"role": "assistant", "model": "m", "stopReason": "endTurn", "content": {"type": "text", "text": "x"}}
    _, retry = brainstorm(s, caps=SAMPLING, answer=final)
    check(text_of((retry or {}).get("result", {})) == "ideas about tea: x", "modern: brainstorm completes with the model's text")
    first, _ = confirm_round(s, answer={"action": "decline"})
    again, _ = modern(s, "tools/call", {"name": "confirm", "arguments": {"target": "prod"}}, ELICIT)
    check(again.get("result", {}).get("resultType") == "input_required", "modern: a fresh call asks again")
    got = listen(s, "L1", {"toolsListChanged": True})
    check(len(got) == 1 and got[0].get("method") == "notifications/subscriptions/acknowledged" and
          got[0]["params"]["_meta"].get("io.modelcontextprotocol/subscriptionId") == "L1" and
          got[0]["params"].get("notifications") == {"toolsListChanged": True},
          "modern: subscriptions/listen is acknowledged, tagged with its id")
    listen(s, "L2", {"promptsListChanged": True})
    resp, notes = modern(s, "tools/call", {"name": "touch_catalog", "arguments": {}})
    tags = [n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] for n in notes
            if n.get("method") == "notifications/tools/list_changed"]
    check(tags == ["L1"], f"modern: tools/list_changed only on the stream that asked, tagged (got {tags})")
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "L1"}})
    resp, notes = modern(s, "tools/call", {"name": "touch_catalog", "arguments": {}})
    check(notes == [], "modern: nothing more on a cancelled subscription")
    check_tasks_extension(s)
    init = s.initialize()
    check(init.get("result", {}).get("protocolVersion") == LATEST, "modern: initialize still opens a legacy session")
    resp, _ = s.request("ping")
    check(resp.get("result") == {}, "modern: the legacy session answers ping")
    s.close()
    m = Server("--modern-only")
    resp, _ = m.request("initialize", {"protocolVersion": LATEST, "capabilities": {},
                                       "clientInfo": {"name": "selfcheck", "version": "1"}}, rid=0)
    check("error" in resp and resp["error"].get("data", {}).get("supported") == [MODERN],
          "modern-only: initialize refused, naming the versions served")
    resp, _ = m.request("tools/list")
    check(error_code(resp) == -32602, "modern-only: a request without _meta -> -32602")
    resp, _ = modern(m, "server/discover")
    check(resp.get("result", {}).get("supportedVersions") == [MODERN], "modern-only: discover lists 2026-07-28 only")
    m.close()


def check_tasks_extension(s):
    """The tasks extension at 2026-07-28: slow_report as a task, polled to its result, cancelled."""
    resp, _ = modern(s, "server/discover")
    check("io.modelcontextprotocol/tasks" in resp["result"]["capabilities"].get("extensions", {}),
          "tasks: discover declares the extension")
    refused = start_report(s, {})
    check(error_code(refused) == -32021 and "io.modelcontextprotocol/tasks" in
          refused["error"].get("data", {}).get("requiredCapabilities", {}).get("extensions", {}),
          "tasks: slow_report without the extension -> -32021 naming it")
    handle = start_report(s)["result"]
    other = start_report(s)["result"]
    check(handle.get("resultType") == "task" and handle.get("status") == "working" and handle.get("ttlMs") and
          handle.get("pollIntervalMs") and len(handle.get("taskId", "")) >= 32 and handle["taskId"] != other["taskId"],
          "tasks: slow_report with the extension -> a working task handle with a random id")
    tid = handle["taskId"]
    first, second = task_op(s, "tasks/get", tid)["result"], task_op(s, "tasks/get", tid)["result"]
    check(first.get("resultType") == "complete" and first.get("status") == "working" and "result" not in first,
          "tasks: the first tasks/get -> working")
    check(second.get("status") == "completed" and text_of(second.get("result", {})) == "report on q3: 3 sections",
          "tasks: the second tasks/get -> completed with the call's result")
    check(task_op(s, "tasks/cancel", tid).get("result") is not None and
          task_op(s, "tasks/get", tid)["result"]["status"] == "completed",
          "tasks: cancelling a completed task is acknowledged and changes nothing")
    check(task_op(s, "tasks/cancel", other["taskId"]).get("result", {}).get("resultType") == "complete" and
          task_op(s, "tasks/get", other["taskId"])["result"]["status"] == "cancelled",
          "tasks: cancelling a working task -> cancelled")
    check(error_code(task_op(s, "tasks/get", "no-such-task")) == -32602, "tasks: an unknown taskId -> -32602")
    check(error_code(task_op(s, "tasks/get", tid, {})) == -32021, "tasks: tasks/get without the extension -> -32021")
    ack = modern(s, "tasks/update", {"taskId": tid, "inputResponses": {"nothing": {"action": "decline"}}}, TASKS)[0]
    check(ack.get("result", {}).get("resultType") == "complete", "tasks: tasks/update for no outstanding key is ignored")


def check_profiles():
    s = Server("--profile", "tools-only")
    caps = s.initialize()["result"]["capabilities"]
    check(set(caps) == {"tools"}, f"tools-only capabilities {caps}")
    for m in ["resources/list", "prompts/list", "logging/setLevel", "completion/complete"]:
        resp, _ = s.request(m, {})
        check(error_code(resp) == -32601, f"tools-only: {m} -> -32601")
    resp, notes = tool_call(s, "echo", {"text": "x"})
    check("result" in resp and notes == [], "tools-only: tool works and logs nothing")
    s.close()
    s = Server("--profile", "minimal")
    caps = s.initialize()["result"]["capabilities"]
    check(caps == {}, f"minimal capabilities {caps}")
    resp, _ = s.request("tools/list")
    check(error_code(resp) == -32601, "minimal: tools/list -> -32601")
    resp, _ = s.request("ping")
    check(resp.get("result") == {}, "minimal: ping")
    s.close()


def check_process():
    s = Server()
    s.initialize()
    s.send({"jsonrpc": "2.0", "id": "long", "method": "tools/call",
            "params": {"name": "slow_progress", "arguments": {"steps": 20, "delay_ms": 1000}}})
    time.sleep(0.1)
    t0 = time.time()
    rc = s.close()
    check(rc == 0 and time.time() - t0 < 1.0, f"EOF during a 20 s call: exit 0 promptly (rc={rc})")
    s = Server()
    s.initialize()
    s.p.send_signal(signal.SIGTERM)
    try:
        s.p.wait(2)
        check(True, "")
    except subprocess.TimeoutExpired:
        check(False, "SIGTERM ends the server")
        s.kill()
    for args in [["--fault", "nope"], ["--profile"], ["--bogus"]]:
        p = subprocess.run([BINARY, *args], capture_output=True, timeout=5)
        check(p.returncode == 2 and p.stderr, f"usage error for {args}")


RESULT_DEFS = {
    "initialize": "InitializeResult", "ping": "EmptyResult", "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult", "resources/list": "ListResourcesResult",
    "resources/templates/list": "ListResourceTemplatesResult", "resources/read": "ReadResourceResult",
    "resources/subscribe": "EmptyResult", "resources/unsubscribe": "EmptyResult",
    "prompts/list": "ListPromptsResult", "prompts/get": "GetPromptResult",
    "completion/complete": "CompleteResult", "logging/setLevel": "EmptyResult",
}
NOTIFICATION_DEFS = {"notifications/progress": "ProgressNotification",
                     "notifications/message": "LoggingMessageNotification"}


def official_validator(schema_dir, version):
    """errors(instance, definition) -> messages, or None when the cross-check cannot run."""
    try:
        import jsonschema
    except ImportError:
        return None
    path = os.path.join(schema_dir or "", version, "schema.json")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        schema = json.load(f)
    container = "$defs" if "$defs" in schema else "definitions"
    cls = jsonschema.validators.validator_for(schema)

    def errors(instance, name):
        root = dict(schema)
        root["$ref"] = f"#/{container}/{name}"
        return [e.message[:200] for e in cls(root).iter_errors(instance)][:2]
    return errors


def check_schemas(schema_dir):
    for v in VERSIONS:
        errors = official_validator(schema_dir, v)
        if errors is None:
            print(f"  SKIP: needs the python package jsonschema and {schema_dir}/{v}/schema.json")
            return
        s = Server()
        methods = {}  # id -> method

        def req(method, params=None):
            resp, _ = s.request(method, params)
            methods[resp.get("id")] = method
            return resp
        methods[0] = "initialize"
        s.initialize(v)
        req("ping")
        req("tools/list")
        for name, args in [("echo", {"text": "x"}), ("add", {"a": 1, "b": 2.5}), ("fail", {}), ("image", {}),
                           ("delete_everything", {}), ("echo", {}), ("nope", {})]:
            req("tools/call", {"name": name, "arguments": args})
        resp, _ = s.request("tools/call", {"name": "slow_progress", "arguments": {"steps": 2, "delay_ms": 1},
                                           "_meta": {"progressToken": "tok"}})
        methods[resp.get("id")] = "tools/call"
        req("logging/setLevel", {"level": "debug"})
        req("tools/call", {"name": "echo", "arguments": {"text": "y"}})
        r = req("resources/list")
        req("resources/list", {"cursor": r["result"]["nextCursor"]})
        req("resources/templates/list")
        for uri in ["test://static/text", "test://static/blob", "test://static/json", "test://items/7", "test://x"]:
            req("resources/read", {"uri": uri})
        req("resources/subscribe", {"uri": "test://static/text"})
        req("resources/unsubscribe", {"uri": "test://static/text"})
        req("prompts/list")
        req("prompts/get", {"name": "greeting", "arguments": {"name": "Ada", "style": "formal"}})
        req("prompts/get", {"name": "plain"})
        req("prompts/get", {"name": "greeting"})
        req("completion/complete", {"ref": {"type": "ref/prompt", "name": "greeting"},
                                    "argument": {"name": "name", "value": "B"}})
        req("completion/complete", {"ref": {"type": "ref/resource", "uri": "test://items/{id}"},
                                    "argument": {"name": "id", "value": "1"}})
        req("no/such/method")
        s.close()
        checked = 0
        for msg in s.seen:
            problems = errors(msg, "JSONRPCMessage")
            if "result" in msg and msg.get("id") in methods:
                problems += errors(msg["result"], RESULT_DEFS[methods[msg["id"]]])
            elif msg.get("method") in NOTIFICATION_DEFS:
                problems += errors(msg, NOTIFICATION_DEFS[msg["method"]])
            checked += 1
            check(not problems, f"{v}: official schema rejects {json.dumps(msg)[:200]}: {problems}")
        print(f"  {v}: {checked} messages validated against the official schema")


FUZZ_SEEDS = [
    {"jsonrpc": "2.0", "id": 1, "method": "ping"},
    {"jsonrpc": "2.0", "id": "a", "method": "tools/list", "params": {"cursor": "x"}},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1, "b": 2}}},
    {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
     "params": {"name": "slow_progress", "arguments": {"steps": 2, "delay_ms": 1}, "_meta": {"progressToken": 1}}},
    {"jsonrpc": "2.0", "id": 5, "method": "resources/read", "params": {"uri": "test://items/1"}},
    {"jsonrpc": "2.0", "id": 6, "method": "prompts/get", "params": {"name": "greeting", "arguments": {"name": "x"}}},
    {"jsonrpc": "2.0", "id": 7, "method": "completion/complete",
     "params": {"ref": {"type": "ref/prompt", "name": "greeting"}, "argument": {"name": "name", "value": "a"}}},
    {"jsonrpc": "2.0", "id": 8, "method": "logging/setLevel", "params": {"level": "debug"}},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4}},
    [{"jsonrpc": "2.0", "id": 9, "method": "ping"}],
]
ODD_VALUES = [None, True, 0, -1, 1.5, 1e308, 18446744073709551616, "", "x" * 300, [], {}, [[[]]], {"a": {}},
              "\u0000", "\ud800"]


def mutate(rng, msg):
    """A structurally odd variant of a valid message (replace, drop or add a member)."""
    msg = json.loads(json.dumps(msg))
    target = msg[0] if isinstance(msg, list) and msg else msg
    if isinstance(target, dict):
        key = rng.choice(list(target) + ["id", "params", "extra"])
        action = rng.random()
        if action < 0.4:
            target[key] = rng.choice(ODD_VALUES)
        elif action < 0.6:
            target.pop(key, None)
        elif isinstance(target.get("params"), dict) and target["params"]:
            k = rng.choice(list(target["params"]))
            target["params"][k] = rng.choice(ODD_VALUES)
    return msg


def byte_noise(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        pos = rng.randrange(len(data) + 1)
        if op < 0.4 and data:
            data[min(pos, len(data) - 1)] = rng.randrange(256)
        elif op < 0.7:
            del data[pos:pos + rng.randint(1, 8)]
        else:
            data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(data).replace(b"\n", b" ")


def check_fuzz():
    """Seeded random input: the server answers every line it should and never breaks framing."""
    for version in ["2025-03-26", LATEST]:
        rng = random.Random(20250326 if version == "2025-03-26" else 20251125)
        s = Server()
        s.initialize(version)
        for _ in range(3000):
            seed = rng.choice(FUZZ_SEEDS)
            if rng.random() < 0.5:
                s.send(json.dumps(mutate(rng, seed)).encode())
            else:
                s.send(byte_noise(rng, json.dumps(seed).encode()))
        s.send({"jsonrpc": "2.0", "id": "final", "method": "ping"})
        lines, done = [], False
        end = time.time() + 60
        while not done and time.time() < end:
            line = s.raw(max(0.1, end - time.time()))
            if line is None:
                break
            lines.append(line)
            done = b'"final"' in line and b'"result"' in line
        check(done, f"{version}: the server answered the final ping after 3000 fuzzed lines")
        bad = 0
        for line in lines:
            try:
                msg = json.loads(line)
                items = msg if isinstance(msg, list) else [msg]
                bad += sum(1 for m in items if not isinstance(m, dict) or m.get("jsonrpc") != "2.0")
            except ValueError:
                bad += 1
        check(bad == 0, f"{version}: {bad} of {len(lines)} output lines were not JSON-RPC messages")
        check(s.close(10) == 0, f"{version}: exit 0 after fuzzing")
        print(f"  {version}: 3000 fuzzed lines, {len(lines)} output lines")


# ----------------------------------------------------------------------------------------------
# Part 2: each fault is visible on the wire
# ----------------------------------------------------------------------------------------------

def started(fault, version=LATEST):
    s = Server("--fault", fault)
    init = s.initialize(version)
    return s, init


def probe(fault):
    """True when the injected bug was observed."""
    if fault in ("wrong-id", "embedded-newline", "stdout-flood"):
        s, _ = started(fault)
        s.silence(0.1)
        s.send({"jsonrpc": "2.0", "id": 5, "method": "tools/list"})
        line = s.raw(10)
        try:
            msg = json.loads(line)
        except ValueError:
            msg = None
        s.kill()
        if fault == "wrong-id":
            return isinstance(msg, dict) and msg.get("id") != 5 and "result" in msg
        if fault == "embedded-newline":
            return msg is None and line.strip() == b"{"
        return isinstance(msg, str) and len(line) >= 64 << 20
    if fault == "missing-jsonrpc":
        s, init = started(fault)
        s.kill()
        return "jsonrpc" not in init and "result" in init
    if fault == "respond-to-notification":
        s, _ = started(fault)
        got = s.silence(0.3)
        s.kill()
        return any(json.loads(g).get("id", "x") is None and "result" in json.loads(g) for g in got)
    if fault in ("result-and-error", "wrong-error-code", "error-code-string"):
        s, _ = started(fault)
        s.silence(0.1)
        resp, _ = s.request("no/such/method", rid=3)
        s.kill()
        if fault == "result-and-error":
            return "result" in resp and "error" in resp
        if fault == "wrong-error-code":
            return error_code(resp) == -32603
        return isinstance(error_code(resp), str)
    if fault == "crash-on-bad-json":
        s, _ = started(fault)
        s.send(b"{oops")
        try:
            rc = s.p.wait(3)
        except subprocess.TimeoutExpired:
            rc = None
        s.kill()
        return rc == 3
    if fault == "garbage-stdout":
        s = Server("--fault", fault)
        s.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {"protocolVersion": LATEST, "capabilities": {}}})
        first, second = s.raw(), s.raw()
        s.kill()
        try:
            json.loads(second)
            return False
        except ValueError:
            return "result" in json.loads(first)
    if fault in ("hang-on-ping", "duplicate-response"):
        s, _ = started(fault)
        s.silence(0.1)
        s.send({"jsonrpc": "2.0", "id": 9, "method": "ping"})
        got = s.silence(1.0)
        alive, _ = s.request("tools/list")  # everything else still works
        s.kill()
        answers = [g for g in got if json.loads(g).get("id") == 9]
        ok = "result" in alive
        return ok and (len(answers) == 0 if fault == "hang-on-ping" else len(answers) == 2)
    if fault in ("decreasing-progress", "progress-after-response", "progress-wrong-token"):
        s, _ = started(fault)
        s.silence(0.1)
        resp, notes = tool_call(s, "slow_progress", {"steps": 3, "delay_ms": 5}, meta={"progressToken": "t"})
        after = s.silence(0.3)
        s.kill()
        prog = [n["params"] for n in notes if n.get("method") == "notifications/progress"]
        if fault == "decreasing-progress":
            vals = [p["progress"] for p in prog]
            return len(vals) >= 2 and any(b <= a for a, b in zip(vals, vals[1:]))
        if fault == "progress-after-response":
            return any(json.loads(a).get("method") == "notifications/progress" for a in after)
        return prog and all(p["progressToken"] != "t" for p in prog)
    if fault == "no-initialize-version-check":
        s, init = started(fault, "2025-06-18")
        s.kill()
        return init["result"]["protocolVersion"] == "2099-01-01"
    if fault == "string-id-as-int":
        s, _ = started(fault)
        s.silence(0.1)
        s.send({"jsonrpc": "2.0", "id": "17", "method": "ping"})
        s.send({"jsonrpc": "2.0", "id": "abc", "method": "ping"})
        a, b = s.recv(), s.recv()
        s.kill()
        return a.get("id") == 17 and isinstance(b.get("id"), int)
    if fault == "null-id-parse-error-missing":
        s, _ = started(fault)
        s.send(b"{oops")
        resp = s.recv()
        s.kill()
        return "error" in resp and "code" not in resp["error"]
    if fault == "resource-not-found-wrong-code":
        s, _ = started(fault)
        resp, _ = s.request("resources/read", {"uri": "test://nope"})
        s.kill()
        return error_code(resp) == -32603
    if fault == "invalid-cursor-accepted":
        s, _ = started(fault)
        resp, _ = s.request("resources/list", {"cursor": "bogus"})
        s.kill()
        return "result" in resp and resp["result"]["resources"][0]["uri"] == "test://static/text"
    if fault == "bad-log-level-accepted":
        s, _ = started(fault)
        resp, _ = s.request("logging/setLevel", {"level": "loud"})
        s.kill()
        return resp.get("result") == {}
    if fault == "missing-required-prompt-arg-accepted":
        s, _ = started(fault)
        resp, _ = s.request("prompts/get", {"name": "greeting"})
        s.kill()
        return "result" in resp
    if fault == "ignore-stdin-eof":
        s, _ = started(fault)
        s.p.stdin.close()
        try:
            s.p.wait(1.5)
            return False
        except subprocess.TimeoutExpired:
            s.p.send_signal(signal.SIGTERM)
            try:
                s.p.wait(3)
            except subprocess.TimeoutExpired:
                s.kill()
                return False
            return True
    if fault == "tools-without-capability":
        s, init = started(fault)
        got = [json.loads(g) for g in s.silence(0.3)]
        listed, _ = s.request("tools/list")
        s.kill()
        return "tools" not in init["result"]["capabilities"] and "result" in listed and \
            any(g.get("method") == "notifications/tools/list_changed" for g in got)
    if fault == "list-changed-undeclared":
        s, init = started(fault)
        got = [json.loads(g) for g in s.silence(0.3)]
        s.kill()
        tools = init["result"]["capabilities"].get("tools")
        return isinstance(tools, dict) and not tools.get("listChanged") and \
            any(g.get("method") == "notifications/tools/list_changed" for g in got)
    if fault == "reused-request-id":
        s, _ = started(fault)
        first = [json.loads(g) for g in s.silence(0.3)]
        pings = [g for g in first if g.get("method") == "ping"]
        if pings:
            s.send({"jsonrpc": "2.0", "id": pings[0]["id"], "result": {}})
        s.send({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})
        later = [json.loads(g) for g in s.silence(0.3)]
        s.kill()
        again = [g for g in later if g.get("method") == "ping"]
        return len(pings) == 1 and len(again) == 1 and again[0]["id"] == pings[0]["id"]
    if fault == "log-without-capability":
        s, init = started(fault)
        got = [json.loads(g) for g in s.silence(0.3)]
        s.kill()
        return "logging" not in init["result"]["capabilities"] and \
            any(g.get("method") == "notifications/message" for g in got)
    if fault == "server-info-missing":
        s, init = started(fault)
        s.kill()
        return "serverInfo" not in init["result"]
    if fault == "cancel-still-answers":
        s, _ = started(fault)
        s.silence(0.1)
        s.send({"jsonrpc": "2.0", "id": "slow", "method": "tools/call",
                "params": {"name": "slow_progress", "arguments": {"steps": 20, "delay_ms": 100}}})
        s.recv()  # info log
        s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow"}})
        got = [json.loads(g) for g in s.silence(0.5)]
        s.kill()
        return any(g.get("id") == "slow" for g in got)
    if fault == "blob-not-base64":
        s, _ = started(fault)
        resp, _ = s.request("resources/read", {"uri": "test://static/blob"})
        s.kill()
        try:
            base64.b64decode(resp["result"]["contents"][0]["blob"], validate=True)
            return False
        except ValueError:
            return True
    if fault in ("tool-schema-not-object", "tool-name-invalid"):
        s, _ = started(fault)
        listed, _ = s.request("tools/list")
        s.kill()
        tools = listed["result"]["tools"]
        if fault == "tool-schema-not-object":
            return any(t["inputSchema"].get("type") != "object" for t in tools)
        return any(" " in t["name"] or "," in t["name"] for t in tools)
    if fault == "log-level-ignored":
        s, _ = started(fault)
        s.request("logging/setLevel", {"level": "error"})
        _, notes = tool_call(s, "echo", {"text": "x"})
        s.kill()
        return any(n.get("method") == "notifications/message" for n in notes)
    if fault == "structured-content-mismatch":
        s, _ = started(fault, "2025-06-18")
        resp, _ = tool_call(s, "add", {"a": 1, "b": 2})
        s.kill()
        return not isinstance(resp["result"]["structuredContent"].get("sum"), (int, float))
    if fault == "batch-rejected":
        s, _ = started(fault, "2025-03-26")
        s.silence(0.1)
        s.send([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])
        resp = s.recv()
        s.kill()
        return isinstance(resp, dict) and error_code(resp) == -32600
    if fault == "completion-over-100":
        s, _ = started(fault)
        resp, _ = s.request("completion/complete", {"ref": {"type": "ref/prompt", "name": "greeting"},
                                                     "argument": {"name": "name", "value": ""}})
        s.kill()
        return len(resp["result"]["completion"]["values"]) > 100
    if fault == "crash-on-deep-nesting":
        s, _ = started(fault)
        deep = {}
        for _ in range(40):
            deep = {"a": deep}
        s.send({"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"x": deep}})
        code = s.close(5)
        return code is not None and code < 0
    if fault == "hang-on-long-echo":
        s, _ = started(fault)
        tool_call(s, "echo", {"text": "short"})
        s.send({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": "x" * 1001}}})
        s.send({"jsonrpc": "2.0", "id": 9, "method": "ping"})
        quiet = s.silence(0.5) == []
        s.kill()
        return quiet
    if fault == "non-json-on-control-char":
        s, _ = started(fault)
        s.send({"jsonrpc": "2.0", "id": 10, "method": "odd\u0001name"})
        line = s.raw(3)
        s.kill()
        return line is not None and not line.startswith(b"{")
    if fault == "ping-params-bad-result":
        s, _ = started(fault)
        resp, _ = s.request("ping", {"_meta": {}})
        s.kill()
        return resp.get("result") == "pong"
    if fault in MODERN_PROBES:
        s = Server("--fault", fault)
        try:
            return MODERN_PROBES[fault](s)
        finally:
            s.kill()
    if fault == "unknown-tool-iserror":
        s, _ = started(fault)
        resp, _ = tool_call(s, "nope")
        s.kill()
        return resp.get("result", {}).get("isError") is True
    if fault == "invalid-args-protocol-error":
        s, _ = started(fault)
        resp, _ = tool_call(s, "echo", {})
        s.kill()
        return error_code(resp) == -32602
    return None


TASKS = {"extensions": {"io.modelcontextprotocol/tasks": {}}}


def start_report(s, caps=TASKS):
    """tools/call slow_report: a task handle when caps declare the tasks extension."""
    return modern(s, "tools/call", {"name": "slow_report", "arguments": {"topic": "q3"}}, caps)[0]


def task_op(s, method, task_id, caps=TASKS):
    return modern(s, method, {"taskId": task_id}, caps)[0]


def polled_task(s, polls):
    """A new task's id and the answer to its last of `polls` tasks/get requests."""
    tid = start_report(s)["result"]["taskId"]
    got = None
    for _ in range(polls):
        got = task_op(s, "tasks/get", tid)
    return tid, got


def _listen_tags(s, kinds_by_id):
    for rid, kinds in kinds_by_id.items():
        listen(s, rid, kinds)
    _, notes = modern(s, "tools/call", {"name": "touch_catalog", "arguments": {}})
    return [n.get("params", {}).get("_meta", {}).get("io.modelcontextprotocol/subscriptionId", "<none>")
            for n in notes if n.get("method") == "notifications/tools/list_changed"]


# One probe per 2026-07-28 fault: True when the bug is on the wire of a modern exchange.
MODERN_PROBES = {
    "missing-result-type": lambda s: "resultType" not in modern(s, "server/discover")[0].get("result", {"resultType": 1}),
    "meta-not-required": lambda s: "result" in s.request(
        "tools/list", {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}})[0],
    "unsupported-version-wrong-code": lambda s: error_code(s.request(
        "tools/list", {"_meta": modern_meta(version="1900-01-01")})[0]) == -32602,
    "unsupported-version-no-list": lambda s: "supported" not in s.request(
        "tools/list", {"_meta": modern_meta(version="1900-01-01")})[0].get("error", {}).get("data", {"supported": 1}),
    "removed-method-answered": lambda s: "result" in modern(s, "ping")[0],
    "retired-not-found-code": lambda s: error_code(modern(s, "resources/read", {"uri": "test://nothing"})[0]) == -32002,
    "cache-hint-invalid": lambda s: modern(s, "tools/list")[0].get("result", {}).get("ttlMs") == -1,
    "discover-without-server-info": lambda s: "_meta" not in modern(s, "server/discover")[0].get("result", {"_meta": 1}),
    "input-state-carried": lambda s: confirm_round(s)[1] is not None and modern(
        s, "tools/call", {"name": "confirm", "arguments": {"target": "prod"}}, ELICIT)[0].get(
        "result", {}).get("resultType") == "complete",
    "request-state-ignored": lambda s: "result" in (confirm_round(s, state="forged")[1] or {}),
    "input-without-capability": lambda s: confirm_round(s, caps={})[0].get("result", {}).get("resultType") == "input_required",
    "prompt-round-refused": lambda s: error_code(declined_round(s, "prompts/get", {"name": "confirm_prompt"}) or {}) == -32602,
    "resource-round-refused": lambda s: error_code(declined_round(s, "resources/read", {"uri": "test://confirm/gated"}) or {}) == -32602,
    "elicitation-url-undeclared": lambda s: asked(confirm_round(s)[0], "confirm").get("mode") == "url",
    "elicitation-without-message": lambda s: "message" not in asked(confirm_round(s)[0], "confirm"),
    "elicitation-nested-form": lambda s: "details" in asked(confirm_round(s)[0], "confirm")["requestedSchema"]["properties"],
    "elicitation-url-with-id": lambda s: "elicitationId" in asked(confirm_round(s, caps=URL_ONLY)[0], "confirm"),
    "elicitation-cancel-refused": lambda s: error_code(confirm_round(s, answer={"action": "cancel"})[1] or {}) == -32603,
    "sampling-tools-undeclared": lambda s: "tools" in asked(brainstorm(s, caps=SAMPLING)[0], "draft"),
    "sampling-bad-role": lambda s: asked(brainstorm(s)[0], "draft")["messages"][0]["role"] == "system",
    "sampling-context-undeclared": lambda s: asked(brainstorm(s, caps=SAMPLING)[0], "draft").get("includeContext") == "thisServer",
    "sampling-tool-result-mixed": lambda s: "text" in [b.get("type") for b in tool_round(s)[2]["content"]],
    "sampling-tool-use-unanswered": lambda s: [b.get("toolUseId") for b in tool_round(s)[2]["content"]] == ["u1"],
    "sampling-tool-result-unmatched": lambda s: [b.get("toolUseId") for b in tool_round(s)[2]["content"]] == ["r-u1", "r-u2"],
    "roots-undeclared": lambda s: "where" in brainstorm(s, caps=SAMPLING)[0]["result"]["inputRequests"],
    "input-schema-untyped": lambda s: [t["inputSchema"].get("type") for t in modern(
        s, "tools/list")[0]["result"]["tools"] if t["name"] == "add"] == [None],
    "elicitation-url-not-absolute": lambda s: asked(confirm_round(s, caps=URL_ONLY)[0], "confirm").get("url") == "confirm/approve",
    "output-schema-invalid": lambda s: [t.get("outputSchema", {}).get("required") for t in modern(
        s, "tools/list")[0]["result"]["tools"] if t["name"] == "add"] == ["sum"],
    "listen-untagged": lambda s: _listen_tags(s, {"L": {"toolsListChanged": True}}) == ["<none>"],
    "listen-wrong-tag": lambda s: _listen_tags(s, {"L": {"toolsListChanged": True}}) not in ([], ["L"]),
    "listen-no-ack": lambda s: listen(s, "L", {"toolsListChanged": True}) == [],
    "list-varies-per-request": lambda s: modern(s, "tools/list")[0]["result"]["tools"] !=
    modern(s, "tools/list")[0]["result"]["tools"],
    "task-without-declaration": lambda s: start_report(s, {}).get("result", {}).get("resultType") == "task",
    "no-required-capability-error": lambda s: error_code(start_report(s, {})) == -32021 and
    "data" not in start_report(s, {})["error"],
    "task-result-type-on-get": lambda s: polled_task(s, 1)[1]["result"]["resultType"] == "task",
    "unknown-task-not-32602": lambda s: "result" in task_op(s, "tasks/get", "no-such-task"),
    "cancel-not-complete": lambda s: error_code(task_op(s, "tasks/cancel", polled_task(s, 2)[0])) == -32602,
    "completed-result-differs": lambda s: "content" in polled_task(s, 2)[1]["result"] and
    "result" not in polled_task(s, 2)[1]["result"],
    "update-unknown-key-refused": lambda s: error_code(modern(
        s, "tasks/update", {"taskId": polled_task(s, 0)[0], "inputResponses": {"nothing": {"action": "decline"}}}, TASKS)[0]) == -32602,
    "tasks-served-undeclared": lambda s: "result" in task_op(s, "tasks/get", start_report(s)["result"]["taskId"], {}),
    "listen-unrequested-kind": lambda s: sorted(_listen_tags(s, {"A": {"toolsListChanged": True},
                                                                 "B": {"promptsListChanged": True}})) == ["A", "B"],
}


def schema_failures(errors, fault):
    """Messages of one scripted session that the official schema rejects. The unreadable-id
    error reply carries "id": null (JSON-RPC 2.0), which the official schemas do not admit;
    the project accepts it, so that member is dropped before validating."""
    s = Server(*(["--fault", fault] if fault else []))
    init = s.initialize()
    for line in [{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                 {"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}, b"{oops",
                 {"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": "test://static/blob"}}]:
        s.send(line)
    s.send({"jsonrpc": "2.0", "id": 99, "method": "ping"})  # its answer marks the end
    got = [json.dumps(init).encode()]
    end = time.time() + 30
    while time.time() < end:
        line = s.raw(max(0.1, end - time.time()))
        if line is None:
            break
        got.append(line)
        if line.startswith(b"{") and b'"id":99' in line:
            break
    got += s.silence(0.2)
    s.kill()
    bad = []
    for line in got:
        try:
            msg = json.loads(line)
        except ValueError:
            bad.append(line[:80])
            continue
        if isinstance(msg, dict) and msg.get("id", 0) is None and "error" in msg:
            msg = {k: v for k, v in msg.items() if k != "id"}
        if errors(msg, "JSONRPCMessage") or \
                (isinstance(msg, dict) and msg.get("id") == 0 and errors(msg.get("result"), "InitializeResult")) or \
                (isinstance(msg, dict) and msg.get("id") == 2 and "result" in msg and
                 errors(msg["result"], "ListToolsResult")) or \
                (isinstance(msg, dict) and msg.get("id") == 4 and "result" in msg and
                 errors(msg["result"], "ReadResourceResult")):
            bad.append(json.dumps(msg)[:80])
    return bad


def check_fault_schemas(doc, schema_dir):
    """Every fault that claims MCPSPEC-SCHEMA really breaks the official schema."""
    errors = official_validator(schema_dir, LATEST)
    if errors is None:
        print("  SKIP: schema claims not cross-checked (needs jsonschema and --schemas)")
        return
    check(schema_failures(errors, None) == [], "correct server: scripted session passes the official schema")
    for e in doc["faults"]:
        if "MCPSPEC-SCHEMA" in e["requirements"]:
            bad = schema_failures(errors, e["name"])
            check(bad, f"{e['name']} claims MCPSPEC-SCHEMA: the official {LATEST} schema rejects a message")


def check_faults(faults_json, schema_dir=None):
    with open(faults_json) as f:
        doc = json.load(f)
    entries = doc["faults"] + doc.get("ambiguous", []) + doc.get("fuzz_only", [])
    listed = subprocess.run([BINARY, "--list-faults"], capture_output=True, text=True, timeout=5).stdout
    names = [line.split()[0] for line in listed.splitlines() if line.strip()]
    check(sorted(names) == sorted(e["name"] for e in entries), "faults.json and --list-faults agree")
    readme_path = os.path.join(os.path.dirname(os.path.abspath(faults_json)), "README.md")
    readme = open(readme_path).read() if os.path.isfile(readme_path) else ""
    for e in doc["faults"]:
        check(e.get("level") in ("MUST", "SHOULD") and e.get("requirements") and e.get("description"),
              f"{e['name']}: faults.json entry complete")
        row = f"| `{e['name']}` |"
        line = next((l for l in readme.splitlines() if l.startswith(row)), "")
        check(line.endswith(f"| {', '.join(e['requirements'])} | {e['level']} |"),
              f"{e['name']}: README row agrees with faults.json")
    for e in entries:
        try:
            seen = probe(e["name"])
        except (Timeout, EOFError, ValueError, KeyError, TypeError) as ex:
            seen = f"probe error {type(ex).__name__}: {ex}"
        check(seen is True, f"fault {e['name']} observable (probe said {seen})")
    check_fault_schemas(doc, schema_dir)

# --- The tasks extension's input rounds, failures, ids and listen streams (tasks.cpp) --------------

TASKS_ELICIT = dict(TASKS, **ELICIT)


def task_call(s, name, caps=TASKS, args=None):
    """tools/call `name` (no arguments unless given) at 2026-07-28: the answer."""
    return modern(s, "tools/call", {"name": name, "arguments": args or {}}, caps)[0]


def polls_of(s, name, polls, caps=TASKS, args=None):
    """A task of `name` polled `polls` times: (its id, the last tasks/get result)."""
    tid = task_call(s, name, caps, args)["result"]["taskId"]
    got = {}
    for _ in range(polls):
        got = task_op(s, "tasks/get", tid)["result"]
    return tid, got


def interview_rounds(s):
    """The interview task: each tasks/get result and each tasks/update answer, until it completes."""
    tid = task_call(s, "interview", TASKS_ELICIT)["result"]["taskId"]
    gets, updates = [], []
    for _ in range(4):
        got = task_op(s, "tasks/get", tid, TASKS_ELICIT)["result"]
        gets.append(got)
        if got["status"] != "input_required":
            break
        answers = {key: {"action": "decline"} for key in got["inputRequests"]}
        updates.append(modern(s, "tasks/update", {"taskId": tid, "inputResponses": answers}, TASKS_ELICIT)[0])
    return gets, updates


def task_stream(s):
    """slow_report followed on a listen stream: the notifications that came with two polls."""
    tid = task_call(s, "slow_report")["result"]["taskId"]
    s.send({"jsonrpc": "2.0", "id": "T", "method": "subscriptions/listen",
            "params": {"notifications": {"taskIds": [tid]}, "_meta": modern_meta(TASKS)}})
    notes = [json.loads(line) for line in s.silence(0.3)]
    for _ in range(2):
        notes += modern(s, "tasks/get", {"taskId": tid}, TASKS)[1]
    return notes


def check_task_rounds():
    s = Server()
    try:
        gets, updates = interview_rounds(s)
        keys = [sorted(g.get("inputRequests", {})) for g in gets]
        check(keys == [["question-1"], ["question-2"], []] and gets[-1]["status"] == "completed",
              f"tasks: interview asks question-1, then question-2, then completes (got {keys})")
        check(len(updates) == 2 and all(u.get("result", {}).get("resultType") == "complete" and
                                        not {"taskId", "status"} & set(u["result"]) for u in updates),
              "tasks: tasks/update answering outstanding keys -> an empty complete result")
        check(polls_of(s, "interview", 2)[1]["status"] == "completed",
              "tasks: interview without elicitation asks nothing and completes")
        done = polls_of(s, "fail", 2)[1]
        check(done["status"] == "completed" and done.get("result", {}).get("isError") is True,
              "tasks: fail as a task -> completed with its isError result")
        check(task_call(s, "fail", {}).get("result", {}).get("isError") is True,
              "tasks: fail without the extension -> the plain isError result")
        broken = polls_of(s, "broken_job", 2)[1]
        check(broken["status"] == "failed" and broken.get("error", {}).get("code") == -32603 and "result" not in broken,
              "tasks: broken_job -> failed with its JSON-RPC error")
        first = task_call(s, "confirm", TASKS_ELICIT, {"target": "prod"})
        check(first.get("result", {}).get("resultType") == "input_required",
              "tasks: confirm with the extension asks before creating a task")
        notes = task_stream(s)
        methods = [n.get("method") for n in notes]
        check("notifications/subscriptions/acknowledged" in methods and "notifications/tasks" in methods and
              "notifications/message" not in methods and "notifications/progress" not in methods,
              f"tasks: a listen stream following a task gets notifications/tasks only (got {methods})")
        s.send({"jsonrpc": "2.0", "id": "U", "method": "subscriptions/listen",
                "params": {"notifications": {"taskIds": ["x"]}, "_meta": modern_meta({})}})
        refused = [json.loads(line) for line in s.silence(0.3)]
        check(any(error_code(m) == -32021 for m in refused),
              "tasks: listen with taskIds without the extension -> -32021")
    finally:
        s.kill()


MODERN_PROBES.update({
    "input-key-reused": lambda s: len(interview_rounds(s)[0]) > 1 and
    "question-1" in interview_rounds(s)[0][1].get("inputRequests", {}),
    "update-ack-not-complete": lambda s: interview_rounds(s)[1][0].get("result", {}).get("resultType") == "task",
    "tool-error-as-failed": lambda s: polls_of(s, "fail", 2)[1]["status"] == "failed",
    "failed-without-error": lambda s: polls_of(s, "broken_job", 2)[1].get("status") == "failed" and
    "error" not in polls_of(s, "broken_job", 2)[1],
    "sequential-task-ids": lambda s: task_call(s, "slow_report")["result"]["taskId"] == "task-1",
    "task-before-input": lambda s: task_call(s, "confirm", TASKS_ELICIT, {"target": "prod"}).get(
        "result", {}).get("resultType") == "task",
    "progress-on-task-stream": lambda s: "notifications/message" in [n.get("method") for n in task_stream(s)],
    "task-listen-undeclared": lambda s: listen(s, "U", {"taskIds": ["x"]}) != [] and
    not any(error_code(m) == -32021 for m in listen(s, "V", {"taskIds": ["x"]})),
})


def main():
    global BINARY
    ap = argparse.ArgumentParser(description="self-check of mcpspec-testserver")
    ap.add_argument("binary")
    ap.add_argument("faults_json")
    ap.add_argument("--schemas", help="directory with <version>/schema.json (official, read-only)")
    ap.add_argument("-k", default="", help="run only sections whose name contains this")
    opts = ap.parse_args()
    BINARY = opts.binary
    sections = [("lifecycle", check_lifecycle), ("envelope", check_envelope), ("batches", check_batches),
                ("tools", check_tools), ("resources", check_resources),
                ("prompts-logging-completion", check_prompts_logging_completion),
                ("modern", check_modern), ("task-rounds", check_task_rounds), ("profiles", check_profiles), ("process", check_process), ("fuzz", check_fuzz),
                ("schemas", lambda: check_schemas(opts.schemas)),
                ("faults", lambda: check_faults(opts.faults_json, opts.schemas))]
    for name, fn in sections:
        if opts.k not in name:
            continue
        t0 = time.time()
        print(f"[{name}]", flush=True)
        try:
            fn()
        except (Timeout, EOFError, ValueError, KeyError, TypeError, IndexError) as ex:
            check(False, f"{name}: aborted by {type(ex).__name__}: {ex}")
        print(f"  ({time.time() - t0:.1f} s)", flush=True)
    print(f"{CHECKS - len(FAILURES)}/{CHECKS} checks passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
