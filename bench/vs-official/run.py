#!/usr/bin/env python3
"""mcpspec vs the official MCP conformance suite, against the same server, in the same run.

Both test the same server, each against a fresh server process, alternating, `--rounds` times:
@modelcontextprotocol/server-everything (streamableHttp mode, bound to 127.0.0.1 by
tests/http/loopback-preload.cjs) at 2025-11-25 with the official suite 0.1.16, or, with
`--protocol 2026-07-28`, mcpspec's own test server behind its HTTP front (mcpspec-httpserver, which
serves 2026-07-28 statelessly) with the official suite 0.2.0-alpha.12 (`--requirements 2026-07-28`);
`--server sdk2` tests instead the TypeScript SDK v2 server (tests/peers/sdk2-server.mjs --http, the
SDK's createMcpHandler) at either version.
Measured per tool: wall time and peak RSS (GNU time -v, the tool's process tree as its parent sees
it), and the number of checks it ran. Printed as medians and ratios.

  python3 bench/vs-official/run.py [--build build] [--rounds 3] [--protocol 2026-07-28]
                                   [--server everything|testserver|sdk2] [--json out.json]

Checks counted: official = entries in its checks.json files (pass + fail + warning...);
mcpspec = scenario results that were judged (PASS/FAIL/WARN/XFAIL/XPASS; SKIP and ERROR are not
checks). Needs `cd tests && npm ci` (pinned versions in tests/package.json).
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODS = os.path.join(ROOT, "tests", "node_modules")
NODE = os.path.join(MODS, "node", "bin", "node")
EVERYTHING = os.path.join(MODS, "@modelcontextprotocol", "server-everything", "dist", "index.js")
CONFORMANCE = os.path.join(MODS, "@modelcontextprotocol", "conformance", "dist", "index.js")
CONFORMANCE_V02 = os.path.join(MODS, "conformance-v02", "dist", "index.js")  # 0.2.0-alpha.12: 2026-07-28
MODERN = "2026-07-28"
PRELOAD = os.path.join(ROOT, "tests", "http", "loopback-preload.cjs")
SDK2 = os.path.join(ROOT, "tests", "peers", "sdk2-server.mjs")  # @modelcontextprotocol/server 2.4.0
SDK2_PACKAGE = os.path.join(MODS, "@modelcontextprotocol", "server", "package.json")
SERVER_NAMES = {"everything": "server-everything (streamableHttp)",
                "testserver": "mcpspec-testserver behind mcpspec-httpserver",
                "sdk2": "the SDK v2 server (sdk2-server.mjs --http, createMcpHandler)"}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Server:
    """A fresh server under test: server-everything, (`testserver`) mcpspec-httpserver in front of
    mcpspec-testserver, or (`sdk2`) the SDK v2 server over HTTP."""

    def __init__(self, kind, build):
        self.port = free_port()
        node = NODE if os.path.exists(NODE) else "node"
        cmd = {"everything": [node, "--require", PRELOAD, EVERYTHING, "streamableHttp"],
               "sdk2": [node, SDK2, "--http"],
               "testserver": [os.path.join(build, "mcpspec-httpserver"), "--backend",
                              os.path.join(build, "mcpspec-testserver")]}[kind]
        self.proc = subprocess.Popen(cmd, env=dict(os.environ, PORT=str(self.port)), start_new_session=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited before listening")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not listen within 60 s")
                time.sleep(0.05)

    @property
    def url(self):
        return "http://127.0.0.1:%d/mcp" % self.port

    def stop(self):
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
                self.proc.wait(timeout=3)
                return
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue


def cpu_seconds(pid):
    """User + system CPU time a process and its reaped children have used so far (Linux /proc), or
    nan. The HTTP front's test servers are its children, counted once they end."""
    try:
        with open("/proc/%d/stat" % pid) as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def timed(cmd, cwd, server):
    """Runs cmd under GNU time -v: (wall s, peak RSS MB, own CPU s, server CPU s, exit code, output).
    Own CPU is the tool's process tree (user + sys); server CPU is what the server under test spent
    meanwhile: a single-threaded server's CPU time is a floor under any tool's wall time."""
    s0 = cpu_seconds(server.proc.pid)
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=900)
    wall = time.monotonic() - t0
    server_cpu = cpu_seconds(server.proc.pid) - s0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    rss = int(m.group(1)) / 1024.0 if m else float("nan")
    u = re.search(r"User time \(seconds\): ([0-9.]+)", p.stderr)
    k = re.search(r"System time \(seconds\): ([0-9.]+)", p.stderr)
    own = float(u.group(1)) + float(k.group(1)) if u and k else float("nan")
    return wall, rss, own, server_cpu, p.returncode, p.stdout + p.stderr


def run_official(srv, tmp, protocol):
    url = srv.url
    out = os.path.join(tmp, "official")
    shutil.rmtree(out, ignore_errors=True)
    node = NODE if os.path.exists(NODE) else "node"
    # 2026-07-28: the 0.2 alpha runs exactly the scenarios that revision requires.
    which = ([CONFORMANCE_V02, "server", "--url", url, "--requirements", MODERN] if protocol == MODERN else
             [CONFORMANCE, "server", "--url", url, "--suite", "active"])
    wall, rss, own, server_cpu, code, text = timed([node] + which + ["-o", out], tmp, srv)
    checks = 0
    for f in glob.glob(os.path.join(out, "**", "checks.json"), recursive=True):
        with open(f) as fh:
            data = json.load(fh)
        checks += len(data) if isinstance(data, list) else len(data.get("checks", []))
    return {"wall_s": wall, "rss_mb": rss, "cpu_s": own, "server_cpu_s": server_cpu, "checks": checks, "exit": code}


