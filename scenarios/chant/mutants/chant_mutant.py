#!/usr/bin/env python3
"""A deliberately broken chant: checks that the chant suite catches the obvious bugs.

A passing suite proves little unless each scenario would fail against a chant that gets its
point wrong. This proxy sits between mcpspec and a real `chant mcp` and breaks one thing at a
time (a "mutant"): it rewrites requests on the way in, responses on the way out, or touches the
project files the way a buggy chant would. run_mutants.py runs the scenarios each mutant must
break and reports any that still pass.

    chant_mutant.py MUTANT CHANT_EXECUTABLE mcp      # serve MCP on stdio, broken as MUTANT
    chant_mutant.py --list                           # the mutants and what each breaks

Standard library only. The proxy runs in the scenario's work folder, like chant would.
"""
import json
import os
import subprocess
import sys
import threading
import time

SPECS = os.path.join(".chant", "specs")


def spec_ids():
    try:
        return sorted(n[:-3] for n in os.listdir(SPECS) if n.endswith(".md") and not n.startswith("."))
    except OSError:
        return []


def tool_args(msg):
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    args = params.get("arguments")
    return params.get("name"), args if isinstance(args, dict) else None


def text_result(text, is_error=False):
    result = {"content": [{"type": "text", "text": text}]}
    if is_error:
        result["isError"] = True
    return result


