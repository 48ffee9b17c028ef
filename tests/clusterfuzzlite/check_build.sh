#!/bin/bash
# ClusterFuzzLite's build, here: .clusterfuzzlite/build.sh with the OSS-Fuzz variables as the
# builder image sets them for AddressSanitizer + UndefinedBehaviorSanitizer (clang-14 and its
# libFuzzer instead of the image's clang), into a temporary OUT; then every target it built runs
# from its seed corpus (<target>_seed_corpus.zip) with its dictionary and .options, for RUNS
# inputs, as ClusterFuzzLite's run step starts; then check_config.py (what the workflows name).
#   tests/clusterfuzzlite/check_build.sh [WORK] [RUNS]
# WORK (default: a temporary folder) keeps the CMake build: give the same folder again and only
# what changed is rebuilt. The first build compiles the fuzzed harness sources instrumented (see
# docs/clusterfuzzlite.md for how long that takes); not part of ctest for that reason.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
scratch=$(mktemp -d /tmp/mcpspec-cflite-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
runs=${2:-500}

# The builder image's layout: the project under $SRC/mcpspec, build.sh in $SRC. SRC is a folder
# of /tmp named after WORK, so that a kept build finds its source folder at the same path next
# time, and outside the checkout (CMake's compiler checks fail when the source path goes through
# a link inside the checkout that leads back to it).
export OUT=$scratch/out WORK=${1:-$scratch/work}
mkdir -p "$OUT" "$WORK"
export WORK=$(cd "$WORK" && pwd)
export SRC=/tmp/mcpspec-cflite-src-$(printf '%s' "$WORK" | cksum | cut -d' ' -f1)
mkdir -p "$SRC"
ln -sfn "$repo" "$SRC/mcpspec"
cp "$repo/.clusterfuzzlite/build.sh" "$SRC/build.sh"
export CC=${CC:-clang-14} CXX=${CXX:-clang++-14}
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link"
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $sanitizers"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
start=$(date +%s)
(cd "$SRC/mcpspec" && bash "$SRC/build.sh")
echo "build: $(( $(date +%s) - start )) s"

failures=0
built=0
for fuzzer in "$OUT"/*_fuzz; do
  name=$(basename "$fuzzer")
  built=$((built + 1))
  corpus=$scratch/corpus/$name
  mkdir -p "$corpus"
  [ -f "$OUT/${name}_seed_corpus.zip" ] || { echo "FAIL: $name has no seed corpus zip"; failures=$((failures + 1)); continue; }
  [ -f "$OUT/$name.dict" ] || { echo "FAIL: $name has no dictionary"; failures=$((failures + 1)); continue; }
  unzip -q -o "$OUT/${name}_seed_corpus.zip" -d "$corpus"
  options=()
  if [ -f "$OUT/$name.options" ]; then
    # [libfuzzer] key = value lines, as ClusterFuzzLite passes them.
    while read -r key _ value; do options+=("-$key=$value"); done < <(grep -E '^[a-z_]+ *= *' "$OUT/$name.options")
  fi
  if (cd "$scratch" && "$fuzzer" "${options[@]}" -dict="$OUT/$name.dict" -runs="$runs" "$corpus" > "$scratch/$name.log" 2>&1); then
    echo "ran $name: $(ls "$corpus" | wc -l) seeds, $(grep -o 'cov: [0-9]*' "$scratch/$name.log" | tail -1)"
  else
    echo "FAIL: $name exited non-zero:"; tail -20 "$scratch/$name.log"; failures=$((failures + 1))
  fi
done
[ "$built" -eq "$(ls "$repo"/fuzz/targets/*_fuzz.cpp | wc -l)" ] || { echo "FAIL: built $built targets, fuzz/targets/ has more"; failures=$((failures + 1)); }
python3 "$here/check_config.py" "$repo" || failures=$((failures + 1))
[ "$failures" -eq 0 ] && echo "PASS: $built targets built and ran" || { echo "$failures failure(s)"; exit 1; }
