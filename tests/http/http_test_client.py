#!/usr/bin/env python3
"""A small Streamable HTTP MCP client with injectable HTTP-level faults, for testing mcpspec's
client-role checks over HTTP (scenarios/mcp/transport/http-client, .../sse-client). Standard
library only.

  http_test_client.py [--fault NAME] URL        (a URL ending in /sse: the 2024-11-05 HTTP+SSE transport)

Follows mcpspec's client driver protocol (docs/testing-clients.md): MCPSPEC_CONTEXT gives the
capabilities and actions (ping, list_tools, call_tool with progress / cancel_after_ms / await,
await_all, wait_ms, exit; at 2026-07-28 also listen); server features are used only when declared, sampling / roots /
elicitation are served only when the client declared them. Correct behaviour: every message its own
POST with Accept listing both types; JSON and SSE answers read; the issued Mcp-Session-Id and the
negotiated MCP-Protocol-Version on every later request; a GET stream for server messages; a closed
stream resumed with GET + Last-Event-ID after the server's retry time; a new session on 404; DELETE
at exit.

At 2026-07-28 and later (MCPSPEC_PROTOCOL, or the context's protocolVersion) it is a stateless
client (ModernClient): no session, server/discover first, params._meta on every request, and on
every POST MCP-Protocol-Version, Mcp-Method and Mcp-Name (base64 in the =?base64?...?= sentinel
when the value is not plain ASCII).
"""
import base64
import http.client
import json
import os
import re
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from fault_client import parse_fault_client_args  # noqa: E402

FAULTS = {
    "no-session-id": "never sends Mcp-Session-Id (SESS-05)",
    "no-protocol-version": "never sends MCP-Protocol-Version (HTTP-PV-01)",
    "accept-json-only": "POSTs with Accept: application/json only (HTTP-11)",
    "json-only": "cannot read an SSE answer to a POST (HTTP-16)",
    "no-reinit-on-404": "gives up instead of starting a new session after 404 (SESS-08)",
    "ignores-retry": "resumes a closed stream at once, ignoring retry (HTTP-20)",
    "batch": "sends notifications/initialized (at 2026-07-28: server/discover) inside a batch array (HTTP-12)",
    "no-delete": "exits without ending its session with DELETE (SESS-09)",
    "wrong-endpoint": "legacy HTTP+SSE: POSTs to /messages without the announced session_id (SSE-05)",
    "modern-no-method-header": "2026-07-28: POSTs without Mcp-Method (HDR-01)",
    "modern-version-header-mismatch": "2026-07-28: MCP-Protocol-Version 2025-11-25 while _meta says 2026-07-28 (HTTP-PV-02)",
    "modern-wrong-name-header": "2026-07-28: Mcp-Name names another tool than the body (HDR-01)",
    "modern-raw-name": "2026-07-28: a non-ASCII Mcp-Name sent as raw bytes, not base64 (HDR-02)",
    "modern-no-param-header": "2026-07-28: does not mirror x-mcp-header arguments into Mcp-Param-* (HDR-08)",
    "modern-param-python-bool": "2026-07-28: writes a boolean Mcp-Param value as True/False (HDR-11)",
    "modern-no-http-fallback": "2026-07-28: gives up when its server/discover probe gets a 400 without a modern error body, instead of falling back to initialize (VER-11)",
    "modern-get-first": "2026-07-28: opens with a GET for an HTTP+SSE endpoint event before it POSTs its probe (HTTP-BC-01)",
    "modern-keeps-invalid-tool": "2026-07-28: keeps and calls a tool whose x-mcp-header annotation is invalid (HDR-10)",
    "modern-resumes-stream": "2026-07-28: after its response stream breaks, resumes it with GET and Last-Event-ID instead of sending the request again with a new id (HTTP-45)",
    "modern-listen-comment-breaks": "2026-07-28: takes an SSE comment (keep-alive) on its listen stream for malformed input and drops the stream (SUB-14)",
    "modern-listen-cancel-not-close": "2026-07-28: ends a listen over HTTP with notifications/cancelled and leaves the stream open (SUB-08)",
    "modern-task-no-name-header": "2026-07-28, tasks extension: polls tasks/get without Mcp-Name naming the taskId (XTASK-26)",
}
MODERN_VERSIONS = ["2026-07-28"]
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
TASK_METHODS = ("tasks/get", "tasks/update", "tasks/cancel")
KNOWN_VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25"]


