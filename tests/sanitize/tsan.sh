#!/bin/sh
# ThreadSanitizer over mcpspec's threaded parts: the suite runner and its throttle (-j), the
# server ends mcpspec plays for a client under test (Streamable HTTP, legacy HTTP+SSE, WebSocket),
# the stdio and HTTP proxies and the live fuzzer's sessions. Not in ctest: a cold TSan build of the
# harness does not fit CI's budget (docs/ci.md, "ThreadSanitizer"); run it by hand or nightly.
#
#   tests/sanitize/tsan.sh [SOURCE_DIR [BUILD_DIR]]     default: . and SOURCE_DIR/build-tsan
#
# Builds the harness and its test programs (not the reference systems) with -DMCPSPEC_TSAN=ON:
# the threaded layers (transport, run, fuzz, proxy) are compiled with -fsanitize=thread, the rest
# as in Release (a folder beside `build`, at the same depth, gets those objects from ccache: ccache
# hashes paths relative to the build folder). Races inside the uninstrumented layers go unseen.
# Then it runs the Catch2 tests of those parts and the end-to-end tests that drive them through the real
# binary, and fails when any process wrote a ThreadSanitizer report (each to its own file in
# BUILD_DIR/tsan-reports: a report in a child process would not change any exit code).
set -eu
src=$(cd "${1:-.}" && pwd)
build=${2:-$src/build-tsan}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work} CCACHE_NOHASHDIR=1
reports=$build/tsan-reports

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPSPEC_TSAN=ON -DMCPSPEC_REFERENCE=OFF >/dev/null
ninja -C "$build" -j "${JOBS:-2}" mcpspec mcpspec_tests mcpspec-testserver mcpspec-testclient \
  mcpspec-client-fault-check mcpspec-httpserver

rm -rf "$reports"
mkdir -p "$reports"
# halt_on_error=0: one run shows every race; exitcode=0: the report files are the verdict.
export TSAN_OPTIONS="log_path=$reports/report halt_on_error=0 exitcode=0 second_deadlock_stack=1"

status=0
# The Catch2 tests of the threaded parts (tags of tests/core, tests/clients, tests/http,
# tests/fuzz_live); [fuzz_live] runs live fuzz campaigns with their sessions and jobs.
"$build/mcpspec_tests" "[suite],[throttle],[client],[stdio],[transport],[http],[ws],[sse],[fuzz_live],[proxy]" || status=1
# The same parts end to end, through the TSan-built mcpspec: the proxies, the server ends (also
# under attack) and parallel scenarios.
ctest --test-dir "$build" -j "${JOBS:-2}" --output-on-failure \
  -R '^(proxy/(server-correct|reaped|bytes|http/.*)|hostile/(ends|proxy)/.*|http/client/(correct|sse-correct)|http/correct/(websocket|legacy-sse|generic)|e2e/client/correct|e2e/fuzz/jobs-dedupe-wrong-id)$' || status=1

found=$(find "$reports" -type f | wc -l)
echo "tsan.sh: $found ThreadSanitizer report file(s) in $reports"
if [ "$found" -ne 0 ]; then
  grep -h "SUMMARY: ThreadSanitizer" "$reports"/* | sort | uniq -c | sort -rn
  status=1
fi
exit $status
