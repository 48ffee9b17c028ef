#!/usr/bin/env python3
"""The proxy between two real implementations nobody here wrote: the TypeScript SDK client
(tests/peers/sdk-client.mjs) and @modelcontextprotocol/server-everything (docs/proxy.md).

    proxy_peers.py SRCDIR BINDIR stdio  the client starts the proxy as its server command; `tee` on
                                        both sides of the proxy records the bytes that went in and
                                        came out in each direction, which must be identical; the
                                        client's calls succeed; no finding (the known deviations of
                                        server-everything, docs/peers.md, all need malformed or
                                        invalid input, which ordinary traffic does not hold);
                                        validate --trace agrees
    proxy_peers.py SRCDIR BINDIR sse    the same over the legacy HTTP+SSE transport (the GET stream
                                        and the POSTs that name its sessionId are one session)
    proxy_peers.py SRCDIR BINDIR http   the same session over Streamable HTTP through
                                        `proxy --listen --upstream`: the client's calls succeed
                                        (the SDK checks every answer), no finding, the trace holds
                                        the JSON and SSE answers, validate --trace agrees

Exit 0 with a SKIP line when the pinned npm peers are not installed.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from proxy_support import finding_lines, free_port, offline

DEADLINE_S = 60
ACTIONS = {"capabilities": {}, "actions": [{"do": "list_tools"}, {"do": "call_tool", "name": "echo", "arguments": {"message": "through the proxy"}},
                                           {"do": "ping"}, {"do": "exit"}]}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def peers(src):
    nm = os.path.join(src, "tests", "node_modules")
    node = os.path.join(nm, "node", "bin", "node")
    se = os.path.join(nm, "@modelcontextprotocol", "server-everything", "dist", "index.js")
    if not os.path.exists(node):
        node = "node"
    if not os.path.exists(se) or not os.path.exists(os.path.join(nm, "@modelcontextprotocol", "sdk")):
        print("SKIP: the pinned npm peers are not installed (tests/package.json)")
        sys.exit(0)
    return node, se, os.path.join(src, "tests", "peers", "sdk-client.mjs")


def quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def client_ok(stderr):
    for what in ("tools/list: ok", "tools/call echo: ok", "ping: ok"):
        if what not in stderr:
            fail(f"the SDK client's {what.split(':')[0]} did not succeed through the proxy: {stderr[-800:]}")


def stdio_case(src, bindir):
    node, se, client = peers(src)
    mcpspec = os.path.join(bindir, "mcpspec")
    with tempfile.TemporaryDirectory() as d:
        p = {n: os.path.join(d, n) for n in ("c2s_in", "c2s_out", "s2c_in", "s2c_out", "trace.jsonl", "findings")}
        server = f"tee {quote(p['c2s_out'])} | {quote(node)} {quote(se)} stdio | tee {quote(p['s2c_in'])}"
        proxied = (f"tee {quote(p['c2s_in'])} | {quote(mcpspec)} proxy --record {quote(p['trace.jsonl'])} "
                   f"--findings {quote(p['findings'])} -- sh -c {quote(server)} | tee {quote(p['s2c_out'])}")
        r = subprocess.run([node, client, "sh", "-c", proxied], capture_output=True, text=True, timeout=DEADLINE_S,
                           env=dict(os.environ, MCPSPEC_CONTEXT=json.dumps(ACTIONS)))
        if r.returncode != 0:
            fail(f"the SDK client exited {r.returncode}: {r.stderr[-800:]}")
        client_ok(r.stderr)
        time.sleep(0.5)  # the tees flush as the pipeline ends
        for a, b in (("c2s_in", "c2s_out"), ("s2c_in", "s2c_out")):
            with open(p[a], "rb") as f1, open(p[b], "rb") as f2:
                x, y = f1.read(), f2.read()
            if x != y or not x:
                fail(f"{a} ({len(x)} bytes) and {b} ({len(y)} bytes) differ: the proxy changed the traffic")
        live = finding_lines(p["findings"])
        if live:
            fail(f"ordinary traffic between the SDK client and server-everything gave findings: {live}")
        rc, off = offline(mcpspec, p["trace.jsonl"])
        if rc != 0 or off:
            fail(f"validate --trace disagrees: exit {rc}, {off}")
        print(f"ok: {os.path.getsize(p['c2s_in'])} bytes client to server and {os.path.getsize(p['s2c_in'])} back, "
              "identical on both sides of the proxy; no finding")


def wait_listening(port, proc, what):
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            fail(f"{what} ended before it listened")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    fail(f"{what} did not listen on {port} within {DEADLINE_S} s")


def http_case(src, bindir, mode="streamableHttp"):
    node, se, client = peers(src)
    mcpspec = os.path.join(bindir, "mcpspec")
    preload = os.path.join(src, "tests", "http", "loopback-preload.cjs")
    port = free_port()
    server = subprocess.Popen([node, "--require", preload, se, mode], env=dict(os.environ, PORT=str(port)),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    proxy = None
    try:
        wait_listening(port, server, "server-everything")
        with tempfile.TemporaryDirectory() as d:
            trace, findings = os.path.join(d, "trace.jsonl"), os.path.join(d, "findings")
            upstream = f"http://127.0.0.1:{port}" + ("/mcp" if mode == "streamableHttp" else "/")
            proxy = subprocess.Popen([mcpspec, "proxy", "--listen", "127.0.0.1:0", "--upstream", upstream,
                                      "--record", trace, "--findings", findings], stderr=subprocess.PIPE, text=True)
            line = proxy.stderr.readline()
            if "listening on http://127.0.0.1:" not in line:
                fail(f"the proxy did not say where it listens: {line!r}")
            pport = int(line.split("http://127.0.0.1:")[1].split("/")[0])
            url = f"http://127.0.0.1:{pport}/" + ("" if mode == "streamableHttp" else "sse")
            r = subprocess.run([node, client, url], capture_output=True, text=True, timeout=DEADLINE_S,
                               env=dict(os.environ, MCPSPEC_CONTEXT=json.dumps(ACTIONS)))
            if r.returncode != 0:
                fail(f"the SDK client exited {r.returncode}: {r.stderr[-800:]}")
            client_ok(r.stderr)
            proxy.send_signal(signal.SIGINT)
            code = proxy.wait(timeout=DEADLINE_S)
            live = finding_lines(findings)
            if live or code != 0:
                fail(f"ordinary traffic gave findings (exit {code}): {live}")
            with open(trace) as f:
                entries = [json.loads(l) for l in f]
            answers = [e for e in entries if e["dir"] == "s2c" and e["text"]]
            if len(answers) < 4:
                fail(f"the trace holds {len(answers)} server messages; expected the answers to initialize, tools/list, tools/call, ping")
            rc, off = offline(mcpspec, trace)
            if rc != 0 or off:
                fail(f"validate --trace disagrees: exit {rc}, {off}")
            kinds = sorted({e["http"].get("content_type", "").split(";")[0] for e in answers})
            print(f"ok: {len(entries)} trace entries, answers as {kinds}; no finding")
    finally:
        if proxy and proxy.poll() is None:
            proxy.kill()
            proxy.wait()
        try:
            os.killpg(server.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


if __name__ == "__main__":
    cases = {"stdio": stdio_case, "http": http_case, "sse": lambda s, b: http_case(s, b, "sse")}
    if len(sys.argv) != 4 or sys.argv[3] not in cases:
        print(__doc__)
        sys.exit(2)
    cases[sys.argv[3]](sys.argv[1], sys.argv[2])
