#!/usr/bin/env python3
"""Runs mcpspec against one hostile target (tests/hostile/) and checks the three promises of
docs/security.md: the run ends within its bound with a clear verdict (an expected exit code and a
line saying what went wrong), the peak memory stays under a bound (the figure is printed), and no
process of the target is left behind.

  hostile_check.py --bin BUILD_DIR --src SOURCE_DIR CASE   one case of CASES below
  hostile_check.py --self-test                            each check catches a planted fault

How processes are followed: mcpspec runs with a unique MCPSPEC_HOSTILE_TAG in its environment,
which every process it starts (and theirs) inherits. While the run goes on the process table is
sampled for that tag (the pids seen are printed: the check must see the target to mean anything);
after mcpspec has exited, any live process still carrying the tag is a leftover, reported and
killed. Standard library only."""
import argparse
import json
import os
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TAG_VAR = "MCPSPEC_HOSTILE_TAG"
PING = "scenarios/mcp/ping"
# Small waits so every case is quick; the bound on the whole mcpspec process is generous.
# Two scenarios at a time, as a 2-core machine ran them when the default followed the cores: the
# small waits assume a hostile target (a huge line, a flood) is not fighting 15 copies of itself.
RUN_WAITS = ["--startup-timeout-ms", "1500", "--timeout-ms", "1000", "--deadline", "15", "-j", "2"]
FUZZ_WAITS = ["--startup-timeout-ms", "1500", "--timeout-ms", "1000", "--duration", "3",
              "--minimize-ms", "2000"]
WALL_BOUND_S = 45
MAX_RSS_MB = 300
# Floods are bounded tighter: mcpspec holds ~20-40 MB against them, and before the wire log and
# the fuzzer's pending anomalies were capped it held 170-320 MB, growing with the run's length.
FLOOD_MAX_RSS_MB = 100
MAX_RSS_OF = {"server/flood-stdout": FLOOD_MAX_RSS_MB, "fuzz/flood-stdout": FLOOD_MAX_RSS_MB}


# The end must outlive the attack (about 6 s: a silent connection is closed after 5 s). One
# scenario: the attack is the same in each.
ENDS_RUN = ["scenarios/mcp/client/ping/answers-ping.json", "--startup-timeout-ms", "30000", "--timeout-ms", "30000", "--deadline", "40"]


def waits(defaults, rest):
    """The default waits, less any option the case sets itself in `rest` (an option given twice is
    a usage error), then the case's own arguments."""
    kept = []
    for name, value in zip(defaults[::2], defaults[1::2]):
        if name not in rest:
            kept += [name, value]
    return kept + rest


def server(mode):
    # exec: without it /bin/sh stays the target's parent and holds its stdout open, so a target that
    # closes stdout would not be seen doing so.
    return f"exec {shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'hostile_server.py'))} {mode}"


def client(mode):
    return f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'hostile_client.py'))} {mode} {{server}}"


