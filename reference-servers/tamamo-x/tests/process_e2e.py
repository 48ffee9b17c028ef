#!/usr/bin/env python3
"""tamamo-x-mcp as a process: build with a rules file writes .tamamo-x/groups.json; mcp starts
an upstream only when a sub-agent first needs it, and stops it (process group reaped) on the end
of input, on SIGTERM over stdio, and on SIGTERM over Streamable HTTP; bad input gives clear errors.

    process_e2e.py --tamamo tamamo-x-mcp --upstream tamamo-x-demo-upstream

Exit 0 when all hold, 1 naming the first failed check. Standard library only; every wait has a
deadline.
"""
import argparse
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request


def fail(message):
    print(f"process_e2e: FAIL: {message}")
    sys.exit(1)


def children(pid):
    found = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return found


def gone(pid, within=5.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    return True  # a zombie has ended; its parent reaps it
        except OSError:
            return True
        time.sleep(0.05)
    return False


def wait_exit(proc, within=10.0):
    try:
        return proc.wait(timeout=within)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail(f"tamamo-x-mcp did not exit within {within} s")


class Stdio:
    def __init__(self, argv, cwd):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.buffer = b""
        self.id = 0

    def request(self, method, params):
        self.id += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}).encode() + b"\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + 20
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            if not ready:
                fail(f"no answer to {method} within 20 s")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                fail(f"tamamo-x-mcp exited during {method}")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)


def upstream_child(pid):
    kids = children(pid)
    if len(kids) != 1:
        fail(f"expected one upstream process under tamamo, found {kids}")
    return kids[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tamamo", required=True)
    ap.add_argument("--upstream", required=True)
    args = ap.parse_args()
    tamamo, upstream = os.path.abspath(args.tamamo), os.path.abspath(args.upstream)
    with tempfile.TemporaryDirectory() as work:
        # Errors name what is wrong.
        done = subprocess.run([tamamo, "build"], cwd=work, capture_output=True, text=True, timeout=30)
        if done.returncode != 1 or "tamamo-x.config.json" not in done.stderr or "tamamo-x-mcp init" not in done.stderr:
            fail(f"build without a configuration: {done.returncode} {done.stderr!r}")
        done = subprocess.run([tamamo, "mcp", "--transport", "carrier-pigeon", "--server", "d=true"], cwd=work,
                              capture_output=True, text=True, timeout=30)
        if done.returncode != 2 or "carrier-pigeon" not in done.stderr:
            fail(f"mcp with a bad transport: {done.returncode} {done.stderr!r}")

        with open(os.path.join(work, "tamamo-x.config.json"), "w") as f:
            json.dump({"mcpServers": {"demo": {"command": upstream}},
                       "grouping": {"rulesFile": "rules.json"}}, f)
        with open(os.path.join(work, "rules.json"), "w") as f:
            json.dump({"groups": [{"name": "forecast_agent", "description": "Specialized agent for forecasts.",
                                   "tools": ["weather_forecast"], "keywords": ["notebook"]}]}, f)
        done = subprocess.run([tamamo, "build"], cwd=work, capture_output=True, text=True, timeout=30)
        if done.returncode != 0:
            fail(f"build: {done.stderr}")
        with open(os.path.join(work, ".tamamo-x", "groups.json")) as f:
            groups = {g["name"]: g for g in json.load(f)["groups"]}
        forecast = [(t["name"], t["reason"]) for t in groups.get("forecast_agent", {"tools": []})["tools"]]
        if forecast != [("weather_forecast", "rule forecast_agent: names the tool"),
                        ("notes_add", "rule forecast_agent: description keyword 'notebook'"),
                        ("notes_list", "rule forecast_agent: description keyword 'notebook'")]:
            fail(f"the rule's group holds {forecast}")
        if list(groups) != ["forecast_agent", "ops_agent", "demo_agent"]:
            fail(f"groups {list(groups)}")
        print("build with a rules file: ok")

        # stdio: lazily started, stopped at the end of input.
        s = Stdio([tamamo, "mcp"], work)
        s.request("initialize", {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
        s.request("tools/list", {})
        if children(s.proc.pid):
            fail("an upstream was started before any sub-agent needed it")
        answer = s.request("tools/call", {"name": "ops_agent", "arguments": {"task": "pid"}})
        child = upstream_child(s.proc.pid)
        if f"pid {child}" not in answer["result"]["content"][0]["text"]:
            fail(f"the call did not reach the upstream child {child}: {answer}")
        s.proc.stdin.close()
        if wait_exit(s.proc) != 0 or not gone(child):
            fail("end of input: tamamo or its upstream did not end")
        print("stdio: lazy start, stop at end of input: ok")

        # stdio: SIGTERM stops the upstream too.
        s = Stdio([tamamo, "mcp"], work)
        s.request("tools/call", {"name": "ops_agent", "arguments": {"task": "pid"}})
        child = upstream_child(s.proc.pid)
        s.proc.send_signal(signal.SIGTERM)
        if wait_exit(s.proc) != 0 or not gone(child):
            fail("SIGTERM over stdio: tamamo or its upstream did not end")
        print("stdio: SIGTERM stops the upstream: ok")

        # Streamable HTTP on a free port: a call through POST, then SIGTERM.
        http = subprocess.Popen([tamamo, "mcp", "--transport", "http", "--port", "0"], cwd=work,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        ready, _, _ = select.select([http.stderr], [], [], 10)
        line = http.stderr.readline().decode() if ready else ""
        if "serving on http://127.0.0.1:" not in line:
            fail(f"the HTTP server did not report its address: {line!r}")
        url = line.split("serving on ")[1].strip()

        def post(body, session=None):
            headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
            if session:
                headers["Mcp-Session-Id"] = session
            req = urllib.request.Request(url, json.dumps(body).encode(), headers)
            with urllib.request.urlopen(req, timeout=20) as r:
                return r.headers.get("Mcp-Session-Id"), json.loads(r.read() or b"null")

        session, _ = post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
        _, answer = post({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                          "params": {"name": "forecast_agent", "arguments": {"task": "forecast for Rome"}}}, session)
        if "Forecast for Rome" not in answer["result"]["content"][0]["text"]:
            fail(f"HTTP call: {answer}")
        child = upstream_child(http.pid)
        http.send_signal(signal.SIGTERM)
        if wait_exit(http) != 0 or not gone(child):
            fail("SIGTERM over HTTP: tamamo or its upstream did not end")
        print("http: call, SIGTERM stops the upstream: ok")
    print("process_e2e: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
