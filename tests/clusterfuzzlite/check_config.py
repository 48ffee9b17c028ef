#!/usr/bin/env python3
"""Checks the ClusterFuzzLite setup without Docker or a build (ctest clusterfuzzlite/config):

- .clusterfuzzlite/project.yaml says C++; the Dockerfile starts from OSS-Fuzz's base builder,
  copies the checkout to $SRC/mcpspec and build.sh to $SRC; build.sh runs fuzz/build.sh;
- .github/workflows/cflite_pr.yml fuzzes pull requests (mode code-change) and cflite_batch.yml
  runs on a schedule (mode batch), both through ClusterFuzzLite's build and run actions;
- every path a workflow names exists: its `paths:` filters and the corpus, regression and
  dictionary paths its comments point to, for every target of fuzz/targets/ where it says
  <target>; and every target has a seed corpus there.

  check_config.py REPO            check REPO
  check_config.py --self-test     the checks fail on broken copies (a missing corpus, a wrong mode)
"""
import glob
import os
import re
import shutil
import sys
import tempfile

import yaml


def problems_of(repo):
    out = []

    def need(cond, what):
        if not cond:
            out.append(what)

    def read(rel):
        path = os.path.join(repo, rel)
        if not os.path.isfile(path):
            out.append(f"{rel}: missing")
            return ""
        with open(path, encoding="utf-8") as f:
            return f.read()

    targets = sorted(os.path.basename(p)[: -len("_fuzz.cpp")] for p in glob.glob(os.path.join(repo, "fuzz/targets/*_fuzz.cpp")))
    need(targets, "fuzz/targets/: no *_fuzz.cpp target")
    for t in targets:
        corpus = os.path.join(repo, "fuzz/corpus", t)
        need(os.path.isdir(corpus) and os.listdir(corpus), f"fuzz/corpus/{t}/: no seed corpus for target {t}")

    project = yaml.safe_load(read(".clusterfuzzlite/project.yaml") or "{}") or {}
    need(project.get("language") == "c++", f".clusterfuzzlite/project.yaml: language is {project.get('language')!r}, not c++")
    docker = read(".clusterfuzzlite/Dockerfile")
    need(re.search(r"^FROM gcr\.io/oss-fuzz-base/base-builder(:\S+)?\s*$", docker, re.M),
         ".clusterfuzzlite/Dockerfile: does not start from gcr.io/oss-fuzz-base/base-builder")
    need(re.search(r"^COPY \. \$SRC/mcpspec\s*$", docker, re.M), ".clusterfuzzlite/Dockerfile: does not copy the checkout to $SRC/mcpspec")
    need(re.search(r"^WORKDIR \$SRC/mcpspec\s*$", docker, re.M), ".clusterfuzzlite/Dockerfile: WORKDIR is not $SRC/mcpspec")
    need(re.search(r"^COPY \.clusterfuzzlite/build\.sh \$SRC/\s*$", docker, re.M), ".clusterfuzzlite/Dockerfile: does not copy build.sh to $SRC/")
    build = read(".clusterfuzzlite/build.sh")
    need("$SRC/mcpspec/fuzz/build.sh" in build, ".clusterfuzzlite/build.sh: does not run fuzz/build.sh")
    need(os.access(os.path.join(repo, "fuzz/build.sh"), os.X_OK), "fuzz/build.sh: missing or not executable")

    for rel, mode, trigger in ((".github/workflows/cflite_pr.yml", "code-change", "pull_request"),
                               (".github/workflows/cflite_batch.yml", "batch", "schedule")):
        text = read(rel)
        if not text:
            continue
        doc = yaml.safe_load(text)
        on = doc.get("on", doc.get(True)) or {}  # YAML 1.1 reads a bare `on` key as true
        need(trigger in on, f"{rel}: not run on {trigger}")
        steps = [s for job in (doc.get("jobs") or {}).values() for s in job.get("steps", [])]
        uses = [s.get("uses", "") for s in steps]
        need(any(u.startswith("google/clusterfuzzlite/actions/build_fuzzers@") for u in uses), f"{rel}: no build_fuzzers step")
        runs = [s for s in steps if s.get("uses", "").startswith("google/clusterfuzzlite/actions/run_fuzzers@")]
        need(runs and all(s.get("with", {}).get("mode") == mode for s in runs), f"{rel}: run_fuzzers is not in mode {mode}")
        need(all(s.get("with", {}).get("language", "c++") == "c++" for s in steps if "with" in s), f"{rel}: a step's language is not c++")
        filters = (on.get("pull_request") or {}).get("paths", []) if isinstance(on.get("pull_request"), dict) else []
        for p in filters:
            base = p.split("*")[0].rstrip("/")
            need(base and os.path.exists(os.path.join(repo, base)), f"{rel}: paths filter {p!r} names nothing that exists")
        # Paths the comments point to (corpus, regressions, dictionary, build files).
        for p in sorted(set(re.findall(r"(?:fuzz|\.clusterfuzzlite)/[A-Za-z0-9_./<>-]*[A-Za-z0-9_>/]", text))):
            for t in targets if "<target>" in p else [None]:
                path = p.replace("<target>", t) if t else p
                if path.endswith(".dict") or "/corpus/" in path or path.startswith(".clusterfuzzlite"):
                    need(os.path.exists(os.path.join(repo, path)), f"{rel}: names {path}, which does not exist")
                elif "/regressions/" in path:
                    need(os.path.isdir(os.path.join(repo, "fuzz/regressions")), f"{rel}: names {path}: no fuzz/regressions/")
                else:
                    need(os.path.exists(os.path.join(repo, path.split("*")[0])), f"{rel}: names {path}, which does not exist")
    return out


