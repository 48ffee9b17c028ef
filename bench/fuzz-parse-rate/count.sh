#!/bin/sh
# Instructions per input of message_parser's work against a bare nlohmann parse of the same
# inputs, counted by callgrind (repeatable, unlike exec/s on a shared machine): what each side's
# own code costs, without the sanitizers' and libFuzzer's costs on top.
# BUILD is a build without libFuzzer (message_parser_regress and bare_json_parse_regress, e.g. the
# Release build); CORPUS a folder of message_parser inputs (selector byte first), such as the
# final corpus of a run.sh run. The bare parse gets each input without its selector byte.
# Usage: bench/fuzz-parse-rate/count.sh BUILD CORPUS
set -eu
build=$1
corpus=$2
mp=$build/fuzz/message_parser_regress
bare=$build/bench/fuzz-parse-rate/bare_json_parse_regress
for b in "$mp" "$bare"; do
  [ -x "$b" ] || { echo "error: $b is not built (ninja -C $build message_parser_regress bare_json_parse_regress)" >&2; exit 2; }
done
command -v valgrind > /dev/null || { echo "error: valgrind is not installed" >&2; exit 2; }
work=$(mktemp -d /tmp/mcpspec-parse-count-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/plain"
n=0
for f in "$corpus"/*; do
  [ -f "$f" ] || continue
  tail -c +2 "$f" > "$work/plain/$(basename "$f")"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "error: no inputs in $corpus" >&2; exit 2; }

# count NAME BINARY DIR: callgrind over the fuzz entry point only, into $work/NAME.out.
count() {
  MCPSPEC_REGRESS_NO_BUDGET=1 valgrind --tool=callgrind --toggle-collect=LLVMFuzzerTestOneInput \
    --callgrind-out-file="$work/$1.out" "$2" "$3" > "$work/$1.log" 2>&1 ||
    { echo "error: $2 failed under valgrind:" >&2; tail -5 "$work/$1.log" >&2; exit 1; }
}
# One input of a few bytes, run alone, costs what loading the built-in schema registry (inside the
# first input) costs: each count below is the corpus run's minus this run's.
mkdir -p "$work/one" "$work/one-plain"
printf '0{"jsonrpc":"2.0","id":1,"result":{}}\n' > "$work/one/a"
tail -c +2 "$work/one/a" > "$work/one-plain/a"
count mp "$mp" "$corpus"
count mp-one "$mp" "$work/one"
count bare "$bare" "$work/plain"
count bare-one "$bare" "$work/one-plain"

python3 - "$work" "$n" <<'PY'
import re, subprocess, sys
work, n = sys.argv[1], int(sys.argv[2])
def inclusive(name):
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f"{work}/{name}.out"],
                         capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(\?\?\?|\S+?\.\w+):(.*?)(?: \[[^\]]*\])?$", line)
        if m:
            rows.setdefault(m.group(3), int(m.group(1).replace(",", "")))
    return rows
def cost(rows, *parts):  # all the functions (instantiations) whose names hold every part
    return sum(c for k, c in rows.items() if all(p in k for p in parts))
def net(name, *parts):
    return cost(inclusive(name), *parts) - cost(inclusive(name + "-one"), *parts)
entry = ("LLVMFuzzerTestOneInput",)
target, bare = net("mp", *entry), net("bare", *entry)
parts = [  # functions that do not call one another, so the shares add up
    ("framing: LineFramer::feed, 4 framings", ("LineFramer::feed(",)),
    ("JSON parsing: frames and the round trip", ("detail::parser<", "::sax_parse_internal<")),
    ("dump (the round trip's text)", ("basic_json<", ">::dump(int")),
    ("classify", ("protocol::classify(",)),
    ("schema validation: SchemaRegistry::validate", ("SchemaRegistry::validate(",)),
]
print(f"{n} inputs; instructions per input (callgrind; the schema registry's load taken out):")
print(f"  bare nlohmann parse   {bare / n:12,.0f}")
print(f"  message_parser        {target / n:12,.0f}   {target / bare if bare else 0:.1f}x the bare parse "
      f"(instruction ratio {bare / target if target else 0:.3f}x)")
rest = target
for label, key in parts:
    c = net("mp", *key)
    rest -= c
    print(f"    {label:46} {c / n:12,.0f}   {c / target if target else 0:4.0%}")
print(f"    {'the rest: documents built and freed, dump, checks':46} {rest / n:12,.0f}   {rest / target if target else 0:4.0%}")
PY
