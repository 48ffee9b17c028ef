#!/bin/sh
# The harness's cost per message against a bare JSON parse (README.md).
#   sh bench/message-overhead/run.sh BUILD_DIR [REPORT.json]
# Without a report, records one first: the tools, resources, prompts and ping scenarios against
# server-everything over stdio (its real answers are the messages measured).
set -eu
build=${1:?usage: run.sh BUILD_DIR [REPORT.json]}
src=$(cd "$(dirname "$0")/../.." && pwd)
report=${2:-}
if [ -z "$report" ]; then
  report=$(mktemp /tmp/mcpspec-message-overhead-XXXXXX.json)
  node="$src/tests/node_modules/node/bin/node"
  [ -x "$node" ] || node=node
  "$build/mcpspec" run -q -j 8 --server "$node $src/tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio" \
    --report "json:$report" "$src/scenarios/mcp/tools" "$src/scenarios/mcp/resources" "$src/scenarios/mcp/prompts" \
    "$src/scenarios/mcp/ping" "$src/scenarios/mcp/pagination" >/dev/null || true
fi
# One core, as the target says: the harness itself runs a scenario on one thread.
taskset -c 0 "$build/bench/message-overhead/mcpspec-bench-message-overhead" "$report" --rounds 20
# The same comparison in instructions (callgrind): repeatable on a busy machine, where seconds are not.
if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
  out=$(mktemp /tmp/mcpspec-message-overhead-XXXXXX.callgrind)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$build/bench/message-overhead/mcpspec-bench-message-overhead" "$report" \
    --rounds 2 --steps 500 >/dev/null 2>&1
  callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk '
    /harness_round\(/ { gsub(",", "", $1); h = $1 }
    /bare_parse_round\(/ { gsub(",", "", $1); b = $1 }
    END { if (h && b) printf "instructions per message (callgrind, 1000 messages): harness %.0f, bare parse %.0f, ratio %.2f\n", h / 1000, b / 1000, h / b }'
  rm -f "$out"
fi
