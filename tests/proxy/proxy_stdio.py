#!/usr/bin/env python3
"""`mcpspec proxy` over stdio, end to end (docs/proxy.md).

    proxy_stdio.py BINDIR server-fault NAME   a scripted client talks to mcpspec-testserver --fault NAME
                                              through the proxy: the fault is a finding on a server
                                              line, the client's transcript is byte-identical to a
                                              direct run, the recorded trace judged offline by
                                              `validate --trace` gives the same finding lines, and
                                              the JSON report is valid (report merge reads it)
    proxy_stdio.py BINDIR server-correct      the same with no fault: no finding at all
    proxy_stdio.py BINDIR server-faults-ordinary
                                              server-fault for every MUST fault of faults.json that
                                              shows in the scripted session's ordinary traffic
    proxy_stdio.py BINDIR client-faults-ordinary
                                              client-fault for each test-client fault that shows when
                                              it lists tools, pings and exits
    proxy_stdio.py BINDIR client-fault NAME   mcpspec-testclient --fault NAME behind the proxy: the
                                              client's fault is a finding on a client line
    proxy_stdio.py BINDIR bytes               arbitrary bytes (not JSON, not UTF-8, no final newline)
                                              reach the server unchanged; the server's exit status is
                                              the proxy's
    proxy_stdio.py BINDIR reaped              a server that ignores its stdin closing and leaves a
                                              grandchild: the proxy ends (bounded) and both are gone;
                                              one that also ignores SIGTERM ends by SIGKILL
    proxy_stdio.py BINDIR bad-input           usage errors and a malformed trace name what is wrong
"""
import json
import os
import select
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
from process_state import wait_until_gone  # noqa: E402

DEADLINE_S = 20
PREFIX = "mcpspec proxy: "


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def read_until(p, buf, want_id, deadline):
    """Reads the server's stdout until a line is the response to `want_id`; returns the buffer."""
    while True:
        for line in buf.split(b"\n")[:-1]:
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if isinstance(m, dict) and m.get("id") == want_id and ("result" in m or "error" in m):
                return buf
        left = deadline - time.monotonic()
        if left <= 0:
            fail(f"no response to id {want_id} within {DEADLINE_S} s; got {buf[-400:]!r}")
        r, _, _ = select.select([p.stdout], [], [], left)
        if r:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                fail(f"stdout ended before the response to id {want_id}; got {buf[-400:]!r}")
            buf += chunk


