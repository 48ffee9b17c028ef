#!/usr/bin/env python3
"""tamamo-x-mcp used for real: init imports a .mcp.json naming server-everything, chant and
clariad (two of our reference servers) and the demo upstream over WebSocket and over
Streamable HTTP; build groups every
server's tools; mcp serves the sub-agents, and calls through them reach the right upstream tools.

    real_use_e2e.py --tamamo T --everything INDEX_JS --chant C --clariad C --upstream U

Checks, in a fresh temporary folder:
  - init writes tamamo-x.config.json with the four servers of .mcp.json;
  - build writes .tamamo-x/groups.json: every server answered, every discovered tool is in
    exactly one group, names end in _agent, descriptions start with "Specialized agent";
  - mcp lists those groups as tools; a task naming server-everything's echo returns its echo
    through the sub-agent holding it, "add 3 and 4" reaches its add (or get-sum) tool, chant's
    chant_status is reached through its group, and the WebSocket upstream's forecast as well.
Exit 0 when all hold, 1 with the failed check otherwise. Standard library only; every wait has a
deadline and every process started is ended.
"""
import argparse
import json
import os
import select
import shlex
import subprocess
import sys
import tempfile
import time


def fail(message):
    print(f"real_use_e2e: FAIL: {message}")
    sys.exit(1)


class McpSession:
    """tamamo-x-mcp mcp over stdio: one JSON-RPC line out, its answer back, with a deadline."""

    def __init__(self, argv, cwd):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, start_new_session=True)
        self.next_id = 0
        self.buffer = b""

    def request(self, method, params, timeout=30.0):
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\n", 1)
                msg = json.loads(raw)
                if msg.get("id") == self.next_id:
                    return msg
            left = deadline - time.monotonic()
            if left <= 0:
                fail(f"no answer to {method} within {timeout} s")
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    fail(f"tamamo-x-mcp exited while {method} was pending: {self.proc.stderr.read().decode()[-2000:]}")
                self.buffer += chunk

    def close(self):
        self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
            fail("tamamo-x-mcp did not exit within 10 s of the end of its input")
        if code != 0:
            fail(f"tamamo-x-mcp exited with status {code}")


def text_of(response):
    if "result" not in response:
        fail(f"expected a result, got {json.dumps(response)[:500]}")
    return "\n".join(c.get("text", "") for c in response["result"]["content"] if c.get("type") == "text")


