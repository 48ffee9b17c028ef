#!/usr/bin/env python3
"""A minimal stdio MCP server whose one bug is to write a result nested 100 000 levels deep.

It answers initialize and ping correctly and everything else with -32601, but right after
notifications/initialized it writes a response nested far past mcpspec's reader limit. A fuzzer
that parsed, copied or printed that value recursively would overflow its own stack; the test
(test_fuzz_live.cpp) checks that `mcpspec fuzz` survives it and reports it.
"""
import json
import sys

DEPTH = 100000


def write(obj_text):
    sys.stdout.write(obj_text + "\n")
    sys.stdout.flush()


def main():
    # Bytes, not text: the fuzzer sends invalid UTF-8, which would end a text-mode reader.
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", errors="replace")
        try:
            msg = json.loads(line)
        except (ValueError, RecursionError):
            write(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}))
            continue
        if not isinstance(msg, dict):
            write(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}))
            continue
        method, rid = msg.get("method"), msg.get("id")
        if not isinstance(rid, (str, int)) or isinstance(rid, bool):
            rid = None  # only ids MCP allows are echoed
        if method == "notifications/initialized":
            # Built as text: Python's own json module would recurse too.
            write('{"jsonrpc":"2.0","id":"deep","result":{"v":' + "[" * DEPTH + "]" * DEPTH + "}}")
            continue
        if "id" not in msg or not isinstance(method, str):
            continue  # notifications and responses get no answer
        if method == "initialize":
            params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
            version = params.get("protocolVersion", "2025-11-25")
            result = {"protocolVersion": version, "capabilities": {},
                      "serverInfo": {"name": "deep-echo", "version": "1"}}
            write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}))
        elif method == "ping":
            write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {}}))
        else:
            write(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}}))


if __name__ == "__main__":
    main()