def log(text):
    sys.stderr.write("http-test-client: %s\n" % text)
    sys.stderr.flush()


class SessionGone(Exception):
    pass


class StreamBroken(Exception):
    """A response stream ended before the response: at 2026-07-28 the request is lost."""


class LegacyServer(Exception):
    """The modern probe was refused the way only a server of an earlier revision refuses it."""


# The JSON-RPC errors only a 2026-07-28 server sends: header mismatch, missing _meta, unsupported
# version. A 400/404/405 whose body is none of them comes from a server of an earlier revision.
MODERN_ERROR_CODES = (-32020, -32021, -32022)


def is_modern_error(answer):
    error = answer.get("error") if isinstance(answer, dict) else None
    return isinstance(error, dict) and error.get("code") in MODERN_ERROR_CODES


def served_result(method, context):
    """What the client answers to a server request: ping always, sampling / roots / elicitation
    only when it declared them (None: method not found)."""
    caps = context.get("capabilities", {})
    if method == "ping":
        return {}
    if method == "sampling/createMessage" and "sampling" in caps:
        return {"role": "assistant", "content": {"type": "text", "text": "canned"}, "model": "mcpspec-http-test-client"}
    if method == "roots/list" and "roots" in caps:
        return {"roots": [{"uri": "file:///tmp/mcpspec-http-test-client", "name": "scratch"}]}
    if method == "elicitation/create" and "elicitation" in caps:
        return {"action": "decline"}
    return None


def sse_events(resp, on_comment=None):
    """Yields (id, event, data, retry) for each event of an SSE response until it ends. A comment
    line (":" first) carries nothing; `on_comment`, when given, sees it first."""
    ev_id, event, data, retry = None, "message", [], None
    while True:
        line = resp.readline()
        if not line:
            return
        line = line.decode("utf-8").rstrip("\r\n")
        if line.startswith(":") and on_comment:
            on_comment(line)
        if line == "":
            if data or ev_id is not None or retry is not None:
                yield ev_id, event, "\n".join(data), retry
            ev_id, event, data, retry = None, "message", [], None
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            ev_id = value
        elif field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "retry" and value.isdigit():
            retry = int(value)


def tool_call_message(action, rid):
    """The tools/call request of a driver action; "progress" asks for notifications with a token."""
    params = {"name": action.get("name", "echo"), "arguments": action.get("arguments", {})}
    if action.get("progress"):
        params["_meta"] = {"progressToken": "progress-%d" % rid}
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}


def run_tool_call(client, action, rid, work):
    """Runs `work` (posting tools/call `rid` and waiting for its answer) on its own thread, so a
    pending call does not stop the other actions. cancel_after_ms gives up with
    notifications/cancelled; "await": false returns the thread instead of joining it."""
    t = threading.Thread(target=work, daemon=True)
    t.start()
    if "cancel_after_ms" in action:
        time.sleep(action["cancel_after_ms"] / 1000.0)
        client.post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": rid, "reason": "given up by the test client"}})
        return None
    if action.get("await", True):
        t.join(30)
        return None
    return t


