#!/usr/bin/env python3
"""Runs the shell blocks that a Markdown page marks as runnable, against a build.

A runnable block is a fenced code block whose info string is `sh test` (docs/README.md, "Commands
in these pages are tested"):

    ```sh test
    build/mcpspec run --server 'build/clariad' scenarios/mcp/ping
    ```

`sh test exit=N` says the block is expected to end with exit status N (a run that shows a FAIL
ends with 1). Each block runs as one `bash -e` script in a scratch folder that looks like the
repository root: every top-level entry of the source tree is linked there, and `build` links to
the build folder under test, so `build/mcpspec`, `scenarios/...` and `docs/...` mean what they
mean for a reader at the repository root, and files a command writes land in the scratch folder.
A renamed option, a moved file or a changed exit status makes the block fail.

  doc_commands.py SOURCEDIR BUILDDIR PAGE...       run the marked blocks of each page
  doc_commands.py --self-test                      prove that a failing block is caught
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
MARK = re.compile(r"^sh\s+test(?:\s+exit=(\d+))?\s*$")
BLOCK_TIMEOUT_S = 60


def marked_blocks(text):
    """(line number, expected status, script) of every block whose info string is `sh test`."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m.group(2), m.group(3).strip(), i
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1
        mark = MARK.match(info)
        if mark:
            blocks.append((start + 1, int(mark.group(1) or 0), "\n".join(body) + "\n"))
        elif info.startswith("sh test"):
            raise SystemExit(f"line {start + 1}: malformed marker '{info}' (expected 'sh test' or 'sh test exit=N')")
    return blocks


def scratch_root(src, build):
    """A folder that looks like the repository root, with `build` pointing at the build under test."""
    root = tempfile.mkdtemp(prefix="mcpspec-doc-commands-")
    src = os.path.abspath(src)
    for name in os.listdir(src):
        if name == ".git" or name.startswith("build"):
            continue
        os.symlink(os.path.join(src, name), os.path.join(root, name))
    os.symlink(os.path.abspath(build), os.path.join(root, "build"))
    return root


def run_block(root, script, env):
    """(exit status, output) of one block; None as the status when it overran (its whole process
    group is killed, so no server it started outlives the test)."""
    p = subprocess.Popen(["bash", "-e", "-c", script], cwd=root, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=BLOCK_TIMEOUT_S)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, (out or "") + f"\n[timed out after {BLOCK_TIMEOUT_S} s]"


def run_pages(src, build, pages):
    root = scratch_root(src, build)
    env = dict(os.environ, NO_COLOR="1", MCPSPEC_HOME=os.path.abspath(src))
    failures, count = [], 0
    try:
        for page in pages:
            rel = os.path.relpath(page, src)
            with open(page, encoding="utf-8") as f:
                blocks = marked_blocks(f.read())
            if not blocks:
                failures.append(f"{rel}: no block marked `sh test` (the test was registered for this page)")
            for line, expected, script in blocks:
                count += 1
                status, out = run_block(root, script, env)
                first = script.strip().splitlines()[0]
                if status != expected:
                    tail = "\n".join(out.splitlines()[-25:])
                    failures.append(f"{rel}:{line}: exit status {status}, expected {expected}: {first}\n{tail}")
                    print(f"FAIL {rel}:{line} ({status}, expected {expected}) {first}")
                else:
                    print(f"ok   {rel}:{line} ({status}) {first}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return count, failures


def self_test():
    """A page with a passing block, a block with the wrong status and a missing file: two caught."""
    with tempfile.TemporaryDirectory() as src, tempfile.TemporaryDirectory() as build:
        page = os.path.join(src, "page.md")
        with open(page, "w") as f:
            f.write("```sh test\ntrue\n```\n\n```sh test exit=1\ntrue\n```\n\n```sh\nfalse  # not marked\n```\n"
                    "\n```sh test\ncat docs/moved-away.md\n```\n")
        count, failures = run_pages(src, build, [page])
        if count != 3 or len(failures) != 2 or ":5:" not in failures[0] or ":13:" not in failures[1]:
            print(f"self-test: expected 3 blocks run and the blocks at lines 5 and 13 caught, got {count}: {failures}")
            return 1
    print("self-test: a wrong exit status and a missing file are caught; unmarked blocks are not run")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    src, build, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    count, failures = run_pages(src, build, pages)
    if failures:
        print("\n\n".join(failures))
        return 1
    print(f"{count} marked block(s) ran as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
