#!/usr/bin/env python3
"""`mcpspec scenario from-trace`, end to end (docs/proxy.md, "From a trace to a scenario").

    from_trace.py BINDIR server   a scripted client talks to mcpspec-testserver through
                                  `mcpspec proxy --record`; the trace becomes a server-role scenario
                                  that passes against the same server (the pagination cursor is
                                  captured and sent back, not copied) and fails, citing
                                  MCPSPEC-REPLAY at the changed step, against a server whose answer
                                  changed (--fault structured-content-mismatch)
    from_trace.py BINDIR client   mcpspec-testclient's session with the test server, recorded the
                                  same way, becomes a client-role scenario that passes against the
                                  same client and fails against one that behaves differently
                                  (--fault null-id)
    from_trace.py BINDIR server-requests
                                  a server that asks the client (sampling) in the middle of a tool
                                  call: the recorded client's answer goes into the scenario's
                                  "answers", the harness gives it, the replay passes; with another
                                  answer the server's result changes and the replay fails
    from_trace.py BINDIR bad      a missing trace, a trace with nothing to replay and an existing
                                  output file are refused with exit 2 and a message naming them
"""
import json
import os
import subprocess
import sys
import tempfile

DEADLINE_S = 60


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=DEADLINE_S, **kw)


def scripted_client(mcpspec, server, trace):
    """initialize, initialized, tools/list, tools/call add, resources/list (two pages: the second
    with the first page's cursor), ping; then close stdin. Each request waits for its answer."""
    p = subprocess.Popen([mcpspec, "proxy", "--record", trace, "--", server], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def ask(i, method, params=None):
        msg = {"jsonrpc": "2.0", "id": i, "method": method}
        if params is not None:
            msg["params"] = params
        p.stdin.write(json.dumps(msg) + "\n")
        p.stdin.flush()
        while True:
            line = p.stdout.readline()
            if not line:
                fail(f"the server ended before answering {method}")
            m = json.loads(line)
            if m.get("id") == i:
                return m

    try:
        ask(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "from-trace-test", "version": "1"}})
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        ask(2, "tools/list")
        ask(3, "tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})
        page = ask(4, "resources/list")
        cursor = page["result"].get("nextCursor")
        if not cursor:
            fail(f"the test server's resources/list has no second page: {page}")
        ask(5, "resources/list", {"cursor": cursor})
        ask(6, "ping")
        p.stdin.close()
        p.wait(timeout=DEADLINE_S)
    finally:
        if p.poll() is None:
            p.kill()
    return cursor


def report_of(path):
    with open(path) as f:
        return json.load(f)["results"]


def make_scenario(mcpspec, trace, out, *extra):
    r = run([mcpspec, "scenario", "from-trace", trace, "-o", out, *extra])
    if r.returncode != 0:
        fail(f"from-trace exited {r.returncode}: {r.stderr}")
    with open(out) as f:
        return json.load(f), r.stderr


def expect_verdict(results, verdict, what):
    if len(results) != 1 or results[0]["verdict"] != verdict:
        fail(f"{what}: expected one {verdict}, got {[(x['id'], x['verdict'], x.get('message')) for x in results]}")


def replay_failure(result):
    """The step failure of a replay: cites MCPSPEC-REPLAY and the trace line of its step."""
    for f in result.get("findings", []):
        if "MCPSPEC-REPLAY" in f.get("requirements", []):
            return f
    return None


def server_case(bindir):
    mcpspec, server = os.path.join(bindir, "mcpspec"), os.path.join(bindir, "mcpspec-testserver")
    with tempfile.TemporaryDirectory() as d:
        trace, scen, rep = (os.path.join(d, n) for n in ("trace.jsonl", "replay.json", "report.json"))
        cursor = scripted_client(mcpspec, server, trace)
        s, notes = make_scenario(mcpspec, trace, scen)
        text = json.dumps(s)
        if cursor in text:
            fail(f"the recorded cursor {cursor} was copied into the scenario instead of captured: {text}")
        if "${nextCursor_1}" not in text:
            fail(f"the second page does not send the captured cursor: {text}")
        r = run([mcpspec, "run", "--server", server, scen, "--report", f"json:{rep}"])
        expect_verdict(report_of(rep), "pass", f"the replay against the same server (exit {r.returncode}, {r.stdout[-600:]})")
        # The same trace against a server whose add tool now answers differently.
        r = run([mcpspec, "run", "--server", f"{server} --fault structured-content-mismatch", scen, "--report", f"json:{rep}"])
        results = report_of(rep)
        expect_verdict(results, "fail", "the replay against a changed server")
        if r.returncode != 1:
            fail(f"a failing replay exits {r.returncode}, expected 1")
        f = replay_failure(results[0])
        if not f or "trace line" not in json.dumps(f):
            fail(f"the failure does not cite MCPSPEC-REPLAY with the trace line: {results[0].get('findings')}")
        print(f"ok: {len(s['steps'])} steps; pass against the recorded server; fail against the changed one: {f['message'][:160]}")


def client_case(bindir):
    mcpspec, server, client = (os.path.join(bindir, n) for n in ("mcpspec", "mcpspec-testserver", "mcpspec-testclient"))
    context = json.dumps({"actions": [{"do": "list_tools"}, {"do": "ping"}, {"do": "exit"}]})
    with tempfile.TemporaryDirectory() as d:
        trace, scen, rep = (os.path.join(d, n) for n in ("trace.jsonl", "replay.json", "report.json"))
        r = run([client, "--", mcpspec, "proxy", "--record", trace, "--", server], env=dict(os.environ, MCPSPEC_CONTEXT=context))
        if r.returncode != 0:
            fail(f"the recorded session failed (exit {r.returncode}): {r.stderr[-400:]}")
        s, _ = make_scenario(mcpspec, trace, scen, "--role", "client")
        kinds = [next(k for k in ("expect", "reply", "request", "notify") if k in st) for st in s["steps"]]
        if kinds[:3] != ["expect", "reply", "expect"] or "reply" not in kinds[3:]:
            fail(f"unexpected steps for the client's session: {kinds}")
        env = f"MCPSPEC_CONTEXT='{context}'"
        r = run([mcpspec, "run", "--client", f"{env} {client} -- {{server}}", scen, "--report", f"json:{rep}"])
        expect_verdict(report_of(rep), "pass", f"the replay against the same client ({r.stdout[-600:]})")
        r = run([mcpspec, "run", "--client", f"{env} {client} --fault null-id -- {{server}}", scen, "--report", f"json:{rep}"])
        expect_verdict(report_of(rep), "fail", "the replay against a changed client")
        print(f"ok: {kinds}")


# A stdio server whose tool asks the client (sampling/createMessage) and returns what it answered.
ASKING_SERVER = r"""
import json, sys
def out(m):
    sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
pending = {}
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        out({"jsonrpc": "2.0", "id": m["id"], "result": {"protocolVersion": m["params"]["protocolVersion"],
             "capabilities": {"tools": {}}, "serverInfo": {"name": "asking", "version": "1"}}})
    elif m.get("method") == "tools/list":
        out({"jsonrpc": "2.0", "id": m["id"], "result": {"tools": [{"name": "ask", "inputSchema": {"type": "object"}}]}})
    elif m.get("method") == "tools/call":
        pending["s1"] = m["id"]
        out({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
             "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "say"}}], "maxTokens": 5}})
    elif m.get("id") in pending and "result" in m:
        said = m["result"]["content"]["text"]
        out({"jsonrpc": "2.0", "id": pending.pop(m["id"]), "result": {"content": [{"type": "text", "text": "model said " + said}]}})
    elif "id" in m and "method" in m:
        out({"jsonrpc": "2.0", "id": m["id"], "result": {}})
"""


def server_requests_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    with tempfile.TemporaryDirectory() as d:
        server_py, trace, scen, rep = (os.path.join(d, n) for n in ("asking.py", "trace.jsonl", "replay.json", "report.json"))
        with open(server_py, "w") as f:
            f.write(ASKING_SERVER)
        server = f"{sys.executable} {server_py}"
        p = subprocess.Popen([mcpspec, "proxy", "--record", trace, "--", sys.executable, server_py], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

        def send(m):
            p.stdin.write(json.dumps(m) + "\n")
            p.stdin.flush()

        def read():
            line = p.stdout.readline()
            if not line:
                fail("the asking server ended early")
            return json.loads(line)

        try:
            send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
                  "capabilities": {"sampling": {}}, "clientInfo": {"name": "t", "version": "1"}}})
            read()
            send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ask", "arguments": {}}})
            ask = read()
            send({"jsonrpc": "2.0", "id": ask["id"], "result": {"role": "assistant", "model": "m",
                  "content": {"type": "text", "text": "forty-two"}}})
            answer = read()
            if answer["result"]["content"][0]["text"] != "model said forty-two":
                fail(f"the asking server answered {answer}")
            p.stdin.close()
            p.wait(timeout=DEADLINE_S)
        finally:
            if p.poll() is None:
                p.kill()
        s, _ = make_scenario(mcpspec, trace, scen)
        if s.get("answers", {}).get("sampling/createMessage", [{}])[0].get("result", {}).get("content", {}).get("text") != "forty-two":
            fail(f"the recorded answer to the server's request is not in the scenario's answers: {s.get('answers')}")
        run([mcpspec, "run", "--server", server, scen, "--report", f"json:{rep}"])
        expect_verdict(report_of(rep), "pass", "the replay that answers as the recorded client did")
        # Answer differently: the server's tool result changes, and the replay must see it.
        s["answers"]["sampling/createMessage"][0]["result"]["content"]["text"] = "seven"
        with open(scen, "w") as f:
            json.dump(s, f)
        run([mcpspec, "run", "--server", server, scen, "--report", f"json:{rep}"])
        results = report_of(rep)
        expect_verdict(results, "fail", "the replay with a different answer to the server's request")
        if "model said seven" not in json.dumps(results[0]):
            fail(f"the failure does not show the server's answer to the changed sampling answer: {results[0].get('findings')}")
        print("ok: the recorded answer to sampling/createMessage is replayed; a changed one changes the outcome")


