#!/usr/bin/env python3
"""The live fuzzer (`mcpspec fuzz`) against every reference server of scenarios/targets.json,
built with ASan+UBSan: a bounded campaign (a message budget and a time cap per server), not a
test. A finding is any mcpspec fuzz finding or any sanitizer report from any process.

  python3 tests/sanitize/sanitized_suite.py --src . --build build/asan build   # once
  python3 bench/fuzz-reference/campaign.py --mcpspec build/mcpspec --asan build/asan \\
      --messages 1000000 --minutes-per-server 30

Prints one line per server (messages, rate, findings) and the totals; exit 1 on any finding.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile


def restarts_of(report):
    """What ended fuzz sessions ("2 crash, 40 closed 1007 (not UTF-8)"), from the JSON report."""
    try:
        counts = json.loads(report.read_text()).get("restarts", {})
    except (OSError, ValueError):
        return ""
    return ", ".join(f"{n} {cause}" for cause, n in sorted(counts.items()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mcpspec", required=True, help="the mcpspec binary (Release is fine)")
    ap.add_argument("--asan", required=True, help="the sanitized build folder (reference systems)")
    ap.add_argument("--messages", type=int, default=1_000_000, help="total message budget, split evenly")
    ap.add_argument("--minutes-per-server", type=float, default=30, help="time cap of each server's share")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout-ms", type=int, default=10000,
                    help="mcpspec fuzz --timeout-ms: -O0 sanitized servers on a loaded machine answer in seconds, "
                         "and the fuzzer's 2000 ms default then reports hangs that do not reproduce")
    ap.add_argument("--targets", help="only these servers of targets.json (names, comma-separated)")
    args = ap.parse_args()
    src = pathlib.Path(__file__).resolve().parents[2]
    bindir = str(pathlib.Path(args.asan).resolve())
    targets = [t for t in json.loads((src / "scenarios/targets.json").read_text())["targets"] if "server" in t
               and "client" not in t]
    if args.targets:
        wanted = args.targets.split(",")
        unknown = sorted(set(wanted) - {t["name"] for t in targets})
        if unknown:
            ap.error(f"--targets: no server named {', '.join(unknown)} in scenarios/targets.json")
        targets = [t for t in targets if t["name"] in wanted]
    work = pathlib.Path(tempfile.mkdtemp(prefix="fuzz-reference-"))
    reports = work / "sanitizer-reports"
    reports.mkdir()
    env = dict(os.environ)
    for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        env[var] = f"log_path={reports}/report:halt_on_error=1"
    share = max(1, args.messages // len(targets))
    total_messages, total_findings = 0, 0
    for t in targets:
        report = work / t["name"] / "report.json"  # mcpspec fuzz writes it beside the findings
        cmd = [str(pathlib.Path(args.mcpspec).resolve()), "fuzz", "--server", t["server"].replace("${bindir}", bindir).replace("${home}", str(src)),
               "--max-messages", str(share), "--duration", str(args.minutes_per_server * 60),
               "--seed", str(args.seed), "--timeout-ms", str(args.timeout_ms), "--findings", str(work / t["name"])]
        if t.get("transport"):
            cmd += ["--transport", t["transport"]]
        if t.get("url"):
            cmd += ["--url", t["url"]]
        if t.get("port_env"):
            cmd += ["--port-env", t["port_env"]]
        before = set(reports.iterdir())
        run = subprocess.run(cmd, cwd=src, env=env, capture_output=True, text=True,
                             timeout=args.minutes_per_server * 60 + 300)
        summary = re.search(r"mcpspec fuzz: (\d+) messages in ([\d.]+) s \((\d+) messages/s\)", run.stdout + run.stderr)
        found = re.search(r"(\d+) finding\(s\)", run.stdout.split("mcpspec fuzz:")[-1])
        messages = int(summary.group(1)) if summary else 0
        findings = int(found.group(1)) if found else 0
        new_reports = sorted(set(reports.iterdir()) - before)
        findings += len(new_reports)
        total_messages += messages
        total_findings += findings
        rate = summary.group(3) if summary else "?"
        restarts = restarts_of(report)
        print(f"{t['name']}: {messages} messages ({rate}/s), {findings} finding(s), exit {run.returncode}"
              + (f", restarts: {restarts}" if restarts else "")
              + (f", sanitizer reports: {[p.name for p in new_reports]}" if new_reports else ""), flush=True)
        if not summary:
            print((run.stdout + run.stderr)[-2000:])
            total_findings += 1
    print(f"total: {total_messages} messages against {len(targets)} servers, {total_findings} finding(s); "
          f"evidence in {work}")
    if total_findings == 0:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if total_findings else 0


if __name__ == "__main__":
    sys.exit(main())
