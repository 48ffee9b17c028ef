#!/usr/bin/env python3
"""No path of one particular machine in the repository.

A checkout can lie anywhere, so the tree must not name where it (or the shared folder beside it)
happened to lie when a file was written: the trees /work, /root, /home/NAME or /Users/NAME.
Paths are written relative to the repository (and `../shared/...` for the shared folder); documents
outside the repository are named by title and file name. Fuzzer corpora and regression inputs are
made-up bytes, not paths anyone wrote, and are not read.

  machine_paths.py SOURCEDIR      scan the files git tracks (every file when there is no git)
  machine_paths.py --self-test    prove that a planted machine path is found and a clean tree passes
"""
import os
import re
import subprocess
import sys
import tempfile

import tree_check

# Preceded by neither a word character nor a URL or path character, so "https://x.org/work/" or
# "docs/home/" do not count; /tmp is every machine's and is allowed.
MACHINE_PATH = re.compile(r"(?<![\w.:/~$-])/(?:work|root|home/[\w.-]+|Users/[\w.-]+)/")
SKIP_DIRS = ("fuzz/corpus/", "fuzz/regressions/", "tests/node_modules/")


def tracked_files(src):
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "-z"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(src):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build") and x != "node_modules"]
            files += [os.path.relpath(os.path.join(d, n), src) for n in names]
        return files


def scan(src):
    hits = []
    for rel in tracked_files(src):
        if rel.startswith(SKIP_DIRS):
            continue
        path = os.path.join(src, rel)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read(2_000_000)
        if b"\0" in data[:8192]:
            continue  # binary
        for n, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
            if MACHINE_PATH.search(line):
                hits.append(f"{rel}:{n}: {line.strip()[:160]}")
    return hits


def self_test():
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "docs"))
        clean = "see ../shared/seeds/x.txt, https://example.org/work/x, build/mcpspec, /tmp/out\n"
        with open(os.path.join(d, "docs", "clean.md"), "w") as f:
            f.write(clean)
        if scan(d):
            print(f"self-test: a clean tree was flagged: {scan(d)}")
            return 1
        planted = {"docs/a.md": "cmake -S /wo" + "rk/main -B build\n", "b.hpp": "// see /ho" + "me/alice/spec.md\n",
                   "c.txt": "(/ro" + "ot/shared/x)\n"}
        for rel, text in planted.items():
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        found = {h.split(":")[0] for h in scan(d)}
        if found != set(planted):
            print(f"self-test: planted machine paths in {sorted(planted)}, found {sorted(found)}")
            return 1
    print("self-test: planted machine paths are found, a clean tree passes")
    return 0


if __name__ == "__main__":
    sys.exit(tree_check.main(__doc__, scan, self_test, "no machine path in the tree",
                             "paths of a particular machine (write them relative to the repository, or ../shared/...):"))