class Client:
    def __init__(self, url, fault, context):
        self.url = urllib.parse.urlsplit(url)
        self.fault = fault
        self.context = context
        self.session = None
        self.version = None
        self.next_id = 1
        self.lock = threading.Lock()
        self.get_thread = None
        self.server_caps = {}

    def headers(self, post):
        h = {}
        if post:
            h["Content-Type"] = "application/json"
            h["Accept"] = "application/json" if self.fault == "accept-json-only" else "application/json, text/event-stream"
        else:
            h["Accept"] = "text/event-stream"
        if self.session and self.fault != "no-session-id":
            h["Mcp-Session-Id"] = self.session
        if self.version and self.version >= "2025-06-18" and self.fault != "no-protocol-version":
            h["MCP-Protocol-Version"] = self.version
        return h

    def connect(self, timeout=30):
        return http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=timeout)

    def handle_server_message(self, msg):
        """Answers what the server asks (ping; anything else: method not found)."""
        if not isinstance(msg, dict) or "method" not in msg or "id" not in msg:
            return
        answer = {"jsonrpc": "2.0", "id": msg["id"], "result": served_result(msg["method"], self.context)}
        if answer["result"] is None:
            answer = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}}
        threading.Thread(target=self.post_quietly, args=(answer,), daemon=True).start()

    def post_quietly(self, msg):
        try:
            self.post(msg)
        except Exception as e:  # the answer is lost; the harness judges that
            log("answering %s: %s" % (msg.get("id"), e))

    def answer_from_stream(self, resp, want_id, last_id=None, retry=None):
        """Reads SSE events until the response to want_id (answering what the server asks on the
        way); returns (that response or None when the stream ended first, last event id, retry)."""
        for ev_id, event, data, ev_retry in sse_events(resp):
            last_id = ev_id if ev_id is not None else last_id
            retry = ev_retry if ev_retry is not None else retry
            if event != "message" or not data.strip():
                continue
            msg = json.loads(data)
            if isinstance(msg, dict) and "method" not in msg and msg.get("id") == want_id:
                return msg, last_id, retry
            self.handle_server_message(msg)
        return None, last_id, retry

    def read_stream(self, resp, want_id):
        """Reads an SSE response; returns the response to want_id, resuming with GET if it ends early."""
        last_id, retry = None, None
        while True:
            answer, last_id, retry = self.answer_from_stream(resp, want_id, last_id, retry)
            if answer is not None:
                return answer
            if want_id is None or last_id is None:
                return None
            wait = 0 if self.fault == "ignores-retry" else (retry if retry is not None else 1000)
            time.sleep(wait / 1000.0)
            conn = self.connect()
            h = self.headers(False)
            h["Last-Event-ID"] = last_id
            conn.request("GET", self.url.path, headers=h)
            resp = conn.getresponse()
            if resp.status == 404:
                raise SessionGone()
            if resp.status != 200:
                raise RuntimeError("resuming after event %s: HTTP %d" % (last_id, resp.status))

    def post(self, msg):
        body = json.dumps(msg)
        conn = self.connect()
        conn.request("POST", self.url.path, body=body, headers=self.headers(True))
        resp = conn.getresponse()
        if resp.status == 404 and self.session:
            resp.read()
            raise SessionGone()
        sid = resp.getheader("Mcp-Session-Id")
        if sid and isinstance(msg, dict) and msg.get("method") == "initialize":
            self.session = sid
        if resp.status == 202:
            resp.read()
            return None
        ctype = resp.getheader("Content-Type", "")
        want = msg.get("id") if isinstance(msg, dict) and "method" in msg else None
        if resp.status != 200:
            raise RuntimeError("POST %s: HTTP %d %s" % (msg.get("method", "?"), resp.status, resp.read()[:200]))
        if ctype.startswith("application/json"):
            return json.loads(resp.read())
        if ctype.startswith("text/event-stream"):
            if self.fault == "json-only":
                raise RuntimeError("unexpected Content-Type %s" % ctype)
            return self.read_stream(resp, want)
        raise RuntimeError("POST: unexpected Content-Type %r" % ctype)

    def call_tool(self, action):
        """tools/call on its own thread (a pending POST must not stop the other actions); progress
        asks for notifications with a token; cancel_after_ms gives up with notifications/cancelled."""
        if "tools" not in self.server_caps:
            log("tools/call %s declined: the server did not declare tools" % action.get("name"))
            return None
        with self.lock:
            rid = self.next_id
            self.next_id += 1
        msg = tool_call_message(action, rid)
        return run_tool_call(self, action, rid, lambda: self.post_quietly(msg))

    def request(self, method, params=None):
        with self.lock:
            rid = self.next_id
            self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        return self.post(msg)

    def initialize(self):
        self.session, self.version = None, None
        proposed = self.context.get("protocolVersion") or os.environ.get("MCPSPEC_PROTOCOL") or KNOWN_VERSIONS[-1]
        answer = self.request("initialize", {"protocolVersion": proposed,
                                             "capabilities": self.context.get("capabilities", {}),
                                             "clientInfo": {"name": "mcpspec-http-test-client", "version": "1.0.0"}})
        if not answer or "result" not in answer:
            raise RuntimeError("initialize failed: %r" % answer)
        version = answer["result"].get("protocolVersion")
        if version not in KNOWN_VERSIONS:
            raise RuntimeError("unsupported protocol version %r" % version)
        self.version = version
        self.server_caps = answer["result"].get("capabilities", {})
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        self.post([note] if self.fault == "batch" else note)
        self.get_thread = threading.Thread(target=self.get_stream, args=(self.session,), daemon=True)
        self.get_thread.start()

    def get_stream(self, session):
        try:
            conn = self.connect(timeout=600)
            conn.request("GET", self.url.path, headers=self.headers(False))
            resp = conn.getresponse()
            if resp.status != 200:
                resp.read()
                return
            for _, event, data, _ in sse_events(resp):
                if event == "message" and data.strip():
                    self.handle_server_message(json.loads(data))
        except Exception as e:
            if self.session == session:
                log("GET stream ended: %s" % e)

    def call(self, fn):
        """Runs fn; on 404 starts a new session (unless faulty) and runs it again."""
        try:
            return fn()
        except SessionGone:
            if self.fault == "no-reinit-on-404":
                log("session gone (404); giving up")
                raise SystemExit(1)
            log("session gone (404): starting a new session")
            self.initialize()
            return fn()

    def delete(self):
        if not self.session or self.fault == "no-delete":
            return
        conn = self.connect(timeout=5)
        conn.request("DELETE", self.url.path, headers=self.headers(False))
        conn.getresponse().read()


