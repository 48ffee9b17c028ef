#!/bin/sh
# Messages per second of `mcpspec fuzz`, with the ratio to the 10 000 messages/s target, for a
# fixed message count and seed, against fast C++ stdio servers:
#   testserver, no tool calls   mcpspec-testserver, pipelined (the default window) and --lockstep
#   chant, read-only tools      the bundled chant reference server, its tools really called
#   testserver, all tools       informational: its slow_progress tool sleeps by design, so the
#                               server's own waits bound this rate, not the fuzzer
#   testserver over HTTP        informational: mcpspec-httpserver in front of it (Streamable HTTP,
#                               one POST and connection per message), when it is built
# Usage: bench/fuzz-rate/run.sh [BINDIR] [MESSAGES] [JOBS]
set -eu
bin=${1:-build}
count=${2:-200000}
jobs=${3:-1}
dir=$(mktemp -d /tmp/mcpspec-fuzz-rate-XXXXXX)
trap 'rm -rf "$dir"' EXIT
run() {
  label=$1; server=$2; tools=$3; shift 3
  "$bin/mcpspec" fuzz --server "$server" --seed 1 --max-messages "$count" --duration 600 --jobs "$jobs" \
    --call-tools "$tools" --findings "$dir/$label" --quiet "$@" > "$dir/$label.out" 2>&1 || true
  python3 - "$dir/$label/report.json" "$label" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rate = r["messages_per_s"]
print(f'{sys.argv[2]:32s}: {r["messages_sent"]} messages in {r["elapsed_s"]:.2f} s = {rate:,.0f} msg/s '
      f'({rate / 10000:.2f}x the 10 000 msg/s target); latency p50 {r["latency_us"]["p50"]:.0f} us, '
      f'p99 {r["latency_us"]["p99"]:.0f} us; findings {len(r["findings"])}, restarts {r["restarts"] or "none"}')
PY
}
run testserver-no-tools-pipelined "$bin/mcpspec-testserver" none
run testserver-no-tools-lockstep "$bin/mcpspec-testserver" none --lockstep
run chant-readonly-tools-pipelined "$bin/chant mcp" readonly
run testserver-all-tools-pipelined "$bin/mcpspec-testserver" all
if [ -x "$bin/mcpspec-httpserver" ]; then
  run testserver-http-pipelined "$bin/mcpspec-httpserver --backend '$bin/mcpspec-testserver'" none \
    --transport http --port-env PORT
fi
