#!/usr/bin/env python3
"""Times meditation-mcp on a generated folder of notes, beside a plain `grep -ril` on the same folder.

    bench.py --server BUILD/meditation-mcp [--notes 10000] [--rounds 20] [--keep DIR]

Generates N notes (deterministic pseudo-random words, 1-3 KB each, a tenth of them in subfolders),
starts meditation-mcp on them, and measures in one run: the server's start-up scan (to the
initialize answer), resources/list, resources/read of random notes, search_notes for a few queries
(rare, common, absent), and for each query `grep -ril QUERY FOLDER` (the baseline a user would
reach for). Prints medians and maxima in milliseconds. Standard library only.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

WORDS = ("breath sit calm mind body walk tea light morning evening quiet attention posture "
         "kindness silence thought return count slow ease gratitude rain garden bell cushion").split()
QUERIES = [("rare", "zephyrine"), ("common", "attention"), ("absent", "no-such-word-anywhere")]


def generate(folder, count, rng):
    for i in range(count):
        sub = os.path.join(folder, f"year-{i % 10}") if i % 10 == 0 else folder
        os.makedirs(sub, exist_ok=True)
        words = [rng.choice(WORDS) for _ in range(rng.randint(150, 450))]
        if i % 1000 == 7:
            words.insert(rng.randint(0, len(words)), "zephyrine")
        with open(os.path.join(sub, f"note-{i:05d}.md"), "w") as f:
            f.write(f"# Session {i}: {rng.choice(WORDS)} and {rng.choice(WORDS)}\n\n{' '.join(words)}\n")


class Server:
    def __init__(self, exe, folder):
        self.p = subprocess.Popen([exe, "--notes", folder], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        self.next_id = 0

    def call(self, method, params):
        self.next_id += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n")
        self.p.stdin.flush()
        start = time.perf_counter()
        line = self.p.stdout.readline()
        took = (time.perf_counter() - start) * 1000
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"], took

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=10)


def summary(samples):
    return f"median {statistics.median(samples):8.2f}  max {max(samples):8.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--notes", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--keep", help="generate into this folder and keep it")
    args = ap.parse_args()
    if not os.access(args.server, os.X_OK):
        ap.error(f"{args.server} is not an executable file")
    if shutil.which("grep") is None:
        ap.error("grep is not on PATH")
    folder = args.keep or tempfile.mkdtemp(prefix="meditation-bench-")
    try:
        rng = random.Random(20241201)
        t = time.perf_counter()
        generate(folder, args.notes, rng)
        print(f"generated {args.notes} notes in {folder} ({(time.perf_counter() - t):.1f} s)")
        start = time.perf_counter()
        server = Server(args.server, folder)
        server.call("initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                   "clientInfo": {"name": "bench", "version": "1"}})
        print(f"{'start-up scan (to initialize answer)':44} {(time.perf_counter() - start) * 1000:8.2f} ms")
        lists, reads = [], []
        listed = []
        for _ in range(args.rounds):
            result, took = server.call("resources/list", {})
            listed = result["resources"]
            lists.append(took)
        assert len(listed) == args.notes, f"listed {len(listed)} of {args.notes}"
        for _ in range(args.rounds * 5):
            _, took = server.call("resources/read", {"uri": rng.choice(listed)["uri"]})
            reads.append(took)
        print(f"{'resources/list (' + str(args.notes) + ' notes)':44} {summary(lists)} ms")
        print(f"{'resources/read (random note)':44} {summary(reads)} ms")
        for label, q in QUERIES:
            searches, greps = [], []
            for _ in range(args.rounds):
                result, took = server.call("tools/call", {"name": "search_notes", "arguments": {"query": q, "limit": 10}})
                searches.append(took)
                g = time.perf_counter()
                out = subprocess.run(["grep", "-ril", "--", q, folder], stdout=subprocess.PIPE, text=True)
                greps.append((time.perf_counter() - g) * 1000)
            found = result["content"][0]["text"].split("\n")[0]
            print(f"{'search_notes ' + label + ' (' + q + ')':44} {summary(searches)} ms   [{found}]")
            print(f"{'grep -ril ' + label:44} {summary(greps)} ms   [{len(out.stdout.splitlines())} files]")
        server.close()
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