def bad_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    with tempfile.TemporaryDirectory() as d:
        r = run([mcpspec, "scenario", "from-trace", os.path.join(d, "none.jsonl")])
        if r.returncode != 2 or "none.jsonl" not in r.stderr:
            fail(f"a missing trace: exit {r.returncode}, {r.stderr!r}")
        empty = os.path.join(d, "stderr-only.jsonl")
        with open(empty, "w") as f:
            f.write(json.dumps({"dir": "stderr", "t_ms": 1, "text": "hello"}) + "\n")
        r = run([mcpspec, "scenario", "from-trace", empty])
        if r.returncode != 2 or "stderr-only.jsonl" not in r.stderr or "no JSON message" not in r.stderr:
            fail(f"a trace with nothing to replay: exit {r.returncode}, {r.stderr!r}")
        good = os.path.join(d, "ping.jsonl")
        with open(good, "w") as f:
            f.write(json.dumps({"dir": "c2s", "t_ms": 1, "text": '{"jsonrpc":"2.0","id":1,"method":"ping"}'}) + "\n")
        out = os.path.join(d, "exists.json")
        open(out, "w").close()
        r = run([mcpspec, "scenario", "from-trace", good, "-o", out])
        if r.returncode != 2 or "exists" not in r.stderr or os.path.getsize(out) != 0:
            fail(f"an existing output file: exit {r.returncode}, {r.stderr!r}")
        print("ok")


if __name__ == "__main__":
    cases = {"server": server_case, "client": client_case, "server-requests": server_requests_case, "bad": bad_case}
    if len(sys.argv) != 3 or sys.argv[2] not in cases:
        print(__doc__)
        sys.exit(2)
    cases[sys.argv[2]](sys.argv[1])