def group_holding(groups, server, tool_names):
    for g in groups:
        for t in g["tools"]:
            if t["server"] == server and t["name"] in tool_names:
                return g["name"], t["name"]
    fail(f"no group holds any of {tool_names} from {server}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("tamamo", "everything", "chant", "clariad", "upstream"):
        ap.add_argument("--" + name, required=True)
    args = ap.parse_args()
    for name in ("tamamo", "everything", "chant", "clariad", "upstream"):
        setattr(args, name, os.path.abspath(getattr(args, name)))  # the servers run in a temporary folder
    for path in (args.tamamo, args.everything, args.chant, args.clariad, args.upstream):
        if not os.path.exists(path):
            fail(f"{path} does not exist")

    with tempfile.TemporaryDirectory() as work:
        # The demo upstream served twice, over WebSocket and over Streamable HTTP, each on a free
        # port it reports on stderr.
        served = {}
        for transport in ("websocket", "http"):
            proc = subprocess.Popen([args.upstream, "--transport", transport, "--port", "0"],
                                    stderr=subprocess.PIPE, start_new_session=True)
            served[transport] = proc
        try:
            ports = {}
            for transport, proc in served.items():
                ready, _, _ = select.select([proc.stderr], [], [], 10)
                line = proc.stderr.readline().decode() if ready else ""
                if not line.startswith("listening on port "):
                    fail(f"the {transport} upstream did not start: {line!r}")
                ports[transport] = int(line.split()[-1])
            with open(os.path.join(work, ".mcp.json"), "w") as f:
                json.dump({"mcpServers": {
                    "everything": {"command": "node", "args": [args.everything, "stdio"]},
                    "chant": {"command": args.chant, "args": ["mcp"]},
                    "clariad": {"command": args.clariad},
                    "demo": {"type": "websocket", "url": f"ws://127.0.0.1:{ports['websocket']}/mcp"},
                    "demohttp": {"type": "http", "url": f"http://127.0.0.1:{ports['http']}/mcp"},
                }}, f)
            run = lambda *a: subprocess.run([args.tamamo, *a], cwd=work, capture_output=True, text=True, timeout=120)
            done = run("init")
            if done.returncode != 0:
                fail(f"init: {done.stderr}")
            with open(os.path.join(work, "tamamo-x.config.json")) as f:
                config = json.load(f)
            if sorted(config["mcpServers"]) != ["chant", "clariad", "demo", "demohttp", "everything"]:
                fail(f"init imported {sorted(config['mcpServers'])}")
            done = run("build", "--timeout-ms", "30000")
            if done.returncode != 0:
                fail(f"build: {done.stderr}")
            with open(os.path.join(work, ".tamamo-x", "groups.json")) as f:
                built = json.load(f)
            failed = [s for s in built["servers"] if not s["ok"]]
            if failed:
                fail(f"servers failed discovery: {failed}")
            discovered = sum(s["toolCount"] for s in built["servers"])
            placed = [(t["server"], t["name"]) for g in built["groups"] for t in g["tools"]]
            if len(placed) != discovered or len(set(placed)) != len(placed):
                fail(f"{discovered} tools discovered but {len(placed)} placed ({len(set(placed))} distinct)")
            for g in built["groups"]:
                if not g["name"].endswith("_agent") or not g["description"].startswith("Specialized agent"):
                    fail(f"bad group {g['name']}: {g['description']}")
            print(f"build: {len(built['servers'])} servers, {discovered} tools, {len(built['groups'])} groups: "
                  + ", ".join(f"{g['name']}({len(g['tools'])})" for g in built["groups"]))

            session = McpSession([args.tamamo, "mcp"], work)
            session.request("initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                           "clientInfo": {"name": "real_use_e2e", "version": "1"}})
            listed = [t["name"] for t in session.request("tools/list", {})["result"]["tools"]]
            if listed != [g["name"] for g in built["groups"]]:
                fail(f"tools/list {listed} differs from the groups built")

            checks = [
                ("everything", ["echo"], "echo tamamo was here", "tamamo was here"),
                ("everything", ["add", "get-sum"], None, "7"),
                ("chant", ["chant_status"], None, "Chant not initialized"),
                ("demo", ["weather_forecast"], None, "Forecast for Lyon"),
                ("demohttp", ["notes_add"], None, "Note 1 added: over http"),
            ]
            for server, names, task, expect in checks:
                agent, tool = group_holding(built["groups"], server, names)
                arguments = {"task": task} if task else {
                    "add": {"task": "add 3 and 4"}, "get-sum": {"task": "get-sum 3 and 4"},
                    "chant_status": {"task": "status", "data": {"tool": "chant_status", "arguments": {}}},
                    "weather_forecast": {"task": "forecast for Lyon", "data": {"tool": "demo/weather_forecast",
                                                                                  "arguments": {"city": "Lyon"}}},
                    "notes_add": {"task": "x", "data": {"tool": "demohttp/notes_add", "arguments": {"text": "over http"}}},
                }[tool]
                text = text_of(session.request("tools/call", {"name": agent, "arguments": arguments}, timeout=60))
                if expect not in text or "Tools used: " not in text or tool not in text.split("Tools used: ")[-1]:
                    fail(f"{agent} with {arguments}: expected {expect!r} and 'Tools used: {tool}' in {text!r}")
                print(f"call {agent} -> {server}/{tool}: ok")
            session.close()
        finally:
            for proc in served.values():
                os.killpg(proc.pid, 15)
                proc.wait(timeout=10)
    print("real_use_e2e: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
