#!/usr/bin/env bash
# The GitHub Action's run step (also usable from any CI): turns the INPUT_* variables into one
# `mcpspec run`, writes the reports into $INPUT_REPORTS_DIR, appends the Markdown report to
# $GITHUB_STEP_SUMMARY, sets the outputs exit-code and reports-dir in $GITHUB_OUTPUT, and exits
# with mcpspec's exit code. Inputs are passed as separate arguments, never through eval.
set -uo pipefail
mcpspec=${MCPSPEC:-mcpspec}
dir=${INPUT_REPORTS_DIR:-mcpspec-reports}
mkdir -p "$dir" || { echo "mcpspec action: cannot create the reports folder '$dir'" >&2; exit 2; }

args=(run)
[ -n "${INPUT_SERVER:-}" ] && args+=(--server "$INPUT_SERVER")
[ -n "${INPUT_URL:-}" ] && args+=(--url "$INPUT_URL")
[ -n "${INPUT_CLIENT:-}" ] && args+=(--client "$INPUT_CLIENT")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_NAME:-}" ] && args+=(--name "$INPUT_NAME")
[ -n "${INPUT_TRANSPORT:-}" ] && args+=(--transport "$INPUT_TRANSPORT")
[ -n "${INPUT_PROTOCOL:-}" ] && args+=(--protocol "$INPUT_PROTOCOL")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
case "${INPUT_STRICT:-false}" in
  true) args+=(--strict) ;;
  false | "") ;;
  *) echo "mcpspec action: strict must be true or false, not '${INPUT_STRICT}'" >&2; exit 2 ;;
esac
read -r -a words <<< "${INPUT_FILTER:-}"
for f in "${words[@]}"; do args+=(--filter "$f"); done
read -r -a words <<< "${INPUT_SCENARIOS:-}"
args+=("${words[@]}")
read -r -a words <<< "${INPUT_ARGS:-}"
args+=("${words[@]}")
args+=(--report "json:$dir/mcpspec.json" --report "junit:$dir/mcpspec.xml" --report "md:$dir/mcpspec.md"
       --report "html:$dir/mcpspec.html")

echo "mcpspec ${args[*]}"
"$mcpspec" "${args[@]}"
code=$?

# Several servers (a config file without a name) give one report per server: mcpspec.<name>.json.
shopt -s nullglob
jsons=("$dir"/mcpspec*.json)
mds=("$dir"/mcpspec*.md)
if [ ${#jsons[@]} -gt 1 ]; then
  "$mcpspec" report merge "${jsons[@]}" --html "$dir/matrix.html" || code=2
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  for md in "${mds[@]}"; do cat "$md" >> "$GITHUB_STEP_SUMMARY"; echo >> "$GITHUB_STEP_SUMMARY"; done
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "exit-code=$code"; echo "reports-dir=$dir"; } >> "$GITHUB_OUTPUT"
fi
case $code in
  0) echo "mcpspec: passed (exit 0); reports in $dir" ;;
  1) echo "::error title=mcpspec::conformance failures (exit 1); see the job summary and $dir/mcpspec.html" ;;
  *) echo "::error title=mcpspec::mcpspec could not run (exit $code); see the message above" ;;
esac
exit "$code"
