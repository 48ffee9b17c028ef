#!/bin/sh
# Messages per second of `mcpspec fuzz --jobs 2` against `--jobs 1`, against the bundled chant
# reference server (read-only tools really called), for SECONDS each, same seed; prints both
# rates, the ratio (the issue's target is >= 1.6x on 2 cores), and the findings (expected: none).
# Each job runs its own chant process: on 2 cores the two jobs and their servers share them.
# Usage: bench/fuzz-jobs/run.sh [BINDIR] [SECONDS] [ROUNDS]
set -eu
bin=${1:-build}
secs=${2:-10}
rounds=${3:-1}
dir=$(mktemp -d /tmp/mcpspec-fuzz-jobs-XXXXXX)
trap 'rm -rf "$dir"' EXIT
run() {  # run LABEL JOBS: prints messages/s
  "$bin/mcpspec" fuzz --server "$bin/chant mcp" --seed 1 --duration "$secs" --jobs "$2" --call-tools readonly \
    --findings "$dir/$1" --quiet > "$dir/$1.out" 2>&1 || true
  python3 - "$dir/$1/report.json" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f'{r["messages_per_s"]:.0f}', file=sys.stdout)
print(f'{sys.argv[2]}: {r["messages_sent"]} messages in {r["elapsed_s"]:.1f} s = {r["messages_per_s"]:,.0f} msg/s, '
      f'findings {len(r["findings"])}, restarts {r["restarts"] or "none"}', file=sys.stderr)
PY
}
i=1
while [ "$i" -le "$rounds" ]; do
  one=$(run "jobs1-$i" 1)
  two=$(run "jobs2-$i" 2)
  python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f'round {sys.argv[3]}: --jobs 1 {a:,.0f} msg/s, --jobs 2 {b:,.0f} msg/s: {b / a if a else 0:.2f}x')" "$one" "$two" "$i"
  i=$((i + 1))
done