def self_test(repo):
    """Each kind of breakage must be reported: a check that cannot fail proves nothing."""
    failures = 0
    breakages = {
        "a target without a seed corpus": lambda r: os.unlink(os.path.join(r, "fuzz/corpus/sse_parser")),
        "a wrong run mode": lambda r: sub(r, ".github/workflows/cflite_batch.yml", "mode: batch", "mode: code-change"),
        "a paths filter naming nothing": lambda r: sub(r, ".github/workflows/cflite_pr.yml", "'fuzz/**'", "'fuzzz/**'"),
        "a missing dictionary": lambda r: os.unlink(os.path.join(r, "fuzz/mcp.dict")),
        "build.sh not running fuzz/build.sh": lambda r: sub(r, ".clusterfuzzlite/build.sh", "fuzz/build.sh", "fuzz/other.sh"),
    }
    for what, breaker in breakages.items():
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "repo")
            # Copies of what the breakers change; links to what is only read (the corpora hold
            # thousands of files).
            for rel in (".clusterfuzzlite", ".github"):
                shutil.copytree(os.path.join(repo, rel), os.path.join(copy, rel), symlinks=True)
            os.makedirs(os.path.join(copy, "fuzz", "corpus"))
            for name in os.listdir(os.path.join(repo, "fuzz")):
                if name != "corpus":
                    os.symlink(os.path.join(repo, "fuzz", name), os.path.join(copy, "fuzz", name))
            for name in os.listdir(os.path.join(repo, "fuzz", "corpus")):
                os.symlink(os.path.join(repo, "fuzz", "corpus", name), os.path.join(copy, "fuzz", "corpus", name))
            os.symlink(os.path.join(repo, "harness"), os.path.join(copy, "harness"))
            if problems_of(copy):
                print(f"FAIL: the unbroken copy already has problems: {problems_of(copy)}")
                return 1
            breaker(copy)
            found = problems_of(copy)
            print(f"{what}: {'caught: ' + found[0] if found else 'NOT caught'}")
            failures += not found
    return failures


def sub(repo, rel, old, new):
    path = os.path.join(repo, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert old in text, f"{rel} has no {old!r} to break"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))


if __name__ == "__main__":
    here_repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(1 if self_test(here_repo) else 0)
    repo = sys.argv[1] if len(sys.argv) > 1 else here_repo
    found = problems_of(repo)
    for p in found:
        print("FAIL: " + p)
    print(f"{len(found)} problem(s)" if found else "PASS: ClusterFuzzLite files and the paths they name are in place")
    sys.exit(1 if found else 0)