class LegacyClient:
    """The 2024-11-05 HTTP+SSE transport: one GET /sse stream, whose first event names the URI that
    every message is POSTed to; answers come back as message events on the stream."""

    def __init__(self, url, fault, context):
        self.url = urllib.parse.urlsplit(url)
        self.fault = fault
        self.context = context
        self.endpoint = None
        self.cv = threading.Condition()
        self.answers = {}
        self.next_id = 1
        self.closed = False
        self.server_caps = {}

    def connect(self, timeout=30):
        return http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=timeout)

    def open_stream(self):
        conn = self.connect(timeout=600)
        conn.request("GET", self.url.path, headers={"Accept": "text/event-stream"})
        resp = conn.getresponse()
        if resp.status != 200:
            raise RuntimeError("GET %s: HTTP %d" % (self.url.path, resp.status))
        threading.Thread(target=self.read_stream, args=(resp,), daemon=True).start()
        with self.cv:
            self.cv.wait_for(lambda: self.endpoint or self.closed, timeout=10)
        if not self.endpoint:
            raise RuntimeError("no endpoint event")

    def read_stream(self, resp):
        try:
            for _, event, data, _ in sse_events(resp):
                if event == "endpoint":
                    with self.cv:
                        self.endpoint = data.strip()
                        self.cv.notify_all()
                elif event == "message" and data.strip():
                    msg = json.loads(data)
                    if isinstance(msg, dict) and "method" in msg and "id" in msg:
                        result = served_result(msg["method"], self.context)
                        answer = {"jsonrpc": "2.0", "id": msg["id"], "result": result} if result is not None else \
                            {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}}
                        threading.Thread(target=self.post, args=(answer,), daemon=True).start()
                    elif isinstance(msg, dict) and "method" not in msg:
                        with self.cv:
                            self.answers[msg.get("id")] = msg
                            self.cv.notify_all()
        except Exception as e:
            log("SSE stream: %s" % e)
        with self.cv:
            self.closed = True
            self.cv.notify_all()

    def post(self, msg):
        target = urllib.parse.urljoin(self.url.path, self.endpoint)
        if self.fault == "wrong-endpoint":
            target = urllib.parse.urlsplit(target).path
        conn = self.connect()
        conn.request("POST", target, body=json.dumps(msg), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        if resp.status // 100 != 2:
            raise RuntimeError("POST %s: HTTP %d" % (target, resp.status))

    def request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.post(msg)
        with self.cv:
            self.cv.wait_for(lambda: rid in self.answers or self.closed, timeout=30)
            if rid not in self.answers:
                raise RuntimeError("no answer to %s" % method)
            return self.answers.pop(rid)

    def call_tool(self, action):
        """As Client.call_tool: the answer arrives on the stream, so the thread waits for it there."""
        if "tools" not in self.server_caps:
            log("tools/call %s declined: the server did not declare tools" % action.get("name"))
            return None
        rid = self.next_id
        self.next_id += 1
        msg = tool_call_message(action, rid)

        def run():
            try:
                self.post(msg)
                with self.cv:
                    self.cv.wait_for(lambda: rid in self.answers or self.closed, timeout=30)
            except Exception as e:
                log("tools/call: %s" % e)

        return run_tool_call(self, action, rid, run)

    def initialize(self):
        self.open_stream()
        proposed = self.context.get("protocolVersion") or os.environ.get("MCPSPEC_PROTOCOL") or "2024-11-05"
        answer = self.request("initialize", {"protocolVersion": proposed,
                                             "capabilities": self.context.get("capabilities", {}),
                                             "clientInfo": {"name": "mcpspec-http-test-client", "version": "1.0.0"}})
        version = answer.get("result", {}).get("protocolVersion")
        if version not in ["2024-11-05"] + KNOWN_VERSIONS:
            raise RuntimeError("unsupported protocol version %r" % version)
        self.server_caps = answer["result"].get("capabilities", {})
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call(self, fn):
        return fn()

    def delete(self):
        pass  # the stream closes when the process exits


HEADER_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
# Schema keywords under which a property is not statically reachable by a chain of "properties".
UNREACHABLE = ("items", "prefixItems", "additionalProperties", "oneOf", "anyOf", "allOf", "not", "if", "then",
               "else", "$defs", "definitions", "patternProperties", "dependentSchemas")


def header_annotations(schema):
    """The x-mcp-header annotations of an inputSchema as {property path: header name}, or None when
    one is invalid (empty, not a token, on a type other than integer, string or boolean, a
    case-insensitive duplicate, or not reachable through "properties" alone): such a tool is
    dropped from the list over HTTP (HDR-10)."""
    found, seen = {}, set()

    def walk(node, path, reachable):
        if not isinstance(node, dict):
            return True
        if "x-mcp-header" in node and path:
            name = node["x-mcp-header"]
            if not (reachable and isinstance(name, str) and HEADER_TOKEN.match(name)
                    and node.get("type") in ("integer", "string", "boolean") and name.lower() not in seen):
                return False
            seen.add(name.lower())
            found[path] = name
        for key, sub in node.items():
            if key == "properties" and isinstance(sub, dict):
                if not all(walk(v, path + (k,), reachable) for k, v in sub.items()):
                    return False
            elif key in UNREACHABLE:
                for s in (sub.values() if isinstance(sub, dict) and key in ("$defs", "definitions", "patternProperties", "dependentSchemas")
                          else sub if isinstance(sub, list) else [sub]):
                    if not walk(s, path, False):
                        return False
        return True

    return found if walk(schema if isinstance(schema, dict) else {}, (), True) else None


def header_safe(value):
    """True when a value may go into a header as it is: printable ASCII, no edge whitespace."""
    return value == value.strip() and all(0x20 <= ord(ch) < 0x7F for ch in value)


def header_value(value, fault=None):
    """A header value: plain when safe, else the =?base64?...?= sentinel of its UTF-8."""
    if isinstance(value, bool):
        return str(value) if fault == "modern-param-python-bool" else ("true" if value else "false")
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if header_safe(text):
        return text
    return "=?base64?" + base64.b64encode(text.encode("utf-8")).decode("ascii") + "?="


class ModernClient(Client):
    """The 2026-07-28 client: stateless POSTs, _meta on every request, the standard headers."""

    def __init__(self, url, fault, context, version):
        super().__init__(url, fault, context)
        self.version = version
        self.param_headers = {}  # tool name -> {argument path: header suffix}, from tools/list
        self.rejected = set()  # tools dropped for an invalid x-mcp-header annotation (HDR-10)

    def meta(self):
        return {"io.modelcontextprotocol/protocolVersion": self.version,
                "io.modelcontextprotocol/clientCapabilities": self.context.get("capabilities", {}),
                "io.modelcontextprotocol/clientInfo": {"name": "mcpspec-http-test-client", "version": "1.0.0"}}

    def message_headers(self, msg):
        h = {"Content-Type": "application/json",
             "Accept": "application/json" if self.fault == "accept-json-only" else "application/json, text/event-stream"}
        if self.fault != "no-protocol-version":
            h["MCP-Protocol-Version"] = "2025-11-25" if self.fault == "modern-version-header-mismatch" else self.version
        method = msg.get("method")
        if "id" in msg and method and self.fault != "modern-no-method-header":
            h["Mcp-Method"] = method
        params = msg.get("params") or {}
        name = params.get("uri") if method == "resources/read" else params.get("name") if method in ("tools/call", "prompts/get") else None
        if method in TASK_METHODS:  # the tasks extension routes a task's requests by its id (XTASK-26)
            name = None if self.fault == "modern-task-no-name-header" else params.get("taskId")
        if isinstance(name, str) and "id" in msg:
            if self.fault == "modern-wrong-name-header":
                name = name + "-other"
            if header_safe(name):
                h["Mcp-Name"] = name
            elif self.fault == "modern-raw-name":
                h["Mcp-Name"] = name.encode("utf-8").decode("latin-1")
            else:
                h["Mcp-Name"] = header_value(name)
        if method == "tools/call" and self.fault != "modern-no-param-header":
            args = params.get("arguments") or {}
            for path, suffix in self.param_headers.get(params.get("name"), {}).items():
                value = args
                for key in path:
                    value = value.get(key) if isinstance(value, dict) else None
                if value is not None:
                    h["Mcp-Param-" + suffix] = header_value(value, self.fault)
        return h

    def post(self, msg):
        conn = self.connect()
        body = [msg] if self.fault == "batch" and msg.get("method") == "server/discover" else msg
        conn.request("POST", self.url.path, body=json.dumps(body), headers=self.message_headers(msg))
        resp = conn.getresponse()
        ctype = resp.getheader("Content-Type", "")
        if resp.status == 202:
            resp.read()
            return None
        if resp.status >= 400:
            body = resp.read()
            try:
                answer = json.loads(body)
            except ValueError:
                answer = None
            if is_modern_error(answer):
                return answer  # a modern error (-32020, -32022) is an answer
            if msg.get("method") == "server/discover" and resp.status in (400, 404, 405):
                raise LegacyServer("server/discover: HTTP %d %s" % (resp.status, body[:200]))
            if answer is not None:
                return answer
            raise RuntimeError("POST %s: HTTP %d %s" % (msg.get("method", "?"), resp.status, body[:200]))
        if ctype.startswith("application/json"):
            return json.loads(resp.read())
        if ctype.startswith("text/event-stream") and self.fault != "json-only":
            return self.read_stream(resp, msg.get("id"))
        raise RuntimeError("POST: unexpected Content-Type %r" % ctype)

    def list_tools(self):
        """tools/list page by page: every string nextCursor names another page."""
        params = {}
        for _ in range(20):
            answer = self.request("tools/list", params)
            result = answer.get("result") if isinstance(answer, dict) else None
            if not isinstance(result, dict) or not isinstance(result.get("nextCursor"), str):
                return
            params = {"cursor": result["nextCursor"]}

    def read_stream(self, resp, want_id):
        """An SSE answer to a POST; there is no resumption at 2026-07-28, so a stream that ends
        before the response raises StreamBroken (the caller sends the request again, HTTP-45)."""
        last_id = None
        try:
            answer, last_id, _ = self.answer_from_stream(resp, want_id)
            if answer is not None:
                return answer
        except (http.client.HTTPException, OSError) as e:
            log("response stream of %s broke: %r" % (want_id, e))
        if want_id is None:
            return None
        if self.fault == "modern-resumes-stream" and last_id is not None:
            # The 2025-11-25 way, which 2026-07-28 removed: resume the stream after its last event.
            conn = self.connect(timeout=5)
            conn.request("GET", self.url.path, headers={"Accept": "text/event-stream", "Last-Event-ID": last_id})
            status = conn.getresponse().status
            conn.close()
            raise RuntimeError("resuming the response stream of %s after event %s: HTTP %d" % (want_id, last_id, status))
        raise StreamBroken("the response stream of request %s ended without its response" % want_id)

    def post_again_if_broken(self, make):
        """Posts make(new id) and, when its response stream breaks, sends it again with a new id
        (HTTP-45), at most twice."""
        for attempt in range(3):
            with self.lock:
                rid = self.next_id
                self.next_id += 1
            try:
                return self.post(make(rid))
            except StreamBroken as e:
                log("%s: sending it again with a new id" % e)
        return None

    def request(self, method, params=None):
        params = dict(params or {})
        params["_meta"] = dict(self.meta(), **params.get("_meta", {}))
        answer = self.post_again_if_broken(lambda rid: {"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        if method == "tools/list" and answer and isinstance(answer.get("result"), dict):
            for tool in answer["result"].get("tools", []):
                marked = header_annotations(tool.get("inputSchema"))
                if marked is None and self.fault != "modern-keeps-invalid-tool":
                    log("tool %r dropped: an invalid x-mcp-header annotation" % tool.get("name"))
                    self.rejected.add(tool.get("name"))
                    continue
                self.param_headers[tool.get("name")] = marked or {}
        return answer

    def initialize(self):
        """The probe: server/discover; a discover result keeps the client modern, a refusal that
        carries no modern error raises LegacyServer (the caller falls back to initialize)."""
        if self.fault == "modern-get-first":
            conn = self.connect(timeout=5)
            conn.request("GET", self.url.path, headers={"Accept": "text/event-stream"})
            log("GET probe for an HTTP+SSE endpoint: HTTP %d" % conn.getresponse().status)
            conn.close()
        answer = self.request("server/discover")
        if not answer or "result" not in answer:
            raise RuntimeError("server/discover failed: %r" % answer)
        self.server_caps = answer["result"].get("capabilities", {})

    def call_tool(self, action):
        if action.get("name") in self.rejected:
            log("tools/call %s declined: the tool was dropped from the list" % action.get("name"))
            return None

        def message(rid):
            msg = tool_call_message(action, rid)
            msg["params"]["_meta"] = dict(self.meta(), **msg["params"].get("_meta", {}))
            return msg

        def work():
            try:
                answer = self.post_again_if_broken(message)
                result = answer.get("result") if isinstance(answer, dict) else None
                if isinstance(result, dict) and result.get("resultType") == "task" and self.declares_tasks():
                    self.follow_task(result)
            except Exception as e:  # the answer is lost; the harness judges that
                log("tools/call: %s" % e)

        with self.lock:
            upcoming = self.next_id  # the first attempt's id, for cancel_after_ms
        return run_tool_call(self, action, upcoming, work)

    def declares_tasks(self):
        return TASKS_EXTENSION in (self.context.get("capabilities", {}).get("extensions") or {})

    def follow_task(self, task):
        """A task handle (the tasks extension): polls tasks/get, pollIntervalMs apart (1 s without
        one, at most 5 s), until a terminal status. Input requests of a task are not answered: this
        client follows tasks only to check how their requests are routed over HTTP."""
        interval = 1000
        for _ in range(100):
            if task.get("status") in ("completed", "failed", "cancelled"):
                log("task %s ended %s" % (task.get("taskId"), task.get("status")))
                return
            if isinstance(task.get("pollIntervalMs"), int):
                interval = min(max(task["pollIntervalMs"], 0), 5000)
            time.sleep(interval / 1000.0)
            answer = self.request("tasks/get", {"taskId": task.get("taskId")})
            if not isinstance(answer, dict) or not isinstance(answer.get("result"), dict):
                log("tasks/get: %r" % (answer,))
                return
            task = answer["result"]

    def call(self, fn):
        return fn()

    def listen(self, action):
        """subscriptions/listen over HTTP: the answer is an SSE stream that stays open. A
        tools/list_changed tagged with this listen's id is followed by tools/list; keep-alive
        comments are ignored. After `ms` the client ends the subscription by closing the stream."""
        with self.lock:
            rid = self.next_id
            self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": "subscriptions/listen",
               "params": {"notifications": action.get("notifications", {}), "_meta": self.meta()}}
        conn = self.connect()
        conn.request("POST", self.url.path, body=json.dumps(msg), headers=self.message_headers(msg))
        resp = conn.getresponse()
        if resp.status != 200 or not resp.getheader("Content-Type", "").startswith("text/event-stream"):
            log("listen: HTTP %d %s" % (resp.status, resp.getheader("Content-Type", "")))
            resp.read()
            return

        def comment(line):
            if self.fault == "modern-listen-comment-breaks":
                raise ValueError("malformed SSE line %r" % line)

        ending = threading.Event()  # set when this client closes the stream itself

        def follow():
            try:
                for _, event, data, _ in sse_events(resp, comment):
                    if event != "message" or not data.strip():
                        continue
                    note = json.loads(data)
                    meta = (note.get("params") or {}).get("_meta") or {}
                    if note.get("method") == "notifications/tools/list_changed" and \
                            meta.get("io.modelcontextprotocol/subscriptionId") == rid:
                        self.request("tools/list")
            except Exception as e:  # the stream is gone (closed below, or dropped by the fault)
                if not ending.is_set():
                    log("listen stream: %s" % e)
            finally:
                conn.close()

        threading.Thread(target=follow, daemon=True).start()
        time.sleep(action.get("ms", 1000) / 1000.0)
        if self.fault == "modern-listen-cancel-not-close":
            self.held = conn  # the stream stays open until the client exits
            self.post({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": rid}})
            return
        ending.set()
        try:
            conn.sock.shutdown(2)  # SHUT_RDWR: ends the SSE stream, which ends the subscription
        except (OSError, AttributeError):
            pass
        conn.close()

    def delete(self):
        pass  # no session to end


def main():
    a = parse_fault_client_args(FAULTS)
    context = json.loads(os.environ.get("MCPSPEC_CONTEXT") or "{}")
    legacy = urllib.parse.urlsplit(a.url).path.endswith("/sse")
    version = context.get("protocolVersion") or os.environ.get("MCPSPEC_PROTOCOL") or ""
    if not legacy and version in MODERN_VERSIONS:
        c = ModernClient(a.url, a.fault, context, version)
    else:
        c = (LegacyClient if legacy else Client)(a.url, a.fault, context)
    try:
        try:
            c.initialize()
        except LegacyServer as e:
            if a.fault == "modern-no-http-fallback":
                raise
            # A dual-era client: the server predates 2026-07-28, so the session protocol of the
            # newest earlier revision (VER-11).
            log("%s: falling back to initialize" % e)
            c = Client(a.url, a.fault, dict(context, protocolVersion=KNOWN_VERSIONS[-1]))
            c.initialize()
    except Exception as e:
        log("initialize: %s" % e)
        return 1
    pending = []
    for action in context.get("actions", []):
        what = action.get("do")
        try:
            if what == "ping":
                c.call(lambda: c.request("ping"))
            elif what == "list_tools":
                if "tools" in getattr(c, "server_caps", {}):
                    c.call(c.list_tools if hasattr(c, "list_tools") else lambda: c.request("tools/list"))
                else:
                    log("tools/list declined: the server did not declare tools")
            elif what == "call_tool" and hasattr(c, "call_tool"):
                t = c.call_tool(action)
                if t is not None:
                    pending.append(t)
            elif what == "listen" and hasattr(c, "listen"):
                c.listen(action)
            elif what == "await_all":
                for t in pending:
                    t.join(30)
                pending.clear()
            elif what == "wait_ms":
                time.sleep(action.get("ms", 100) / 1000.0)
            elif what == "exit":
                c.delete()
                return 0
            else:
                log("unknown action %r (ignored)" % action)
        except SystemExit:
            raise
        except Exception as e:
            log("%s: %s" % (what, e))
    time.sleep(context.get("linger_ms", 60000) / 1000.0)
    c.delete()
    return 0


if __name__ == "__main__":
    sys.exit(main())