# case -> (kind, mode, mcpspec arguments after the target, allowed exit codes, a text the output must hold)
# kind: "server" (stdio --server), "fuzz" (mcpspec fuzz --server), "client" (--client), "http" (--url).
CASES = {
    "server/hang": ("server", "hang", [PING], {2}, "sent nothing in answer to initialize"),
    "server/no-read": ("server", "no-read", ["scenarios/mcp/stdio", PING], {1}, "FAIL"),
    "server/flood-stdout": ("server", "flood-stdout", [PING], {1}, "is not a JSON-RPC message"),
    "server/flood-stderr": ("server", "flood-stderr", [PING], {0}, " 0 failed"),
    "server/huge-line": ("server", "huge-line", [PING], {1}, "exceeds the limit of"),
    "server/bad-utf8": ("server", "bad-utf8", [PING], {1}, "holds bytes that are not UTF-8"),
    "server/fork-and-exit": ("server", "fork-and-exit", [PING], {1}, "did not arrive within"),
    "server/ignore-term": ("server", "ignore-term", ["scenarios/mcp/stdio", PING], {0, 1}, "did not exit within"),
    "server/exit-mid-message": ("server", "exit-mid-message", [PING], {1}, "the target ended"),
    "server/close-stdout": ("server", "close-stdout", [PING], {2}, "closed its output before answering initialize"),
    "server/wrong-ids": ("server", "wrong-ids", [PING], {1}, "matches no request"),
    "server/notification-storm": ("server", "notification-storm", [PING], {0, 1}, " passed"),
    "fuzz/hang": ("fuzz", "hang", [], {2}, "initialize"),
    "fuzz/no-read": ("fuzz", "no-read", [], {1}, "FINDING hang"),
    # A longer handshake wait: memory must not grow with it (it did, past 300 MB in 4 s).
    "fuzz/flood-stdout": ("fuzz", "flood-stdout", ["--startup-timeout-ms", "4000"], {2}, "no message was sent"),
    "fuzz/huge-line": ("fuzz", "huge-line", [], {2}, "no message was sent"),
    "fuzz/fork-and-exit": ("fuzz", "fork-and-exit", [], {1}, "FINDING crash"),
    "fuzz/ignore-term": ("fuzz", "ignore-term", [], {0, 1}, "messages in"),
    "fuzz/notification-storm": ("fuzz", "notification-storm", [], {0, 1}, "messages in"),
    "client/hang": ("client", "hang", ["scenarios/mcp/client/ping"], {1}, "did not arrive within"),
    "client/flood": ("client", "flood", ["scenarios/mcp/client/ping"], {1}, "FAIL"),
    "client/never-connect": ("client", "never-connect", ["scenarios/mcp/client/ping"], {2}, "did not reach its server"),
    "client/fork-and-exit": ("client", "fork-and-exit", ["scenarios/mcp/client/ping"], {1}, "the client never started the server"),
    "http/silent": ("http", "silent", [PING], {2}, "sent nothing in answer to initialize"),
    "http/endless-sse": ("http", "endless-sse", [PING], {1}, "no response to initialize"),
    "http/huge-headers": ("http", "huge-headers", [PING], {2}, "HTTP line longer than"),
    "http/redirect-loop": ("http", "redirect-loop", [PING], {1}, "-> 307"),
    "http/slowloris": ("http", "slowloris", [PING], {2}, "sent nothing in answer to initialize"),
    # `mcpspec proxy` (stdio) between a hostile host (hostile_host.py, first word) and a hostile
    # server (second word): it ends once the host is gone, whatever the server does, and exits with
    # the server's status (143: ended by SIGTERM, 137: by SIGKILL).
    "proxy/upstream-hang": ("proxy", "polite:hang", [], {143}, "the proxy ended"),
    "proxy/upstream-no-read": ("proxy", "flood:no-read", [], {143}, "the proxy ended"),
    "proxy/upstream-huge-line": ("proxy", "polite:huge-line", [], {143}, "the proxy ended"),
    "proxy/upstream-exit-mid-message": ("proxy", "polite:exit-mid-message", [], {0}, "the proxy ended"),
    "proxy/upstream-fork-and-exit": ("proxy", "polite:fork-and-exit", [], {0}, "the proxy ended"),
    "proxy/upstream-ignore-term": ("proxy", "polite:ignore-term", [], {137}, "the proxy ended"),
    "proxy/host-flood": ("proxy", "flood:polite", [], {0}, "the proxy ended"),
    # The server blocks writing answers nobody reads, so it never sees its input end: SIGTERM.
    "proxy/host-no-read": ("proxy", "no-read:polite", [], {143}, "the proxy ended"),
    "proxy/host-huge-line": ("proxy", "huge-line:polite", [], {0}, "the proxy ended"),
    "proxy/host-exit-mid": ("proxy", "exit-mid:polite", [], {0}, "the proxy ended"),
    # mcpspec's own server ends under attack by the client under test (hostile_ends.py): each bound
    # it checks is one more check here. The client never speaks MCP, so the scenario fails.
    "ends/http": ("ends", "http", ENDS_RUN, {1, 2}, "FAIL"),
    "ends/sse": ("ends", "sse", ENDS_RUN, {1, 2}, "FAIL"),
    "ends/ws": ("ends", "ws", ENDS_RUN, {1, 2}, "FAIL"),
    # The HTTP proxy's --listen end under the same attack (its upstream answers 405 to what passes),
    # and the proxy with an upstream that never answers: SIGTERM must still end it.
    "ends/proxy": ("proxy-http", "--proxy:refuse", [], {0}, "the proxy ended"),
    "proxy/http-upstream-silent": ("proxy-http", "--proxy-silent:silent", [], {0}, "the proxy ended"),
}


def tagged_pids(tag):
    """Live (not zombie) processes whose environment carries TAG_VAR=tag."""
    needle = f"{TAG_VAR}={tag}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if state not in ("Z", "X"):
            found.append(int(entry))
    return found


def leftovers_of(tag):
    """Tagged processes still alive after mcpspec ended. A process SIGKILLed just before mcpspec
    exited may still be dying (not yet a zombie): what is there is looked at again after a second,
    and only what survives that counts. A real leftover (a sleeping daemon) survives it."""
    first = tagged_pids(tag)
    if not first:
        return []
    time.sleep(1)
    return [p for p in tagged_pids(tag) if p in first]


