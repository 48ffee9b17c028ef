#!/usr/bin/env python3
"""Stands in for a libFuzzer binary in test_campaign.py: replays one input (-runs=1) or
"minimizes" it (-minimize_crash=1), answering as libFuzzer would for what the input holds.
  CRASH...   an AddressSanitizer report with a fixed stack (two such files are one crash)
  INVARIANT  a fuzz invariant violation
  anything   runs fine: "Executed <path> in 7 ms" (a timeout that did not reproduce)"""
import sys

args = [a for a in sys.argv[1:] if a.startswith("-")]
paths = [a for a in sys.argv[1:] if not a.startswith("-")]
with open(paths[-1], "rb") as f:
    data = f.read()

if "-minimize_crash=1" in args:
    out = next(a.split("=", 1)[1] for a in args if a.startswith("-exact_artifact_path="))
    with open(out, "wb") as f:
        f.write(data[:5])
    sys.exit(0)

print(f"Running: {paths[-1]}")
if data.startswith(b"CRASH"):
    print("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011")
    print("    #0 0x55d1 in __asan_memcpy /build/llvm/asan_interceptors.cpp:22")
    print("    #1 0x55d2 in mcpspec::scenario::load_step(nlohmann::json const&) /work/main/harness/scenario/loader.cpp:120:7")
    print("    #2 0x55d3 in mcpspec::scenario::load(std::string const&) /work/main/harness/scenario/loader.cpp:300:3")
    print("    #3 0x55d4 in LLVMFuzzerTestOneInput /work/main/fuzz/targets/x_fuzz.cpp:20:5")
    sys.exit(1)
if data.startswith(b"INVARIANT"):
    print("fuzz invariant violated at x_fuzz.cpp:31: generation is deterministic")
    print("==1== ERROR: libFuzzer: deadly signal")
    sys.exit(1)
print(f"Executed {paths[-1]} in 7 ms")
