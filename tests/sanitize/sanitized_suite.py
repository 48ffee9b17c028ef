#!/usr/bin/env python3
"""Build the reference systems under AddressSanitizer and UndefinedBehaviorSanitizer in a build
folder of their own, then run their runtime's unit tests and the default run (every reference
system, as server and as client, over stdio, Streamable HTTP and WebSocket) against them; any
sanitizer report, in any process of the run, fails.

  sanitized_suite.py --src SRC --build DIR build   # configure + build (-O0: compiles as fast as -O2)
  sanitized_suite.py --src SRC --build DIR test --mcpspec BUILD/mcpspec
  sanitized_suite.py --src SRC --build DIR all --mcpspec BUILD/mcpspec
  sanitized_suite.py --src SRC --build DIR self-test   # proves a report fails the run

Why a report file and not the exit code: a sanitizer stops the process it finds a fault in, and a
run tolerates failing targets (the baselines list known deviations). A reference server that hits
a use-after-free would then be just another failing case. Every process writes its report to a
file under DIR/sanitizer-reports instead (the sanitizers' log_path), and that folder must stay
empty.

The harness itself runs in its Release build here: an ASan build of the harness and its unit
tests costs about three times the cold-build time CI can spare (docs/ci.md).
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import time

# What the default run needs (scenarios/targets.json names them by ${bindir}), and the unit tests
# of the runtime every reference system shares (network server ends, line reader, atomic files).
TARGETS = ["mcpref_common_tests", "chant", "clariad", "meditation-mcp", "project_chat", "speckit-agent",
           "spec-tui", "tamamo-x-mcp", "tamamo-x-demo-upstream", "mcpspec-testserver"]
UNIT_TESTS = r"^mcpref\."


def sanitizer_env(reports: pathlib.Path) -> dict:
    """Options for every sanitized process of the run: stop at the first fault, report to a file."""
    env = dict(os.environ)
    log = f"log_path={reports}/report"
    env["ASAN_OPTIONS"] = f"{log}:halt_on_error=1:detect_leaks=1:strict_string_checks=1:" \
                          "detect_stack_use_after_return=1:check_initialization_order=1"
    env["UBSAN_OPTIONS"] = f"{log}:halt_on_error=1:print_stacktrace=1"
    env["LSAN_OPTIONS"] = f"{log}"
    return env


def run(cmd, **kw) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call(cmd, **kw)


def build(args) -> int:
    started = time.monotonic()
    configure = ["cmake", "-S", args.src, "-B", args.build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=None",
                 "-DCMAKE_CXX_FLAGS=-O0", "-DMCPSPEC_SANITIZE=ON", "-DMCPSPEC_FUZZ=OFF"]
    if run(configure, stdout=subprocess.DEVNULL) != 0:
        print(f"sanitized_suite: configuring {args.build} failed", file=sys.stderr)
        return 1
    rc = run(["ninja", "-C", args.build, f"-j{args.jobs}", *TARGETS])
    print(f"sanitized_suite: build took {time.monotonic() - started:.0f} s", flush=True)
    return rc


def sanitized_targets_file(args) -> pathlib.Path:
    """scenarios/targets.json with ${bindir} pointing at the sanitized programs."""
    text = (pathlib.Path(args.src) / "scenarios/targets.json").read_text()
    out = pathlib.Path(args.build) / "targets.sanitized.json"
    out.write_text(text.replace("${bindir}", str(pathlib.Path(args.build).resolve())))
    return out


def fresh_reports(args) -> pathlib.Path:
    reports = pathlib.Path(args.build) / "sanitizer-reports"
    shutil.rmtree(reports, ignore_errors=True)
    reports.mkdir(parents=True)
    return reports


def collect_reports(reports: pathlib.Path) -> list:
    """Prints every report the run left; returns their paths."""
    found = sorted(p for p in reports.iterdir() if p.stat().st_size > 0)
    for p in found:
        text = p.read_text(errors="replace")
        print(f"== sanitizer report {p.name}:\n" + "\n".join(text.splitlines()[:80]), flush=True)
    return found


def self_test(args) -> int:
    """A sanitized child that overflows the heap, run the way the suite runs its processes (its
    parent ignores its exit status, as a run tolerates failing targets), must leave a report that
    collect_reports finds: otherwise the suite's zero would prove nothing."""
    reports = fresh_reports(args)
    src = reports.parent / "overflow.cpp"
    exe = reports.parent / "overflow"
    src.write_text("#include <cstdlib>\nint main(int argc, char**) { int* p = (int*)std::malloc(4 * sizeof(int));"
                   " p[argc + 3] = 1; int v = p[argc + 3]; std::free(p); return v == 1 ? 0 : 2; }\n")
    if run(["c++", "-O0", "-fsanitize=address,undefined", "-o", str(exe), str(src)]) != 0:
        print("sanitized_suite: cannot compile the self-test program", file=sys.stderr)
        return 1
    subprocess.call([str(exe)], env=sanitizer_env(reports), stderr=subprocess.DEVNULL)
    found = collect_reports(reports)
    ok = len(found) == 1 and "heap-buffer-overflow" in found[0].read_text(errors="replace")
    shutil.rmtree(reports, ignore_errors=True)
    print("sanitized_suite: self-test " + ("passed: the planted overflow was reported" if ok else
                                            "FAILED: the planted overflow left no report"))
    return 0 if ok else 1


def test(args) -> int:
    started = time.monotonic()
    reports = fresh_reports(args)
    env = sanitizer_env(reports)
    failures = []
    if run(["ctest", "--test-dir", args.build, "--output-on-failure", f"-j{args.jobs}",
            "--timeout", "300", "-R", UNIT_TESTS], env=env) != 0:
        failures.append("unit tests")
    if args.mcpspec:
        # The default run as .ci/setup does it, against the sanitized reference systems; its
        # baselines apply, so exit 0 is the expected outcome.
        # ASan and UBSan make every process several times slower; the default waits (5 s per
        # step, also a `run` step's command) were timed for Release binaries, and a loaded 2-core
        # machine ran chant's `init` past them. Twice the wait, half the default parallelism.
        cmd = [args.mcpspec, "run", "--targets", str(sanitized_targets_file(args)), "--quiet",
               "--timeout-ms", "10000", "-j", "8", "--deadline", "900", "--report", f"json:{pathlib.Path(args.build) / 'report.json'}"]
        if run(cmd, env=env, cwd=args.src) != 0:
            failures.append("default run")
    found = collect_reports(reports)
    if found:
        failures.append(f"{len(found)} sanitizer report(s)")
    print(f"sanitized_suite: tests took {time.monotonic() - started:.0f} s; "
          + ("failed: " + ", ".join(failures) if failures else "no failure, no sanitizer report"), flush=True)
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", required=True, help="the source tree")
    ap.add_argument("--build", required=True, help="the sanitized build folder")
    ap.add_argument("--mcpspec", help="the (Release) mcpspec that runs the default run")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("step", choices=["build", "test", "all", "self-test"])
    args = ap.parse_args()
    if args.step == "self-test":
        return self_test(args)
    if args.step in ("build", "all"):
        rc = build(args)
        if rc != 0 or args.step == "build":
            return rc
    return test(args)


if __name__ == "__main__":
    sys.exit(main())
