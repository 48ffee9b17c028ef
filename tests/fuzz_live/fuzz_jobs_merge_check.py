#!/usr/bin/env python3
"""End-to-end checks of parallel and merged live fuzzing, with the real binaries:

  fuzz_jobs_merge_check.py BINDIR jobs FAULT
      `mcpspec fuzz --jobs 2` against `mcpspec-testserver --fault FAULT` finds the same set of
      findings as `--jobs 1` with the same seed: each once (one file per finding, no key twice),
      every finding recording the seed and the index of the job that found it.
  fuzz_jobs_merge_check.py BINDIR merge
      two runs against one fault (different seeds: overlapping findings) and one against another
      fault, merged: the union of their keys, each once, the runs that found each listed; every
      merged reproducer still replays to FAIL with `mcpspec run`; merging the merge with a run
      adds its sightings; a folder without a report is refused with exit 2, naming the file.
Each fuzz run is bounded by --max-messages and --duration; ctest adds a TIMEOUT."""
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
MCPSPEC = os.path.join(BIN, "mcpspec")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def server(fault):
    return f"{BIN}/mcpspec-testserver --fault {fault}"


def fuzz(fault, out, seed, jobs, extra=()):
    cmd = [MCPSPEC, "fuzz", "--server", server(fault), "--seed", str(seed), "--jobs", str(jobs),
           "--max-messages", "1500", "--duration", "20", "--minimize-ms", "5000", "--timeout-ms", "400",
           "--findings", out, "--quiet", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    print(f"$ mcpspec fuzz --jobs {jobs} --seed {seed} ({fault}): exit {p.returncode}\n{p.stdout}{p.stderr}")
    check(p.returncode == 1, f"fuzz --jobs {jobs} against {fault} exits 1 (findings), got {p.returncode}")
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def keys(report):
    return [f["key"] for f in report["findings"]]


def scenario_files(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith(".json") and n != "report.json")


def check_jobs(fault, tmp):
    one = fuzz(fault, os.path.join(tmp, "one"), 7, 1)
    two = fuzz(fault, os.path.join(tmp, "two"), 7, 2)
    check(len(keys(one)) > 0, f"--jobs 1 finds {fault}")
    check(len(set(keys(two))) == len(keys(two)), f"--jobs 2: no finding twice: {keys(two)}")
    check(set(keys(one)) == set(keys(two)), f"--jobs 2 finds the same set as --jobs 1: {keys(one)} vs {keys(two)}")
    check(len(scenario_files(os.path.join(tmp, "two"))) == len(keys(two)), "--jobs 2: one scenario file per finding")
    check(two["jobs"] == 2 and two["seed"] == 7, "the report records seed and jobs")
    for f in two["findings"]:
        check(f["seed"] == 7 and f["job"] in (0, 1), f"a finding records seed 7 and job 0 or 1: {f.get('seed')}/{f.get('job')}")
        with open(f["reproducer"]) as s:
            text = json.load(s)["description"]
        check(f"seed 7, job {f['job']}" in text, f"the scenario names seed and job: {text[:120]}")


def replay(fault, scenario):
    p = subprocess.run([MCPSPEC, "run", "--server", server(fault), "--timeout-ms", "1000", scenario],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 1, f"{scenario} replays to FAIL against {fault} (exit {p.returncode})\n{p.stdout[-400:]}")


def check_merge(tmp):
    runs = {"a": ("respond-to-notification", 1), "b": ("respond-to-notification", 2), "c": ("wrong-id", 1)}
    reports = {name: fuzz(fault, os.path.join(tmp, name), seed, 1) for name, (fault, seed) in runs.items()}
    out = os.path.join(tmp, "merged")
    p = subprocess.run([MCPSPEC, "fuzz", "merge", *(os.path.join(tmp, n) for n in runs), "--out", out],
                       capture_output=True, text=True, timeout=60)
    print(f"$ mcpspec fuzz merge: exit {p.returncode}\n{p.stdout}{p.stderr}")
    check(p.returncode == 1, f"merge with findings exits 1, got {p.returncode}")
    merged = json.load(open(os.path.join(out, "report.json")))
    union = set().union(*(set(keys(r)) for r in reports.values()))
    check(set(keys(merged)) == union and len(keys(merged)) == len(union),
          f"merge gives the union without duplicates: {keys(merged)} vs {sorted(union)}")
    check(len(scenario_files(out)) == len(union), "one scenario file per merged finding")
    check(len(merged["merged_from"]) == 3, "the merged report lists the three runs")
    overlap = set(keys(reports["a"])) & set(keys(reports["b"]))
    check(len(overlap) > 0, "runs a and b overlap")
    for f in merged["findings"]:
        folders = {os.path.basename(s["folder"]) for s in f["found_in"]}
        if f["key"] in overlap:
            check({"a", "b"} <= folders, f"an overlapping finding lists both runs: {folders}")
        check(f["seen"] >= len(f["found_in"]), "seen counts every sighting")
        fault = runs[sorted(folders)[0]][0]
        replay(fault, f["reproducer"])
    # A merge of a merge and one more run adds that run's sightings.
    again = os.path.join(tmp, "merged2")
    p = subprocess.run([MCPSPEC, "fuzz", "merge", out, os.path.join(tmp, "a"), "--out", again],
                       capture_output=True, text=True, timeout=60)
    m2 = json.load(open(os.path.join(again, "report.json")))
    check(set(keys(m2)) == union and len(m2["merged_from"]) == 4, "merging a merge keeps its runs and findings")
    # A folder that is no run's findings folder: a usage error naming the file.
    os.makedirs(os.path.join(tmp, "empty"))
    p = subprocess.run([MCPSPEC, "fuzz", "merge", os.path.join(tmp, "empty"), "--out", os.path.join(tmp, "m3")],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and "empty/report.json" in p.stderr + p.stdout,
          f"a folder without report.json: exit 2 naming it (got {p.returncode}: {p.stderr.strip()})")


with tempfile.TemporaryDirectory(prefix="mcpspec-fuzz-jobs-") as tmp:
    if sys.argv[2] == "jobs":
        check_jobs(sys.argv[3], tmp)
    elif sys.argv[2] == "merge":
        check_merge(tmp)
    else:
        sys.exit(f"usage: {sys.argv[0]} BINDIR jobs FAULT | merge")
print(f"{len(failures)} failure(s)" if failures else "PASS")
sys.exit(1 if failures else 0)