def scripted_session(cmd):
    """A well-behaved client: initialize, wait, initialized, tools/list, ping, wait, close stdin.
    Returns (every stdout byte, exit code)."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + DEADLINE_S

    def send(obj):
        p.stdin.write((json.dumps(obj) + "\n").encode())
        p.stdin.flush()

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "proxy-test", "version": "1"}}})
        buf = read_until(p, b"", 1, deadline)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        buf = read_until(p, buf, 3, deadline)
        p.stdin.close()
        while True:
            r, _, _ = select.select([p.stdout], [], [], max(0, deadline - time.monotonic()))
            if not r:
                fail("stdout did not end after stdin closed")
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            buf += chunk
        return buf, p.wait(timeout=max(1, deadline - time.monotonic()))
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def finding_lines(path):
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def offline(mcpspec, trace):
    r = subprocess.run([mcpspec, "validate", "--trace", trace], capture_output=True, text=True, timeout=DEADLINE_S)
    lines = [l for l in r.stdout.splitlines() if l.startswith("#")]
    return lines, r.returncode


def as_foreign_trace(trace, out):
    """Our trace rewritten as mcp-trace-validator's event lines (the other format `validate --trace`
    reads), with a lifecycle event between, which carries no message."""
    with open(trace) as f, open(out, "w") as g:
        seq = 0
        for line in f:
            e = json.loads(line)
            if e["dir"] == "stderr":
                continue
            direction = "client-to-server" if e["dir"] == "c2s" else "server-to-client"
            try:
                payload = json.loads(e["text"])
            except ValueError:
                return False  # a line that is not JSON has no place in that format
            g.write(json.dumps({"seq": seq, "direction": direction, "transport": "stdio", "kind": "message",
                                "payload": payload}) + "\n")
            g.write(json.dumps({"seq": seq + 1, "direction": direction, "transport": "stdio", "kind": "lifecycle"}) + "\n")
            seq += 2
    return True


def check_offline_matches(mcpspec, trace, live):
    foreign = trace + ".mtv.jsonl"
    if as_foreign_trace(trace, foreign):
        lines, _ = offline(mcpspec, foreign)
        if lines != [l[len(PREFIX):] for l in live]:
            fail(f"the same trace in mcp-trace-validator's format was judged {lines}, live {live}")
    lines, rc = offline(mcpspec, trace)
    live_plain = [l[len(PREFIX):] for l in live]
    if lines != live_plain:
        fail(f"validate --trace found {lines} but the live proxy found {live_plain}")
    want_rc = 1 if any(" MUST " in l for l in lines) else 0
    if rc != want_rc:
        fail(f"validate --trace exited {rc}, expected {want_rc}")


def fault_declares_less(entry):
    return "LC-15" in entry["requirements"] and "capability" in entry["description"]


def server_case(bindir, fault):
    mcpspec = os.path.join(bindir, "mcpspec")
    server = [os.path.join(bindir, "mcpspec-testserver")] + (["--fault", fault] if fault else [])
    with tempfile.TemporaryDirectory() as d:
        findings, trace, report = (os.path.join(d, n) for n in ("findings", "trace.jsonl", "report.json"))
        direct, direct_rc = scripted_session(server)
        proxied, proxied_rc = scripted_session([mcpspec, "proxy", "--findings", findings, "--record", trace,
                                                "--report", "json:" + report, "--"] + server)
        if proxied != direct:
            fail(f"the transcript through the proxy differs from the direct run:\n{direct!r}\n{proxied!r}")
        if proxied_rc != direct_rc:
            fail(f"the proxy exited {proxied_rc}, the server directly {direct_rc}")
        live = finding_lines(findings)
        if not all(l.startswith(PREFIX + "#") for l in live):
            fail(f"finding lines must start with '{PREFIX}#N': {live}")
        # `report merge` reads a JSON report only when it validates against docs/report-schema.json.
        merged = subprocess.run([mcpspec, "report", "merge", report, "--html", os.path.join(d, "page.html")],
                                capture_output=True, text=True, timeout=DEADLINE_S)
        if merged.returncode != 0:
            fail(f"the proxy's JSON report is not a valid report: {merged.stderr}")
        with open(report) as f:
            results = json.load(f)["results"]
        if len(results) != 1 or len(results[0]["findings"]) != len(live):
            fail(f"the JSON report should hold one result with {len(live)} findings: {results}")
        if fault is None:
            if live:
                fail(f"a correct server and client gave findings: {live}")
            if results[0]["verdict"] != "pass":
                fail(f"verdict {results[0]['verdict']} for a clean session")
        else:
            with open(os.path.join(HERE, "..", "servers", "faults.json")) as f:
                entry = next(x for x in json.load(f)["faults"] if x["name"] == fault)
            caught = [l for l in live if " s2c " in l and any(r in l.split(":")[1].split(" ")[-1].split(",")
                                                              for r in entry["requirements"])]
            if not caught:
                fail(f"fault {fault} ({entry['requirements']}) not among the server findings: {live}")
            # A client asking for what the server failed to declare breaks LC-15 because of the
            # server's fault (tools-without-capability); anything else on a client line is wrong.
            if any(" c2s " in l and not (fault_declares_less(entry) and " LC-15:" in l) for l in live):
                fail(f"the well-behaved client got findings: {live}")
            if results[0]["verdict"] != "fail":
                fail(f"verdict {results[0]['verdict']} for a MUST fault")
        check_offline_matches(mcpspec, trace, live)
        print(f"ok: {len(live)} finding(s), {len(proxied)} bytes identical")


def client_case(bindir, fault):
    mcpspec = os.path.join(bindir, "mcpspec")
    with open(os.path.join(HERE, "..", "clients", "faults.json")) as f:
        entry = next(x for x in json.load(f)["faults"] if x["name"] == fault)
    with tempfile.TemporaryDirectory() as d:
        findings, trace = os.path.join(d, "findings"), os.path.join(d, "trace.jsonl")
        env = dict(os.environ, MCPSPEC_CONTEXT=json.dumps({"actions": [{"do": "list_tools"}, {"do": "ping"},
                                                                       {"do": "exit"}]}))
        subprocess.run([os.path.join(bindir, "mcpspec-testclient"), "--fault", fault, "--", mcpspec, "proxy",
                        "--findings", findings, "--record", trace, "--", os.path.join(bindir, "mcpspec-testserver")],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=DEADLINE_S)
        live = finding_lines(findings)
        if not any(" c2s " in l and any(r in l for r in entry["requirements"]) for l in live):
            fail(f"client fault {fault} ({entry['requirements']}) not among the client findings: {live}")
        check_offline_matches(mcpspec, trace, live)
        print(f"ok: {live}")


def bytes_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    data = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n\xff\xfe bytes\r\n\n{"partial": tr'
    with tempfile.TemporaryDirectory() as d:
        out, findings, trace = (os.path.join(d, n) for n in ("got", "findings", "trace.jsonl"))
        r = subprocess.run([mcpspec, "proxy", "--findings", findings, "--record", trace, "--", "sh", "-c",
                            f"cat > {out}; exit 7"], input=data, capture_output=True, timeout=DEADLINE_S)
        with open(out, "rb") as f:
            got = f.read()
        if got != data:
            fail(f"the server received {got!r}, the client sent {data!r}")
        if r.returncode != 7:
            fail(f"the proxy exited {r.returncode}, the server 7")
        live = finding_lines(findings)
        if not any("STDIO-04" in l for l in live):
            fail(f"the client's non-JSON lines were not reported (STDIO-04): {live}")
        with open(trace) as f:
            entries = [json.loads(l) for l in f]
        if [e["dir"] for e in entries] != ["c2s"] * 5 or entries[1]["text"] != "not json":
            fail(f"the trace does not hold the five client lines: {entries}")
        check_offline_matches(mcpspec, trace, live)
        print("ok")


def reaped_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    with tempfile.TemporaryDirectory() as d:
        pidfile = os.path.join(d, "pids")
        server = f"sleep 300 & echo $! > {pidfile}; echo $$ >> {pidfile}; exec {bindir}/mcpspec-testserver --fault ignore-stdin-eof"
        r = subprocess.run([mcpspec, "proxy", "--shutdown-ms", "300", "--", "sh", "-c", server],
                           input=b"", capture_output=True, timeout=DEADLINE_S)
        if r.returncode != 128 + 15:
            fail(f"a server that ignores stdin EOF should end by SIGTERM (exit 143), the proxy exited {r.returncode}")
        with open(pidfile) as f:
            pids = [int(x) for x in f.read().split()]
        for pid in pids:
            if not wait_until_gone(pid, 5):
                fail(f"process {pid} of the server's group is still running")
        # A server that ignores SIGTERM too: SIGKILL 500 ms later.
        stubborn = f"trap '' TERM; echo $$ > {pidfile}; while :; do sleep 1; done"
        r = subprocess.run([mcpspec, "proxy", "--shutdown-ms", "200", "--", "exec", "sh", "-c", stubborn],
                           input=b"", capture_output=True, timeout=DEADLINE_S)
        if r.returncode != 128 + 9:
            fail(f"a server that ignores SIGTERM should end by SIGKILL (exit 137), the proxy exited {r.returncode}")
        with open(pidfile) as f:
            pid = int(f.read())
        if not wait_until_gone(pid, 5):
            fail(f"the stubborn server {pid} is still running")
        print("ok")


def bad_input_case(bindir):
    mcpspec = os.path.join(bindir, "mcpspec")
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "t.jsonl")
        with open(trace, "w") as f:
            f.write('{"t_ms":0,"dir":"c2s","text":"{}"}\n{"t_ms":1,"dir":"sideways","text":"x"}\n')
        for cmd, want in (([mcpspec, "validate", "--trace", trace], f"{trace}:2: \"dir\" is \"sideways\""),
                          ([mcpspec, "proxy"], "needs the server command after --"),
                          ([mcpspec, "proxy", "--report", "yaml:x", "--", "true"], "--report"),
                          ([mcpspec, "proxy", "--record", os.path.join(d, "no", "t"), "--", "true"], "trace file")):
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=DEADLINE_S, stdin=subprocess.DEVNULL)
            if r.returncode != 2 or want not in r.stderr:
                fail(f"{cmd}: expected exit 2 and '{want}' on stderr, got {r.returncode}: {r.stderr!r}")
    print("ok")


# The scripted session's traffic: initialize (2025-06-18), notifications/initialized, tools/list,
# ping. A MUST fault whose trigger is one of these (or what the server does on its own after
# notifications/initialized) shows in that traffic, and the proxy must report it. Left out: faults
# only a missing answer reveals (hang-on-ping: the proxy passes traffic on and has no deadline of its
# own) and the flood (stdout-flood: covered in tests/hostile).
ORDINARY_TRIGGERS = ("initialize", "notifications/initialized", "tools/list", "ping")
NOT_IN_ORDINARY_TRAFFIC = {"hang-on-ping", "stdout-flood"}


def ordinary_faults():
    with open(os.path.join(HERE, "..", "servers", "faults.json")) as f:
        faults = json.load(f)["faults"]
    return [x["name"] for x in faults
            if x["level"] == "MUST" and x["name"] not in NOT_IN_ORDINARY_TRAFFIC and "protocol" not in x
            and any(x["trigger"] == t or x["trigger"].startswith(t + " (then watch") for t in ORDINARY_TRIGGERS)]


def all_ordinary_case(bindir):
    names = ordinary_faults()
    if len(names) < 8:
        fail(f"only {len(names)} faults qualify; faults.json changed shape? {names}")
    for name in names:
        print(f"{name}: ", end="", flush=True)
        server_case(bindir, name)


# The test client's faults that show while it lists tools, pings and exits against a correct
# server. The others need the server to do something first (ping it, ask for sampling, answer with
# an error, send progress, answer an unknown version) or are about how it stops the server.
CLIENT_FAULTS_IN_ORDINARY_TRAFFIC = ("no-initialized", "request-before-init-response", "null-id", "reused-id",
                                     "cancel-initialize", "roots-list-changed-undeclared")


def all_ordinary_client_case(bindir):
    for name in CLIENT_FAULTS_IN_ORDINARY_TRAFFIC:
        print(f"{name}: ", end="", flush=True)
        client_case(bindir, name)


def main():
    bindir, case = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 3 else None
    {"server-fault": lambda: server_case(bindir, arg), "server-correct": lambda: server_case(bindir, None),
     "client-fault": lambda: client_case(bindir, arg), "bytes": lambda: bytes_case(bindir),
     "reaped": lambda: reaped_case(bindir), "bad-input": lambda: bad_input_case(bindir),
     "server-faults-ordinary": lambda: all_ordinary_case(bindir),
     "client-faults-ordinary": lambda: all_ordinary_client_case(bindir)}[case]()


if __name__ == "__main__":
    main()
