#!/usr/bin/env python3
"""chant and meditation-mcp killed (SIGKILL, the whole process group) at random moments while
they write and sync: every file must stay whole and no acknowledged update may be lost.

  crash_kill.py --bin BUILD chant [--rounds N] [--seed S]
  crash_kill.py --bin BUILD meditation [--rounds N] [--seed S]

chant: each round starts `chant mcp` in one project and streams chant_spec_update calls that append
a numbered block to one spec, reads the answers as they come, and kills the server after a random
delay. Then a fresh chant must read every spec without error (whole files), the spec must hold
every block whose update was answered (acknowledged = durable), and blocks must be whole.

meditation: the notes folder is a git clone; each round the origin gains a commit with a new note,
meditation-mcp is asked to sync_repository and killed after a random delay (its git child with it).
Then `git status` must work in the clone (no stale lock, no broken index), and a fresh
meditation-mcp must sync to the origin's head and list every note of it.

Waits are bounded (each answer 20 s, each round 60 s); the seed is printed so a failure replays.
"""
import argparse
import json
import os
import pathlib
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def fail(msg: str):
    print(f"FAIL: {msg}", flush=True)
    sys.exit(1)


class Server:
    """A stdio MCP server in its own process group; lines in, answers out, with deadlines."""

    def __init__(self, cmd, cwd):
        self.p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        self.buf = b""

    def send(self, obj):
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def answers(self, until: float):
        """Yields answers as they arrive, until `until` (monotonic) or the server's end."""
        fd = self.p.stdout.fileno()
        while time.monotonic() < until:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if line.strip():
                    yield json.loads(line)
            ready, _, _ = select.select([fd], [], [], max(0.0, until - time.monotonic()))
            if not ready:
                return
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            self.buf += chunk

    def call(self, id_, method, params, wait=20.0):
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        for msg in self.answers(time.monotonic() + wait):
            if msg.get("id") == id_:
                return msg
        fail(f"no answer to {method} (id {id_}) within {wait} s")

    def initialize(self):
        self.call(0, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                    "clientInfo": {"name": "crash-kill", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def kill(self):
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.p.wait(timeout=20)


def tool_text(answer) -> str:
    if "result" not in answer:
        fail(f"error answer: {answer}")
    return "".join(c.get("text", "") for c in answer["result"].get("content", []))


def chant(args, rng):
    chant_bin = str(pathlib.Path(args.bin, "chant").resolve())
    root = tempfile.mkdtemp(prefix="crash-kill-chant-")
    subprocess.run([chant_bin, "init"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    s = Server([chant_bin, "mcp"], root)
    s.initialize()
    created = s.call(1, "tools/call", {"name": "chant_add", "arguments": {"description": "Victim"}})
    spec_id = re.search(r"\d{4}-\d{2}-\d{2}-[0-9a-z]+-[0-9a-z]+", tool_text(created))
    if not spec_id:
        fail(f"chant_add gave no id: {tool_text(created)}")
    spec_id = spec_id.group(0)
    s.kill()
    acknowledged = set()
    payload = "x" * 256  # small blocks: the spec stays far below chant's size limit over all rounds
    for round_ in range(args.rounds):
        s = Server([chant_bin, "mcp"], root)
        s.initialize()
        first = 100 + round_ * 1000
        for n in range(first, first + 100):
            s.send({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                    "params": {"name": "chant_spec_update",
                               "arguments": {"id": spec_id, "output": f"<block {n}>{payload}</block {n}>"}}})
        kill_at = time.monotonic() + rng.uniform(0.0, 0.4)
        for msg in s.answers(kill_at):
            if isinstance(msg.get("id"), int) and msg["id"] >= first and "result" in msg \
                    and not msg["result"].get("isError"):
                acknowledged.add(msg["id"])
        s.kill()
        # A fresh server reads every spec whole, and the acknowledged blocks are all there.
        check = Server([chant_bin, "mcp"], root)
        check.initialize()
        listing = json.loads(tool_text(check.call(1, "tools/call", {"name": "chant_spec_list", "arguments": {}})))
        if listing.get("errors"):
            fail(f"round {round_}: a spec file is not whole: {listing['errors']}")
        body = json.loads(tool_text(check.call(2, "tools/call", {"name": "chant_spec_get",
                                                                  "arguments": {"id": spec_id}})))["body"]
        check.kill()
        opened = re.findall(r"<block (\d+)>", body)
        closed = re.findall(r"</block (\d+)>", body)
        if opened != closed or body.count(payload) != len(opened):
            fail(f"round {round_}: a block is cut: {len(opened)} opened, {len(closed)} closed")
        lost = sorted(acknowledged - {int(n) for n in opened})
        if lost:
            fail(f"round {round_}: acknowledged updates lost: {lost[:10]}")
        leftovers = [p.name for p in pathlib.Path(root, ".chant/specs").iterdir() if not p.name.endswith(".md")]
        print(f"round {round_}: {len(acknowledged)} acknowledged so far, {len(opened)} blocks, "
              f"files whole; other files in specs/: {leftovers}", flush=True)
    print(f"chant: {args.rounds} rounds, {len(acknowledged)} acknowledged updates, none lost, every file whole")
    shutil.rmtree(root, ignore_errors=True)  # kept on failure, as evidence


def git(cwd, *cmd):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *cmd], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def meditation(args, rng):
    med_bin = str(pathlib.Path(args.bin, "meditation-mcp").resolve())
    base = pathlib.Path(tempfile.mkdtemp(prefix="crash-kill-meditation-"))
    origin, notes = base / "origin", base / "notes"
    origin.mkdir()
    git(origin, "init", "-q")
    for i in range(200):  # enough files that a pull takes a while
        (origin / f"seed-{i}.md").write_text(f"# Seed {i}\n" + "words " * 200 + "\n")
    git(origin, "add", ".")
    git(origin, "commit", "-qm", "seed")
    if git(base, "clone", "-q", "origin", "notes").returncode != 0:
        fail("cannot clone")
    for round_ in range(args.rounds):
        for i in range(20):
            (origin / f"round-{round_}-{i}.md").write_text(f"# Round {round_} note {i}\n" + "text " * 500)
        git(origin, "add", ".")
        git(origin, "commit", "-qm", f"round {round_}")
        s = Server([med_bin, str(notes)], base)
        s.initialize()
        s.send({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                "params": {"name": "sync_repository", "arguments": {}}})
        for _ in s.answers(time.monotonic() + rng.uniform(0.0, 0.3)):
            pass
        s.kill()
        status = git(notes, "status", "--porcelain")
        if status.returncode != 0:
            fail(f"round {round_}: git status fails after the kill: {status.stderr.strip()}")
        # A fresh server syncs to the head and lists every note of it.
        check = Server([med_bin, str(notes)], base)
        check.initialize()
        # The killed server's git outlives it (its own process group) and may still hold a ref
        # lock: a sync that fails on it is tried again, as a user would. A sync that succeeds must
        # list every note of the head (it must not scan beside a checkout still writing files).
        for attempt in range(3):
            synced = tool_text(check.call(10 + attempt, "tools/call", {"name": "sync_repository", "arguments": {}},
                                          wait=30))
            if "failed" not in synced and "not tried" not in synced:
                break
            time.sleep(1)
        listed = check.call(2, "resources/list", {})
        check.kill()
        head = git(origin, "rev-parse", "HEAD").stdout.strip()
        here = git(notes, "rev-parse", "HEAD").stdout.strip()
        if head != here:
            fail(f"round {round_}: the clone is not at the origin's head after a sync: {synced}")
        uris = {r["uri"] for r in listed["result"]["resources"]}
        missing = [f"round-{round_}-{i}" for i in range(20) if f"meditation://note/round-{round_}-{i}" not in uris]
        if missing:
            fail(f"round {round_}: notes missing after the sync: {missing[:5]}")
        print(f"round {round_}: killed during sync, clone whole, next sync reached {head[:8]}", flush=True)
    print(f"meditation: {args.rounds} rounds, every kill survived, no note lost")
    shutil.rmtree(base, ignore_errors=True)  # kept on failure, as evidence


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("system", choices=["chant", "meditation"])
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"seed {seed} (replay with --seed {seed})", flush=True)
    rng = random.Random(seed)
    {"chant": chant, "meditation": meditation}[args.system](args, rng)


if __name__ == "__main__":
    main()
