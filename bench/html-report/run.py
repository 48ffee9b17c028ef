#!/usr/bin/env python3
"""Size and load time of a 1,000-result HTML report (bench/html-report/README.md).

Makes a JSON report with N results shaped like real ones (each with findings on some, and a wire
log of 12 frames), turns it into the run's HTML page with `mcpspec report merge`, then loads a
copy of the page in headless Chromium with a probe script appended that records, inside the
browser, the time to DOMContentLoaded and the time one filter change takes (verdict=fail). Prints
the size and the medians of REPEAT loads.

  run.py BINDIR [RESULTS] [REPEAT]
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
REPEAT = int(sys.argv[3]) if len(sys.argv) > 3 else 5
VERDICTS = ["pass"] * 6 + ["fail", "warn", "skip", "xfail"]
AREAS = ["lifecycle", "tools", "resources", "prompts", "ping", "pagination", "logging", "completion"]


def result(i):
    v = VERDICTS[i % len(VERDICTS)]
    area = AREAS[i % len(AREAS)]
    frame = json.dumps({"jsonrpc": "2.0", "id": i, "result": {"tools": [{"name": f"tool-{k}", "inputSchema": {"type": "object"}} for k in range(4)]}})
    findings = [] if v in ("pass", "skip") else [{
        "requirements": ["TOOL-17"], "level": "MUST" if v == "fail" else "SHOULD", "message": f"finding of case {i}",
        "step": 2, "expected": json.dumps({"error": {"code": -32602}}, indent=2), "received": frame, "diff": "/error: missing\n/result: present"}]
    return {"id": f"mcp/{area}/case-{i}", "title": f"Case {i}", "file": f"scenarios/mcp/{area}/case-{i}.json", "area": area,
            "protocol": "2025-11-25", "negotiated": "2025-11-25", "role": "server", "transport": "stdio",
            "requirements": [f"{area.upper()}-{i % 30:02d}"], "level": "MUST", "section": "server/tools", "tags": [area],
            "verdict": v, "reason": "capability not declared" if v == "skip" else ("known" if v == "xfail" else ""),
            "duration_ms": 12.5, "findings": findings,
            "wire": [{"t_ms": k * 1.5, "dir": ["out", "in", "stderr"][k % 3], "text": frame if k % 3 != 2 else "log line"} for k in range(12)]}


def main():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("no chromium on PATH (Debian package chromium)")
    work = tempfile.mkdtemp(prefix="mcpspec-bench-html-")
    try:
        results = [result(i) for i in range(N)]
        counts = {v: sum(r["verdict"] == v for r in results) for v in ["pass", "fail", "warn", "skip", "xfail", "xpass", "error"]}
        report = {"format": "mcpspec-report", "version": 1, "mcpspec": "bench",
                  "run": {"target": "bench", "started_at": "", "duration_ms": 1.0, "protocols": ["2025-11-25"], "strict": False, "stale_baseline": []},
                  "summary": {"total": N, **counts, "strict": False, "failed": True, "exit_code": 1}, "results": results}
        src, page = os.path.join(work, "r.json"), os.path.join(work, "r.html")
        json.dump(report, open(src, "w"))
        t0 = time.monotonic()
        subprocess.run([os.path.join(BIN, "mcpspec"), "report", "merge", src, "--html", page], check=True)
        render_s = time.monotonic() - t0
        probe = open(page).read().replace("</body></html>", """<script>
var parsed = performance.now();
window.addEventListener('load', function () { setTimeout(function () {
  var t = performance.now(), f = document.getElementById('f-verdict'), nav = performance.timing;
  f.value = 'fail'; f.dispatchEvent(new Event('change'));
  document.body.setAttribute('data-bench', JSON.stringify({parsed: parsed,
    loaded: nav.domContentLoadedEventEnd - nav.navigationStart, filter: performance.now() - t,
    shown: document.body.getAttribute('data-shown')}));
}, 0); });
</script></body></html>""")
        probed = os.path.join(work, "probe.html")
        open(probed, "w").write(probe)
        loads, filters = [], []
        for _ in range(REPEAT):
            out = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + os.path.join(work, "p"),
                                  "--virtual-time-budget=10000", "--dump-dom", "file://" + probed], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=120).stdout
            m = re.search(r'data-bench="([^"]*)"', out)
            if not m:
                sys.exit("the probe did not run")
            data = json.loads(m.group(1).replace("&quot;", '"'))
            loads.append(data["loaded"])
            filters.append(data["filter"])
        print(f"results: {N}  ({counts['fail']} fail, {counts['warn']} warn, {counts['skip']} skip; 12 wire frames each)")
        print(f"html size: {os.path.getsize(page) / 1024:.0f} KiB (json {os.path.getsize(src) / 1024:.0f} KiB); mcpspec report merge: {render_s * 1000:.0f} ms")
        print(f"load to DOMContentLoaded: median {statistics.median(loads):.0f} ms over {REPEAT} loads (min {min(loads)}, max {max(loads)})")
        print(f"filter verdict=fail: median {statistics.median(filters):.1f} ms (shows {data['shown']} cases)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
