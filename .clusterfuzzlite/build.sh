#!/bin/bash -eu
# ClusterFuzzLite's build step: the builder image runs $SRC/build.sh (this file, copied there by
# the Dockerfile) from $SRC/mcpspec with the OSS-Fuzz variables set (CC, CXX, CFLAGS, CXXFLAGS,
# LIB_FUZZING_ENGINE, OUT, SRC, WORK). fuzz/build.sh does the work, as for OSS-Fuzz: every
# fuzz/targets/*_fuzz.cpp into $OUT with its dictionary, .options and <target>_seed_corpus.zip.
exec "$SRC/mcpspec/fuzz/build.sh"
