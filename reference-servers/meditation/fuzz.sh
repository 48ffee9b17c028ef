#!/bin/sh
# Live protocol fuzzing of meditation-mcp (not part of ctest: it runs for minutes).
#
#   reference-servers/meditation/fuzz.sh BUILD [SECONDS] [FINDINGS_DIR]
#
# BUILD holds mcpspec and meditation-mcp. The server serves a scratch copy of the meditation
# suite's sample notes, so sync_repository (called with --call-tools all) re-scans a folder the
# run owns. Every tool may be called, so search_notes gets generated queries and limits too.
# Exit status: mcpspec's (0: no findings). Findings are minimized scenarios in FINDINGS_DIR.
set -eu
build=${1:?usage: fuzz.sh BUILD [SECONDS] [FINDINGS_DIR]}
seconds=${2:-120}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
findings=${3:-$(mktemp -d "${TMPDIR:-/tmp}/meditation-fuzz-XXXXXX")}
notes=$(mktemp -d "${TMPDIR:-/tmp}/meditation-fuzz-notes-XXXXXX")
trap 'rm -rf "$notes"' EXIT
cp -R "$repo/scenarios/meditation/fixtures/library/notes/." "$notes/"
for exe in "$build/mcpspec" "$build/meditation-mcp"; do
  [ -x "$exe" ] || { echo "fuzz.sh: $exe is not an executable file" >&2; exit 2; }
done
echo "fuzz.sh: $seconds s against meditation-mcp on $notes; findings in $findings"
MCPSPEC_HOME="$repo" "$build/mcpspec" fuzz \
  --server "'$build/meditation-mcp' --notes '$notes'" \
  --duration "$seconds" --jobs 2 --call-tools all --protocol 2024-11-05 \
  --scenarios "$repo/scenarios/mcp" "$repo/scenarios/meditation" \
  --findings "$findings"
