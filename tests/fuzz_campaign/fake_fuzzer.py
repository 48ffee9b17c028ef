#!/usr/bin/env python3
"""Stands in for a libFuzzer binary in test_campaign.py: replays one input (-runs=1) or
"minimizes" it (-minimize_crash=1), answering as libFuzzer would for what the input holds.
With -max_total_time it plays a short fuzzing run instead: edges named while the corpus loads,
INITED, then two more edges (named only under -print_pcs=1, as libFuzzer does) and DONE.
  CRASH...   an AddressSanitizer report with a fixed stack (two such files are one crash)
  INVARIANT  a fuzz invariant violation
  anything   runs fine: "Executed <path> in 7 ms" (a timeout that did not reproduce)"""
import sys

args = [a for a in sys.argv[1:] if a.startswith("-")]
paths = [a for a in sys.argv[1:] if not a.startswith("-")]
if "-help=1" in args or any(a.startswith("-merge=") for a in args):
    sys.exit(0)
if any(a.startswith("-max_total_time=") for a in args) and "-minimize_crash=1" not in args:
    named = "-print_pcs=1" in args
    if named:
        print("\tNEW_PC: 0x5501 in LLVMFuzzerTestOneInput /src/mcpspec/fuzz/targets/x_fuzz.cpp:20:5")
    print("#2\tINITED cov: 10 ft: 20 corp: 1/6b exec/s: 0 rss: 29Mb")
    if named:
        print("\tNEW_PC: 0x5502 in std::__detail::_Compiler<std::__cxx11::regex_traits<char> >::_M_atom() "
              "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/bits/regex_compiler.tcc:312:7")
        print("\tNEW_PC: 0x5503 in (x_fuzz+0x5503)")
    print("#9\tNEW    cov: 12 ft: 25 corp: 2/11b lim: 4096 exec/s: 0 rss: 29Mb L: 5/6 MS: 1 Custom-")
    print("#20\tDONE   cov: 12 ft: 25 corp: 2/11b lim: 4096 exec/s: 0 rss: 29Mb")
    sys.exit(0)
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
    print("    #1 0x55d2 in mcpspec::scenario::load_step(nlohmann::json const&) /src/mcpspec/harness/scenario/loader.cpp:120:7")
    print("    #2 0x55d3 in mcpspec::scenario::load(std::string const&) /src/mcpspec/harness/scenario/loader.cpp:300:3")
    print("    #3 0x55d4 in LLVMFuzzerTestOneInput /src/mcpspec/fuzz/targets/x_fuzz.cpp:20:5")
    sys.exit(1)
if data.startswith(b"INVARIANT"):
    print("fuzz invariant violated at x_fuzz.cpp:31: generation is deterministic")
    print("==1== ERROR: libFuzzer: deadly signal")
    sys.exit(1)
print(f"Executed {paths[-1]} in 7 ms")