def high_water_kb(pid):
    """The peak resident set of a live process so far (VmHWM), 0 when it cannot be read."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measured_run(argv, tag, bound_s, cwd):
    """Runs argv (its own session) with the tag; returns (exit code or None if past the bound,
    output, peak RSS in MB of it and every process it reaped, tagged pids seen while it ran). The
    figure asserted is the kernel's (wait4): the largest resident set of mcpspec or any process it
    reaped, so an upper bound for mcpspec itself; its own sampled peak is printed beside it."""
    env = dict(os.environ, **{TAG_VAR: tag})
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                            stderr=subprocess.STDOUT, start_new_session=True)
    seen, code, rss_kb, own_kb = set(), None, 0, 0
    until = time.monotonic() + bound_s
    while time.monotonic() < until:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            code, rss_kb = os.waitstatus_to_exitcode(status), usage.ru_maxrss
            break
        seen.update(p for p in tagged_pids(tag) if p != proc.pid)
        own_kb = max(own_kb, high_water_kb(proc.pid))
        time.sleep(0.05)
    if code is None:
        os.killpg(proc.pid, signal.SIGKILL)
        _, _, usage = os.wait4(proc.pid, 0)
        rss_kb = usage.ru_maxrss
    proc.returncode = code if code is not None else -9  # already reaped above
    out.seek(0)
    print(f"peak RSS of the mcpspec process alone (sampled): {own_kb / 1024:.1f} MB")
    return code, out.read().decode("utf-8", "replace"), rss_kb / 1024, seen


def judge(check, name, code, output, rss_mb, seen, leftovers, codes, text, bound_s, max_rss_mb, expect_target):
    """The three promises, each a check; prints the figures."""
    print(f"{name}: exit {code}, peak RSS {rss_mb:.1f} MB (bound {max_rss_mb}), "
          f"{len(seen)} target process(es) seen, {len(leftovers)} left behind")
    check(code is not None, f"mcpspec did not end within {bound_s} s")
    check(code is None or code in codes, f"exit code {code}, expected one of {sorted(codes)}")
    check(text in output, f"the output does not say {text!r}")
    check(rss_mb <= max_rss_mb, f"peak RSS {rss_mb:.1f} MB is over the bound of {max_rss_mb} MB")
    check(not expect_target or seen, "no process of the target was ever seen: the leftover check saw nothing")
    check(not leftovers, f"processes left behind: {leftovers}")


def attack_checks(check, results_path, at_least):
    """Each bound hostile_ends.py attacked is a check of its own."""
    try:
        with open(results_path) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"the attacker wrote no results: {e}")
        return
    check(len(results) >= at_least, f"the attacker checked only {sorted(results)}")
    for name, outcome in results.items():
        print(f"  {name}: {outcome}")
        check(outcome == "ok", f"{name}: {outcome}")


def kill_all(pids):
    for p in pids:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def start_http(mode, tmp):
    """Starts hostile_http.py (not tagged: it is the test's, not mcpspec's) and returns (process, url)."""
    port_file = os.path.join(tmp, "port")
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "hostile_http.py"), mode, port_file],
                            stdin=subprocess.DEVNULL, start_new_session=True)
    until = time.monotonic() + 10
    while not os.path.exists(port_file):
        if proc.poll() is not None or time.monotonic() > until:
            raise SystemExit(f"hostile_http.py {mode} did not start")
        time.sleep(0.05)
    with open(port_file) as f:
        return proc, f"http://127.0.0.1:{f.read().strip()}/mcp"


def run_case(a):
    kind, mode, rest, codes, text = CASES[a.case]
    mcpspec = os.path.join(a.bin, "mcpspec")
    check = Checks(f"hostile {a.case}")
    tag = uuid.uuid4().hex
    with tempfile.TemporaryDirectory(prefix="mcpspec-hostile-") as tmp:
        http = None
        report = ["--report", "console", "--report", "json:" + os.path.join(tmp, "report.json")]
        if kind == "server":
            argv = [mcpspec, "run", "--server", server(mode), *report, *waits(RUN_WAITS, rest)]
        elif kind == "fuzz":
            argv = [mcpspec, "fuzz", "--server", server(mode), "-q", "--findings", os.path.join(tmp, "findings"),
                    *waits(FUZZ_WAITS, rest)]
        elif kind == "client":
            argv = [mcpspec, "run", "--client", client(mode), *report, *waits(RUN_WAITS, rest)]
        elif kind == "proxy":
            host_mode, server_mode = mode.split(":")
            argv = [sys.executable, os.path.join(HERE, "hostile_host.py"), host_mode, mcpspec, "proxy",
                    "--shutdown-ms", "500", "--", *shlex.split(server(server_mode)), *rest]
        elif kind == "proxy-http":
            results = os.path.join(tmp, "attack.json")
            how, upstream_mode = mode.split(":")
            http, url = start_http(upstream_mode, tmp)
            argv = [sys.executable, os.path.join(HERE, "hostile_ends.py"), how, mcpspec, url, results]
        elif kind == "ends":
            results = os.path.join(tmp, "attack.json")
            attacker = shlex.join([sys.executable, os.path.join(HERE, "hostile_ends.py")])
            argv = [mcpspec, "run", "--client", f"{attacker} {{url}} {shlex.quote(results)}", "--transport", mode,
                    *report, *waits(RUN_WAITS, rest)]
        else:
            http, url = start_http(mode, tmp)
            argv = [mcpspec, "run", "--url", url, *report, *waits(RUN_WAITS, rest)]
        print("$", shlex.join(argv), flush=True)
        try:
            code, output, rss_mb, seen = measured_run(argv, tag, WALL_BOUND_S, a.src)
        finally:
            if http:
                os.killpg(http.pid, signal.SIGKILL)
                http.wait()
        leftovers = leftovers_of(tag)
        kill_all(leftovers)
        print(output[-3000:])
        # The wire log is in the JSON report only (the console shows it on request): the expected
        # text may be in either.
        report_path = os.path.join(tmp, "report.json")
        if os.path.exists(report_path):
            with open(report_path, encoding="utf-8", errors="replace") as f:
                output += f.read()
        judge(check, a.case, code, output, rss_mb, seen, leftovers, codes, text, WALL_BOUND_S,
              MAX_RSS_OF.get(a.case, MAX_RSS_MB),
              expect_target=kind != "http")
        if kind in ("ends", "proxy-http"):
            attack_checks(check, results, 10 if kind == "ends" or mode.startswith("--proxy:") else 1)
    return check.finish()


def self_test():
    """Each check fails on a planted fault: a process left behind, a run past its bound, memory over
    its bound, an unexpected exit code, and a target never seen."""
    check = Checks("hostile self-test")
    sh = "/bin/sh"

    def failures_of(argv, bound_s=10, max_rss_mb=MAX_RSS_MB, codes=frozenset({0}), text=""):
        tag = uuid.uuid4().hex
        code, output, rss_mb, seen = measured_run(argv, tag, bound_s, HERE)
        time.sleep(0.2)  # let a planted daemon finish starting before the table is read
        leftovers = leftovers_of(tag)
        kill_all(leftovers)
        inner = Checks("planted")
        judge(inner, "planted", code, output, rss_mb, seen, leftovers, codes, text, bound_s, max_rss_mb,
              expect_target=True)
        return inner.failures

    clean = failures_of([sh, "-c", "sleep 0.3 & wait"])
    check(clean == [], f"a clean run reports no problem (got {clean})")
    # A daemon started in its own session escapes the group: the table check must see it.
    planted = failures_of([sh, "-c", f"setsid {sh} -c 'sleep 30' </dev/null >/dev/null 2>&1 & sleep 0.3"])
    check(any("left behind" in f for f in planted), f"a planted leftover process is caught (got {planted})")
    late = failures_of([sh, "-c", "sleep 30"], bound_s=1)
    check(any("did not end" in f for f in late), f"a run past its bound is caught (got {late})")
    fat = failures_of([sys.executable, "-c", "import time; b = bytearray(64 << 20); b[::4096] = b'x' * len(b[::4096]); time.sleep(0.3)"],
                      max_rss_mb=32)
    check(any("over the bound" in f for f in fat), f"memory over its bound is caught (got {fat})")
    wrong = failures_of([sh, "-c", "sleep 0.3; exit 3"], codes={2})
    check(any("exit code 3" in f for f in wrong), f"an unexpected exit code is caught (got {wrong})")
    unseen = failures_of([sh, "-c", "exit 0"])
    check(any("was ever seen" in f for f in unseen), f"a target never seen is caught (got {unseen})")
    return check.finish()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin")
    ap.add_argument("--src")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--list", action="store_true", help="print the case names")
    ap.add_argument("case", nargs="?", choices=sorted(CASES))
    a = ap.parse_args()
    if a.list:
        print("\n".join(CASES))
        return 0
    if a.self_test:
        return self_test()
    if not (a.bin and a.src and a.case):
        ap.error("--bin, --src and a case are needed")
    return run_case(a)


if __name__ == "__main__":
    sys.exit(main())
