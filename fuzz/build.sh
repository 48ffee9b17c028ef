#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script (.clusterfuzzlite/build.sh runs it). Uses the standard
# variables:
#   CC CXX CFLAGS CXXFLAGS  compilers and instrumentation (e.g. -fsanitize=address,fuzzer-no-link)
#   LIB_FUZZING_ENGINE link flags of the engine (e.g. -fsanitize=fuzzer)
#   OUT               where the fuzz targets, <target>_seed_corpus.zip, .dict and .options go
#   WORK (optional)   scratch folder for the CMake build (default: a temp folder)
# Local check:
#   CC=clang-14 CXX=clang++-14 CXXFLAGS="-fsanitize=address,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/ossfuzz-out fuzz/build.sh
: "${CC:?set CC}" "${CXX:?set CXX}" "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE}" "${OUT:?set OUT}"
CXXFLAGS=${CXXFLAGS:-}
# Coverage from our code and nlohmann only (fuzz/coverage_ignorelist.txt says why), in the builds
# that collect it; the flag would be an unused argument elsewhere (source coverage builds).
case "$CXXFLAGS" in
  *fuzzer-no-link*|*-fsanitize-coverage=*)
    CXXFLAGS="$CXXFLAGS -fsanitize-coverage-ignorelist=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/coverage_ignorelist.txt" ;;
esac
CFLAGS=${CFLAGS:-}
JOBS=${JOBS:-2}
SRC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ_DIR=$SRC_DIR/fuzz
WORK=${WORK:-$(mktemp -d)}
BUILD=$WORK/mcpspec-fuzz-build
mkdir -p "$OUT" "$BUILD"

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# The build type "OssFuzz" adds no flags of its own: optimisation and instrumentation come from
# CXXFLAGS exactly as OSS-Fuzz sets them. The fuzz folder must not instrument a second time.
# The targets link their own instrumented copy of the harness sources they reach
# (mcpspec_fuzz_core): the harness library and CLI are not configured (MCPSPEC_HARNESS=OFF), so
# neither is their HTTP stack, which the builder image does not have.
cmake -S "$SRC_DIR" -B "$BUILD" "${generator[@]}" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_BUILD_TYPE=OssFuzz -DMCPSPEC_FUZZ=ON -DMCPSPEC_FUZZ_LOCAL_SANITIZERS=OFF \
  -DMCPSPEC_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DMCPSPEC_TESTS=OFF -DMCPSPEC_REFERENCE=OFF -DMCPSPEC_HARNESS=OFF
cmake --build "$BUILD" --target fuzz-all -j "$JOBS"

# Seeds: our committed corpus plus what gen_corpus.py derives from the scenarios and (when the
# folder is there) the spec's example messages.
SEEDS=$BUILD/fuzz/seeds
python3 "$FUZZ_DIR/gen_corpus.py" --out "$SEEDS" --scenarios "$SRC_DIR/scenarios" \
  --examples "$SRC_DIR/../shared/mcp-spec/examples"

for src in "$FUZZ_DIR"/targets/*_fuzz.cpp; do
  fuzzer=$(basename "$src" .cpp)          # message_parser_fuzz
  name=${fuzzer%_fuzz}                    # message_parser
  cp "$BUILD/fuzz/$fuzzer" "$OUT/"
  cp "$FUZZ_DIR/mcp.dict" "$OUT/$fuzzer.dict"
  if [ -f "$FUZZ_DIR/targets/$fuzzer.options" ]; then
    cp "$FUZZ_DIR/targets/$fuzzer.options" "$OUT/$fuzzer.options"
  fi
  zip_in=$(mktemp -d)
  for d in "$FUZZ_DIR/corpus/$name" "$FUZZ_DIR/regressions/$name" "$SEEDS/$name"; do
    if [ -d "$d" ]; then
      find "$d" -type f ! -name 'README*' -exec cp {} "$zip_in/" \;
    fi
  done
  rm -f "$OUT/${fuzzer}_seed_corpus.zip"
  (cd "$zip_in" && zip -q -j "$OUT/${fuzzer}_seed_corpus.zip" ./*)
  rm -rf "$zip_in"
  echo "built $OUT/$fuzzer ($(unzip -l "$OUT/${fuzzer}_seed_corpus.zip" | tail -1 | awk '{print $2}') seeds)"
done
