#!/usr/bin/env python3
"""Drives spec-tui's terminal UI in tmux against speckit-agent, the way a person would.

    tmux_drive.py --spec-tui PATH --agent PATH

A private tmux server (its own socket) runs spec-tui in a 100x30 window; keys go in with
send-keys and the screen is read back with capture-pane, polled until the expected text shows or
a deadline passes. Checks: the command menu, typing the input, the progress bar moving with its
message text, the result, a resize to a smaller and a too-small window and back, a cancel by key,
a timeout error and its retry key (second run, 1 s timeout), a bad configuration file (third
run), and the log file.
Exit 0 when all hold, 1 on the first that does not (the last screen is printed), 77 (skip) when
tmux is not installed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


class Screen:
    def __init__(self, socket, name):
        self.socket, self.name = socket, name

    def tmux(self, *args, check=True):
        # -f /dev/null: no user configuration can change keys or the terminal type.
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=10, check=check)

    def text(self):
        return self.tmux("capture-pane", "-p", "-t", self.name).stdout

    def keys(self, *keys, literal=False):
        self.tmux("send-keys", "-t", self.name, *(["-l"] if literal else []), *keys)

    def wait_for(self, what, pattern, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            m = re.search(pattern, screen)
            if m:
                return m, screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: /{pattern}/ not on the screen within {timeout:g} s:\n{screen}")
            time.sleep(0.1)


    def run_plan(self):
        """From the menu's first entry: down twice to plan, Enter (plan takes no input)."""
        self.keys("Down")
        self.keys("Down")
        self.wait_for("plan selected", r"> plan")
        self.keys("Enter")


def start(socket, name, command, width=100, height=30):
    s = Screen(socket, name)
    s.tmux("new-session", "-d", "-x", str(width), "-y", str(height), "-s", name, command)
    return s


def check(what, condition, screen=""):
    if not condition:
        raise AssertionError(f"{what}\n{screen}")
    print(f"ok  {what}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec-tui", required=True)
    ap.add_argument("--agent", required=True)
    args = ap.parse_args()
    if not shutil.which("tmux"):
        print("SKIP: tmux is not installed (Debian package tmux); the terminal UI test needs it")
        return 77
    tmp = tempfile.mkdtemp(prefix="spec-tui-tmux-")
    socket = f"spec-tui-test-{os.getpid()}"
    log = os.path.join(tmp, "spec-tui.log")

    def config(name, timeout, step_ms):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(f'[mcp]\ntransport = "stdio"\ncommand = "{args.agent}"\nargs = ["--step-ms", "{step_ms}"]\n'
                    f'timeout_seconds = {timeout}\nretries = 0\n\n[workflow]\nspec_directory = "{tmp}/specs/001"\n\n'
                    f'[log]\nfile = "{log}"\n')
        return path

    def run_line(cfg):
        # TERM=screen: its terminfo entry ships with ncurses-base everywhere, unlike tmux-256color.
        return f"TERM=screen {args.spec_tui} --config {cfg}; echo EXITED=$?; sleep 60"

    try:
        s = start(socket, "ui", run_line(config("ok.toml", 10, 400)))
        s.wait_for("connected", r"Connected\. Choose a command\.")
        _, screen = s.wait_for("menu", r"> specify")
        check("the command menu lists the five commands",
              all(re.search(rf"^\s+{c}\b", screen, re.M) for c in ("clarify", "plan", "tasks", "implement")), screen)
        check("the title names the agent", "speckit-agent 0.1.0 (protocol 2025-11-25)" in screen, screen)

        s.keys("Enter")
        s.wait_for("the input field", r"Feature description: _")
        s.keys("Teams share reading lists. Lists can be private. Who owns a list?", literal=True)
        s.wait_for("typed input shows", r"Feature description: Teams share reading lists\. Lists can be private\. Who owns a list\?_")
        s.keys("Enter")
        seen, messages = set(), set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            screen = s.text()
            for pct, msg in re.findall(r"Progress \[[#.]+\]\s+(\d+)% (.*\S)", screen):
                seen.add(int(pct))
                messages.add(msg)
            if "Specification created successfully" in screen:
                break
            time.sleep(0.1)
        check(f"the progress bar moved ({sorted(seen)})", len(seen) >= 2, screen)
        check(f"the progress message text shows ({sorted(messages)})", "Deriving functional requirements" in messages, screen)
        _, screen = s.wait_for("the result", r"Specification created successfully at .*spec\.md")
        check("the bar ends full", re.search(r"Progress \[#+\]\s+100%", screen) is not None, screen)
        check("the long result line wraps in the output panel instead of being cut",
              re.search(r"\|\s+\S*2 functional requirement\(s\), 1 open question\(s\)", screen) is not None or
              re.search(r"\| .*1 open question\(s\)", screen) is not None, screen)

        s.tmux("resize-window", "-t", "ui", "-x", "60", "-y", "16")
        _, screen = s.wait_for("layout after shrinking to 60x16", r"> specify")
        lines = screen.rstrip("\n").split("\n")
        check("after the resize the title, menu and help line fit 60x16",
              len(lines) <= 16 and "spec-tui" in lines[0] and "q: quit" in lines[-1] and
              all(len(l) <= 60 for l in lines), screen)
        s.tmux("resize-window", "-t", "ui", "-x", "40", "-y", "10")
        s.wait_for("a too-small window says so", r"Terminal too small")
        s.tmux("resize-window", "-t", "ui", "-x", "100", "-y", "30")
        _, screen = s.wait_for("layout back at 100x30", r"> specify")
        check("the output survives the resizes", "Specification created successfully" in screen, screen)

        s.run_plan()
        s.wait_for("plan running", r"Progress \[[#.]*\.\]\s+25% Reading spec\.md")
        s.keys("c")
        s.wait_for("cancel by key", r"Cancelled: speckit\.plan was cancelled")
        check("the cancelled plan wrote nothing", not os.path.exists(os.path.join(tmp, "specs/001/plan.md")))
        s.keys("q")
        s.wait_for("quit", r"EXITED=1")

        t = start(socket, "timeout", run_line(config("slow.toml", 1, 800)))
        t.wait_for("connected (second run)", r"Connected\.")
        t.run_plan()
        t.wait_for("the timeout error", r"Error: Timed out after 1 s waiting for speckit\.plan; asked the agent to cancel it")
        t.keys("r")
        t.wait_for("r runs the failed command again", r"(?s)Timed out after 1 s.*> plan .*Timed out after 1 s")
        t.keys("q")
        t.wait_for("quit (second run)", r"EXITED=1")

        bad = os.path.join(tmp, "bad.toml")
        with open(bad, "w") as f:
            f.write('[mcp]\ntransport = "carrier-pigeon"\n')
        b = start(socket, "bad", run_line(bad))
        b.wait_for("the bad-config error", r"configuration error: .*bad\.toml:2:\d+: mcp\.transport must be")
        b.wait_for("exit status 2 for a bad configuration", r"EXITED=2")

        with open(log) as f:
            text = f.read()
        check("the log holds every output line", " out Specification created successfully" in text and
              " out Cancelled: speckit.plan was cancelled" in text and " out Error: Timed out" in text)
        check("the log holds the details", " detail timeout: no answer to tools/call" in text)
        print("all checks passed")
        return 0
    except AssertionError as e:
        print(f"FAILED: {e}")
        return 1
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
