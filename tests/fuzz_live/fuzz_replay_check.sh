#!/bin/sh
# End-to-end check of `mcpspec fuzz` as a user runs it:
#   fuzz_replay_check.sh BINDIR FAULT ORACLE   the fuzzer must report ORACLE against
#                                              `mcpspec-testserver --fault FAULT`, and
#                                              `mcpspec run` must replay each saved finding to a FAIL
#   fuzz_replay_check.sh BINDIR --correct      the correct server: exit 0, no finding file
# With MCPSPEC_E2E_HTTP=1 the test server sits behind mcpspec-httpserver (Streamable HTTP, many
# requests in flight on their own connections): fuzzing and replays go over HTTP.
set -u
bin=$1
fault=$2
oracle=${3:-}
dir=$(mktemp -d /tmp/mcpspec-fuzz-e2e-XXXXXX)
trap 'rm -rf "$dir"' EXIT
server="$bin/mcpspec-testserver"
[ "$fault" = "--correct" ] || server="$server --fault $fault"
timeout_ms=400
if [ "${MCPSPEC_E2E_HTTP:-0}" = 1 ]; then
  server="$bin/mcpspec-httpserver --backend '$server'"
  set -- --transport http --port-env PORT
  timeout_ms=2000  # a POST is a connection of its own: slower than a pipe
else
  set --
fi

"$bin/mcpspec" fuzz --server "$server" "$@" --seed 1 --max-messages 3000 --duration 30 --minimize-ms 8000 \
  --timeout-ms $timeout_ms --findings "$dir" --quiet > "$dir/fuzz.out" 2>&1
code=$?
cat "$dir/fuzz.out"
if [ "$fault" = "--correct" ]; then
  [ $code -eq 0 ] || { echo "FAIL: the correct server gave exit $code"; exit 1; }
  ls "$dir"/*-*.json > /dev/null 2>&1 && { echo "FAIL: finding files for the correct server"; exit 1; }
  grep -q '"findings": \[\]' "$dir/report.json" || { echo "FAIL: report.json lists findings"; exit 1; }
  echo "PASS: no finding against the correct server"
  exit 0
fi
[ $code -eq 1 ] || { echo "FAIL: mcpspec fuzz exited $code, expected 1 (findings)"; exit 1; }
files=$(ls "$dir/$oracle"-*.json 2>/dev/null)
[ -n "$files" ] || { echo "FAIL: no $oracle finding saved"; exit 1; }
# The fuzzer replayed every reproducer it saved while minimizing it ("replay: fail" above); here a
# user's `mcpspec run` replays three of them, which is the same code path for each (a fault that
# leaves 19 findings would otherwise spend 20 s replaying them in the test command).
saved=$(grep -c "reproducer: " "$dir/fuzz.out")
replayed=$(grep -c "reproducer: .*replay: fail)" "$dir/fuzz.out")
[ "$saved" -eq "$replayed" ] || { echo "FAIL: $saved reproducers saved, only $replayed replayed to fail by the fuzzer"; exit 1; }
files=$(echo "$files" | head -n 3)
for f in $files; do
  "$bin/mcpspec" run --server "$server" "$@" --timeout-ms 1000 "$f" > "$dir/replay.out" 2>&1
  rc=$?
  cat "$dir/replay.out"
  [ $rc -eq 1 ] || { echo "FAIL: replaying $f gave exit $rc, expected 1 (FAIL)"; exit 1; }
  grep -q "fuzz/$oracle/" "$dir/replay.out" || { echo "FAIL: the replay does not name fuzz/$oracle"; exit 1; }
done
echo "PASS: $fault found as $oracle and replayed to FAIL"
