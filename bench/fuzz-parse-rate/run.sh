#!/bin/sh
# message_parser_fuzz's speed and coverage, side by side with
#   bare_json_parse_fuzz           a bare nlohmann parse, same instrumentation (exec/s ratio; the
#                                  issue's target is >= 0.25x)
#   message_parser_baseline_fuzz   the target at an earlier revision (configure the fuzz build with
#                                  -DMCPSPEC_FUZZ_BASELINE=<rev>; skipped when not built)
# Each runs SECONDS from the same seeds (the committed corpus and gen_corpus.py's seeds; the
# baseline and the bare parse get them without the selector byte, which they do not read), one at
# a time, -jobs 1. Coverage is compared in one binary, since edge counts of two binaries differ:
# the new target replays the baseline's final corpus with every input under each of its choices
# (what the baseline covered in one execution) and its own final corpus, with -runs=0.
# Usage: bench/fuzz-parse-rate/run.sh FUZZ_BUILD [SECONDS] [COVERAGE_SECONDS] (0: no coverage runs)
set -eu
build=$1
secs=${2:-30}
cov_secs=${3:-120}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/mcpspec-parse-rate-XXXXXX)
trap 'rm -rf "$work"' EXIT
new=$build/fuzz/message_parser_fuzz
bare=$build/bench/fuzz-parse-rate/bare_json_parse_fuzz
old=$build/bench/fuzz-parse-rate/message_parser_baseline_fuzz
for b in "$new" "$bare"; do
  [ -x "$b" ] || { echo "error: $b is not built (ninja -C $build fuzz-all bare_json_parse_fuzz)" >&2; exit 2; }
done

# Seeds: with the selector byte for the new target, without it for the others.
python3 "$src/fuzz/gen_corpus.py" --out "$work/seeds" > /dev/null 2>&1
mkdir -p "$work/seeds-new" "$work/seeds-plain"
cp "$work/seeds/message_parser/"* "$src/fuzz/corpus/message_parser/"* "$work/seeds-new/"
for f in "$work/seeds-new/"*; do
  case $(head -c 1 "$f") in 0) tail -c +2 "$f" > "$work/seeds-plain/$(basename "$f")" ;; esac
done

# run NAME BINARY SEEDS SECONDS: prints "exec/s cov" of the run; its corpus is left in $work/NAME.
# exec/s counts the fuzzing after the seeds were loaded (libFuzzer's INITED line) to the end: the
# load runs each seed once, thousands of them for message_parser, and would otherwise weigh on a
# short run far more than on a real one. libFuzzer's status lines give runs and cumulative exec/s,
# so each line's time is runs / exec/s.
run() {
  mkdir -p "$work/$1"
  "$2" -max_total_time="$4" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 -dict="$src/fuzz/mcp.dict" \
    -artifact_prefix="$work/$1-" "$work/$1" "$3" > "$work/$1.log" 2>&1 || true
  python3 - "$work/$1.log" <<'PY'
import re, sys
lines = [l for l in open(sys.argv[1], errors="replace") if re.match(r"#\d+\s", l)]
def point(line):
    runs = int(re.match(r"#(\d+)", line).group(1))
    rate = re.search(r"exec/s: (\d+)", line)
    rate = int(rate.group(1)) if rate else 0
    return runs, runs / rate if rate else 0.0
init = next((l for l in lines if "INITED" in l), None)
end = lines[-1] if lines else None
if not init or not end:
    print("0 0")
else:
    (r0, t0), (r1, t1) = point(init), point(end)
    cov = re.search(r"cov: (\d+)", end)
    print(f"{(r1 - r0) / (t1 - t0) if t1 > t0 else 0:.0f} {cov.group(1) if cov else 0}")
PY
}
# replay BINARY DIR: the coverage (edges) a folder reaches in BINARY.
replay() {
  "$1" -runs=0 -timeout=10 -rss_limit_mb=2560 "$2" 2>&1 | grep -o 'cov: [0-9]*' | tail -1 | cut -d' ' -f2
}

set -- $(run bare "$bare" "$work/seeds-plain" "$secs"); bare_rate=$1
set -- $(run speed "$new" "$work/seeds-new" "$secs"); new_rate=$1
python3 -c "import sys; b, n = float(sys.argv[1]), float(sys.argv[2]); print(f'exec/s after loading the seeds, {sys.argv[3]} s runs: bare nlohmann parse {b:.0f}, message_parser {n:.0f}: {n / b if b else 0:.2f}x')" \
  "$bare_rate" "$new_rate" "$secs"
if [ -x "$old" ]; then
  set -- $(run old-speed "$old" "$work/seeds-plain" "$secs"); old_rate=$1
  python3 -c "import sys; b, o = float(sys.argv[1]), float(sys.argv[2]); print(f'baseline message_parser {o:.0f} exec/s: {o / b if b else 0:.2f}x')" "$bare_rate" "$old_rate"
fi
if [ -x "$old" ] && [ "$cov_secs" -gt 0 ]; then
  set -- $(run cov-old "$old" "$work/seeds-plain" "$cov_secs"); old_cov=$2
  set -- $(run cov-new "$new" "$work/seeds-new" "$cov_secs"); new_cov=$2
  # The baseline's corpus under every choice, replayed by the new binary.
  choices=$(python3 -c "import os; print(2 * len([d for d in os.listdir('$src/harness/protocol/schemas') if d[:2] == '20']))")
  python3 - "$work/cov-old" "$work/cov-old-expanded" "$choices" <<'PY'
import os, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(dst, exist_ok=True)
for name in os.listdir(src):
    data = open(os.path.join(src, name), "rb").read()
    for k in range(n):  # the printable selector byte b with b % n == k, as gen_corpus.py writes it
        open(os.path.join(dst, f"{name}.{k}"), "wb").write(bytes([0x30 + (k - 0x30) % n]) + data)
PY
  echo "coverage after $cov_secs s from the same seeds: baseline binary cov $old_cov, new binary cov $new_cov"
  echo "both corpora replayed by the new binary: baseline's $(replay "$new" "$work/cov-old-expanded"), new $(replay "$new" "$work/cov-new")"
fi
