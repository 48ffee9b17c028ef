#!/bin/sh
# Messages per second of `mcpspec fuzz` against mcpspec-testserver for a fixed message count,
# pipelined (the default window) and in lock-step (--lockstep), with the ratio to the 10 000
# messages/s target. Usage: bench/fuzz-rate/run.sh [BINDIR] [MESSAGES] [JOBS]
set -eu
bin=${1:-build}
count=${2:-200000}
jobs=${3:-1}
dir=$(mktemp -d /tmp/mcpspec-fuzz-rate-XXXXXX)
trap 'rm -rf "$dir"' EXIT
server="$bin/mcpspec-testserver"
for mode in pipelined lockstep; do
  flag=""
  [ "$mode" = lockstep ] && flag="--lockstep"
  "$bin/mcpspec" fuzz --server "$server" --seed 1 --max-messages "$count" --duration 600 --jobs "$jobs" \
    --call-tools all --findings "$dir/$mode" --quiet $flag > "$dir/$mode.out" 2>&1 || true
  python3 - "$dir/$mode/report.json" "$mode" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rate = r["messages_per_s"]
print(f'{sys.argv[2]:9s}: {r["messages_sent"]} messages in {r["elapsed_s"]:.2f} s = {rate:,.0f} msg/s '
      f'({rate / 10000:.2f}x the 10 000 msg/s target); latency p50 {r["latency_us"]["p50"]:.0f} us, '
      f'p99 {r["latency_us"]["p99"]:.0f} us; findings {len(r["findings"])}, restarts {r["restarts"] or "none"}')
PY
done