def run_mcpspec(build, srv, tmp, call_tools, jobs, protocol):
    report = os.path.join(tmp, "mcpspec.json")
    wall, rss, own, server_cpu, code, text = timed(
        [os.path.join(build, "mcpspec"), "run", "--url", srv.url, "-j", str(jobs), "--call-tools", call_tools,
         "--protocol", protocol, "--report", "json:" + report, os.path.join(ROOT, "scenarios", "mcp")], ROOT, srv)
    checks = 0
    if os.path.exists(report):
        with open(report) as fh:
            results = json.load(fh)["results"]
        checks = sum(1 for r in results if r["verdict"] in ("pass", "fail", "warn", "xfail", "xpass"))
    return {"wall_s": wall, "rss_mb": rss, "cpu_s": own, "server_cpu_s": server_cpu, "checks": checks, "exit": code}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--call-tools", default="none",
                    help="mcpspec --call-tools: none (default: like the official suite, no tool of the server is run"
                         " for real); readonly also runs server-everything's tools, one of which takes 10 s by itself")
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--protocol", default="2025-11-25", choices=["2025-11-25", MODERN],
                    help="2025-11-25 (official 0.1.16) or 2026-07-28 (official 0.2.0-alpha.12)")
    ap.add_argument("--server", choices=["everything", "testserver", "sdk2"],
                    help="server-everything (default at 2025-11-25; it does not serve 2026-07-28), mcpspec's test"
                         " server behind mcpspec-httpserver (default at 2026-07-28), or the TypeScript SDK v2 server"
                         " (@modelcontextprotocol/server 2.4.0 over Streamable HTTP, both versions)")
    a = ap.parse_args()
    kind = a.server or ("testserver" if a.protocol == MODERN else "everything")
    needs = [os.path.join(a.build, "mcpspec"), CONFORMANCE_V02 if a.protocol == MODERN else CONFORMANCE]
    needs += {"everything": [EVERYTHING], "sdk2": [SDK2_PACKAGE],
              "testserver": [os.path.join(a.build, n) for n in ("mcpspec-httpserver", "mcpspec-testserver")]}[kind]
    for need in needs:
        if not os.path.exists(need):
            print("missing %s (build mcpspec; cd tests && npm ci)" % need, file=sys.stderr)
            return 2
    rows = {"official": [], "mcpspec": []}
    with tempfile.TemporaryDirectory(prefix="mcpspec-bench-") as tmp:
        for _ in range(a.rounds):
            for tool in ("official", "mcpspec"):
                srv = Server(kind, a.build)
                try:
                    r = (run_official(srv, tmp, a.protocol) if tool == "official" else
                         run_mcpspec(a.build, srv, tmp, a.call_tools, a.jobs, a.protocol))
                finally:
                    srv.stop()
                rows[tool].append(r)
                print("%-8s wall %6.2f s  peak RSS %6.1f MB  own CPU %5.2f s  server CPU %5.2f s  checks %3d  exit %d"
                      % (tool, r["wall_s"], r["rss_mb"], r["cpu_s"], r["server_cpu_s"], r["checks"], r["exit"]),
                      flush=True)
    keys = ("wall_s", "rss_mb", "cpu_s", "server_cpu_s", "checks")
    med = {t: {k: statistics.median(r[k] for r in rows[t]) for k in keys} for t in rows}
    o, m = med["official"], med["mcpspec"]
    print("\nmedian of %d rounds at %s against %s, mcpspec -j %d --call-tools %s:"
          % (a.rounds, a.protocol, SERVER_NAMES[kind], a.jobs, a.call_tools))
    for name, r in (("official", o), ("mcpspec ", m)):
        print("  %s: %.2f s, %.1f MB, own CPU %.2f s, server CPU %.2f s, %d checks"
              % (name, r["wall_s"], r["rss_mb"], r["cpu_s"], r["server_cpu_s"], r["checks"]))
    per_check = lambda r, k: r[k] / max(1, r["checks"])
    print("  mcpspec/official: wall %.2f (target <= 0.5), memory %.2f (target <= 0.20), checks %.2f (target > 1)"
          % (m["wall_s"] / o["wall_s"], m["rss_mb"] / o["rss_mb"], m["checks"] / max(1, o["checks"])))
    print("  mcpspec/official: own CPU %.2f, wall per check %.2f, own CPU per check %.2f"
          % (m["cpu_s"] / o["cpu_s"], per_check(m, "wall_s") / per_check(o, "wall_s"),
             per_check(m, "cpu_s") / per_check(o, "cpu_s")))
    print("  floor: the server spent %.2f s of CPU serving mcpspec's %d checks (%.2f s for the official %d)%s"
          % (m["server_cpu_s"], m["checks"], o["server_cpu_s"], o["checks"],
             "; one node thread cannot serve them in less wall time than that" if kind != "testserver" else ""))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"rounds": rows, "median": med}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