class Proxy:
    """Forwards newline-delimited JSON-RPC between our stdin/stdout and a chant child."""

    def __init__(self, mutant, command):
        self.mutant = mutant
        self.child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.pending = {}  # request id (as JSON text) -> the request as the client sent it
        self.hidden = set()  # ids of requests the proxy made on its own; their answers are dropped
        self.out_lock = threading.Lock()
        self.counter = 0

    # ---- plumbing ----
    def emit(self, msg):
        with self.out_lock:
            sys.stdout.write(json.dumps(msg, separators=(",", ":")) + "\n")
            sys.stdout.flush()

    def to_child(self, msg):
        self.child.stdin.write((json.dumps(msg, separators=(",", ":")) + "\n").encode())
        self.child.stdin.flush()

    def side_call(self, name, arguments):
        """A tools/call of the proxy's own, whose answer nobody sees."""
        self.counter += 1
        rid = f"mutant-{self.counter}"
        self.hidden.add(json.dumps(rid))
        self.to_child({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}})

    def pump_responses(self):
        for raw in self.child.stdout:
            try:
                msg = json.loads(raw)
            except ValueError:
                sys.stdout.buffer.write(raw)
                sys.stdout.flush()
                continue
            key = json.dumps(msg.get("id"))
            if key in self.hidden:
                self.hidden.discard(key)
                continue
            request = self.pending.pop(key, None)
            msg = self.on_response(request, msg)
            if msg is not None:
                self.emit(msg)

    def run(self):
        threading.Thread(target=self.pump_responses, daemon=True).start()
        for raw in sys.stdin.buffer:
            try:
                msg = json.loads(raw)
            except ValueError:
                self.child.stdin.write(raw)
                self.child.stdin.flush()
                continue
            if isinstance(msg, dict) and "id" in msg and "method" in msg:
                self.pending[json.dumps(msg["id"])] = json.loads(json.dumps(msg))
            msg = self.on_request(msg)
            if msg is not None:
                self.to_child(msg)
        self.child.stdin.close()
        code = self.child.wait()
        time.sleep(0.1)  # let the pump thread write the last answers
        sys.exit(1 if self.mutant == "eof-exit-1" else code)

    # ---- the mutants ----
    def on_request(self, msg):
        m = self.mutant
        if not isinstance(msg, dict):
            return msg
        if m == "notification-answered" and "id" not in msg and "method" in msg:
            self.emit({"jsonrpc": "2.0", "id": None, "result": {}})
        if msg.get("method") != "tools/call":
            return msg
        name, args = tool_args(msg)
        params = msg["params"] if isinstance(msg.get("params"), dict) else None
        if m == "missing-arguments-lenient" and params is not None and "arguments" not in params:
            params["arguments"] = {}
        if args is None:
            return msg
        query = args.get("id")
        if m == "ambiguous-picks-first" and isinstance(query, str):
            hits = [i for i in spec_ids() if query in i]
            if hits:
                args["id"] = hits[0]
        if m == "exact-ids-only" and isinstance(query, str) and query not in spec_ids():
            self.answer(msg, text_result(f"Spec not found: '{query}'", True))
            return None
        if m == "traversal-reads-file" and name == "chant_spec_get" and isinstance(query, str) and "/" in query:
            path = os.path.normpath(os.path.join(SPECS, query + ".md"))
            try:
                with open(path) as f:
                    self.answer(msg, text_result(f.read()))
            except OSError:
                self.answer(msg, text_result(f"Spec not found: '{query}'", True))
            return None
        if m == "ready-ignores-deps" and name == "chant_ready":
            msg["params"]["name"] = "chant_spec_list"
            args["status"] = "pending"
        if m == "status-filter-ignored" and name in ("chant_spec_list", "chant_search"):
            args.pop("status", None)
        if m == "no-default-limit" and name in ("chant_spec_list", "chant_ready") and "limit" not in args:
            args["limit"] = 1000
        if m == "log-default-50" and name == "chant_log" and "lines" not in args:
            args["lines"] = 50
        if name == "chant_spec_update" and isinstance(args.get("output"), str) and args["output"]:
            if m == "output-timestamped":
                args["output"] = "[2026-01-22 10:00:00] " + args["output"]
            elif m == "output-truncated":
                args["output"] = args["output"][:1000]
            elif m == "output-fenced":
                args["output"] = "```\n" + args["output"] + "\n```"
        if m == "invalid-status-coerced" and name == "chant_spec_update" and "status" in args:
            if args["status"] not in ("pending", "in_progress", "completed", "failed"):
                args["status"] = "failed"
        if m == "finalize-ignores-criteria" and name == "chant_finalize":
            msg["params"]["name"] = "chant_spec_update"
            args["status"] = "completed"
        if m == "archive-any-status" and name == "chant_archive" and isinstance(query, str):
            self.side_call("chant_spec_update", {"id": query, "status": "completed"})
        if m == "cancel-not-persisted" and name == "chant_cancel":
            msg["params"]["name"] = "chant_verify"
        if m == "add-title-lost" and name == "chant_add":
            args["description"] = "Untitled"
        if m == "non-atomic-write" and name == "chant_spec_update" and isinstance(query, str):
            self.torn_write(query)
        return msg

    def on_response(self, request, msg):
        m = self.mutant
        result = msg.get("result") if isinstance(msg.get("result"), dict) else None
        method = request.get("method") if request else None
        name, args = tool_args(request) if request else (None, None)
        if m == "parse-error-id-missing" and "error" in msg and msg.get("id") is None:
            msg.pop("id", None)
        if method == "initialize" and result is not None:
            if m == "version-echo":
                asked = (request.get("params") or {}).get("protocolVersion")
                if asked:
                    result["protocolVersion"] = asked
            if m == "extra-capability":
                result["capabilities"]["resources"] = {}
        if m == "schema-required-dropped" and method == "tools/list" and result is not None:
            for tool in result.get("tools", []):
                if tool.get("name") == "chant_spec_get":
                    tool["inputSchema"].pop("required", None)
        if result is None or method != "tools/call":
            return msg
        text = result.get("content", [{}])[0].get("text", "")
        if m == "tool-errors-as-rpc-errors" and result.get("isError"):
            return {"jsonrpc": "2.0", "id": msg.get("id"), "error": {"code": -32602, "message": text}}
        if m == "not-initialized-text" and text.startswith("Chant not initialized"):
            result["content"][0]["text"] = "Not initialized"
        if m == "finalize-ignores-criteria" and name == "chant_finalize" and text.startswith("Updated spec: "):
            result["content"][0]["text"] = "Finalized spec: " + text[len("Updated spec: "):]
        if m == "cancel-not-persisted" and name == "chant_cancel" and not result.get("isError"):
            result["content"][0]["text"] = "Cancelled spec: " + json.loads(text)["spec_id"]
        if m == "query-tool-touches-file" and name == "chant_verify" and not result.get("isError"):
            with open(os.path.join(SPECS, json.loads(text)["spec_id"] + ".md"), "a") as f:
                f.write("\n")
        return msg

    def answer(self, request, result):
        self.pending.pop(json.dumps(request.get("id")), None)
        if "id" in request:
            self.emit({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def torn_write(self, query):
        """Writes half of the spec file in place and waits: a kill now leaves a torn file."""
        hits = [i for i in spec_ids() if i.endswith(query)]
        if len(hits) != 1:
            return
        path = os.path.join(SPECS, hits[0] + ".md")
        with open(path) as f:
            whole = f.read()
        with open(path, "w") as f:
            f.write(whole[: len(whole) // 2])
        time.sleep(0.2)
        with open(path, "w") as f:
            f.write(whole)


# mutant -> (what the bug is, scenarios that must not pass against it)
MUTANTS = {
    "none": ("nothing: the proxy only forwards (the control run; every scenario passes)", []),
    "version-echo": ("answers whatever protocol version was asked for",
                     ["chant/protocol/version-later-requested", "chant/protocol/version-unknown-requested"]),
    "extra-capability": ("declares a resources capability it does not implement",
                         ["chant/protocol/initialize-without-params", "chant/protocol/initialize-with-params"]),
    "notification-answered": ("answers notifications (with id null)",
                              ["chant/protocol/notification-initialized-silent",
                               "chant/protocol/notification-unknown-silent", "chant/protocol/notification-ping-silent",
                               "chant/protocol/notification-tools-call-silent"]),
    "parse-error-id-missing": ("leaves id out of parse errors instead of id null",
                               ["chant/protocol/parse-error-not-json", "chant/protocol/parse-error-truncated"]),
    "tool-errors-as-rpc-errors": ("reports tool failures as JSON-RPC errors, not isError results",
                                  ["chant/call/no-params", "chant/call/unknown-tool", "chant/ids/no-match",
                                   "chant/update/invalid-status", "chant/finalize/refuses-unchecked-criteria"]),
    "missing-arguments-lenient": ("runs a tool whose arguments were left out",
                                  ["chant/call/arguments-omitted"]),
    "not-initialized-text": ("words the missing-project error differently",
                             ["chant/call/not-initialized-every-tool", "chant/process/init-agent-claude"]),
    "schema-required-dropped": ("tools/list forgets that chant_spec_get requires id",
                                ["chant/tools/list-documented-tools"]),
    "ambiguous-picks-first": ("resolves an ambiguous partial id to the first match",
                              ["chant/ids/ambiguous", "chant/ids/ambiguous-mutation-changes-nothing"]),
    "exact-ids-only": ("accepts full ids only",
                       ["chant/ids/unique-suffix", "chant/ids/unique-substring",
                        "chant/ids/partial-id-on-every-query-tool"]),
    "traversal-reads-file": ("treats an id as a path below .chant/specs",
                             ["chant/safety/id-parent-folder"]),
    "ready-ignores-deps": ("chant_ready lists every pending spec, dependencies or not",
                           ["chant/ready/unblocked-pending-only", "chant/ready/limit",
                            "chant/ready/dependency-completed"]),
    "status-filter-ignored": ("ignores the status filter",
                              ["chant/list/filter-pending", "chant/list/filter-ready", "chant/list/filter-blocked",
                               "chant/search/status-filter"]),
    "no-default-limit": ("lists everything when no limit is given",
                         ["chant/list/default-limit-50", "chant/ready/default-limit-50", "chant/list/all-specs"]),
    "log-default-50": ("chant_log returns 50 lines by default",
                       ["chant/log/default-100-lines"]),
    "output-timestamped": ("stamps appended output with a time",
                           ["chant/update/status-and-output", "chant/update/output-twice",
                            "chant/update/multiline-output-verbatim"]),
    "output-truncated": ("cuts appended output at 1000 characters",
                         ["chant/update/long-output-not-truncated"]),
    "output-fenced": ("wraps appended output in a code fence",
                      ["chant/update/status-and-output", "chant/update/multiline-output-verbatim"]),
    "invalid-status-coerced": ("stores an unknown status as failed",
                               ["chant/update/invalid-status", "chant/update/status-cancelled-refused"]),
    "finalize-ignores-criteria": ("finalizes even with unchecked criteria",
                                  ["chant/finalize/refuses-unchecked-criteria"]),
    "archive-any-status": ("archives specs that are not completed",
                           ["chant/archive/pending-refused", "chant/archive/in-progress-refused"]),
    "cancel-not-persisted": ("answers 'Cancelled spec' without changing the file",
                             ["chant/cancel/pending-spec"]),
    "add-title-lost": ("ignores the description of chant_add",
                       ["chant/add/creates-spec", "chant/add/with-prompt"]),
    "query-tool-touches-file": ("chant_verify rewrites the spec file",
                                ["chant/tools/query-tools-change-nothing"]),
    "non-atomic-write": ("rewrites spec files in place, so a kill can leave half a file",
                         ["chant/process/kill-during-updates"]),
    "eof-exit-1": ("exits with status 1 at the end of input",
                   ["chant/protocol/eof-exits-zero"]),
}


def main(argv):
    if len(argv) >= 2 and argv[1] == "--list":
        for name, (bug, scenarios) in MUTANTS.items():
            print(f"{name}: {bug}\n    caught by: {', '.join(scenarios)}")
        return 0
    if len(argv) < 3 or argv[1] not in MUTANTS:
        sys.stderr.write("usage: chant_mutant.py MUTANT CHANT_EXECUTABLE mcp   (or --list)\n")
        if len(argv) >= 2 and argv[1] not in MUTANTS:
            sys.stderr.write(f"chant_mutant.py: unknown mutant '{argv[1]}'; see --list\n")
        return 2
    Proxy(argv[1], argv[2:]).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
