#!/usr/bin/env python3
"""Installing mcpspec, packaging it, and using it from another CMake project.

1. `cmake --install BUILD --prefix SCRATCH`: the binary, scenarios, schemas, docs and the CMake
   package land in their places; the installed mcpspec prints its version, lists scenarios from
   SCRATCH/share/mcpspec (not from the source tree), and runs them against our test server from a
   working directory outside the source tree.
2. `cpack -G DEB`: a .deb whose control file names its dependencies; extracted with
   `dpkg-deb -x` into a scratch root, its usr/bin/mcpspec runs the same way.
3. An example project (tests/install/example) configured with find_package(mcpspec) against the
   scratch install: its mcpspec_add_conformance_test() passes against the correct server and fails
   against a faulty one.

  install_check.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import Checks  # noqa: E402

BUILD, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SERVER = os.path.join(BUILD, "mcpspec-testserver")
check = Checks("install check")


def sh(cmd, cwd=None, env=None, timeout=300):
    done = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return done.returncode, done.stdout


def clean_env():
    env = dict(os.environ)
    env.pop("MCPSPEC_HOME", None)
    return env


def exercise(mcpspec, prefix, label):
    env = clean_env()
    code, out = sh([mcpspec, "--version"], cwd="/", env=env)
    check(code == 0 and out.startswith("mcpspec ") and "protocol versions: 2024-11-05" in out, f"{label}: --version: {code} {out}")
    code, out = sh([mcpspec, "list", "--json"], cwd="/", env=env)
    files = [s["file"] for s in json.loads(out)] if code == 0 else []
    check(files and all(f.startswith(prefix) for f in files),
          f"{label}: the installed mcpspec lists scenarios outside {prefix}: {files[:3]} (exit {code})")
    with tempfile.TemporaryDirectory() as cwd:
        code, out = sh([mcpspec, "run", "--server", SERVER, "--filter", "mcp/ping/*", "-q", "--report", "json:r.json"], cwd=cwd, env=env)
        check(code == 0 and os.path.exists(os.path.join(cwd, "r.json")), f"{label}: run against the test server: exit {code}\n{out}")
        code, out = sh([mcpspec, "run"], cwd=cwd, env=env)
        check(code == 2 and "no default targets file" in out, f"{label}: run without a target should explain: {code}\n{out}")


def main():
    with tempfile.TemporaryDirectory(prefix="mcpspec-install-") as work:
        prefix = os.path.join(work, "prefix")
        code, out = sh(["cmake", "--install", BUILD, "--prefix", prefix])
        check(code == 0, f"cmake --install: {code}\n{out[-2000:]}")
        for rel in ("bin/mcpspec", "share/mcpspec/scenarios/mcp/ping", "share/mcpspec/schemas/report-schema.json",
                    "share/mcpspec/schemas/scenario.schema.json", "share/mcpspec/schemas/protocol/2025-11-25",
                    "share/doc/mcpspec/README.md", "share/doc/mcpspec/reports.md",
                    "lib/cmake/mcpspec/mcpspecConfig.cmake", "lib/cmake/mcpspec/mcpspecConformance.cmake"):
            check(os.path.exists(os.path.join(prefix, rel)), f"installed tree lacks {rel}")
        check(not os.path.exists(os.path.join(prefix, "share/mcpspec/scenarios/targets.json")), "targets.json was installed")
        man = os.path.join(prefix, "share/man/man1/mcpspec.1")
        if shutil.which("help2man"):
            page = open(man).read() if os.path.exists(man) else ""
            check(".TH MCPSPEC" in page and "explain" in page and "\\-\\-report" in page,  # roff writes - as \-
                  "the man page is missing or lacks the commands' options (help2man, mcpspec --help-all)")
        else:
            print("note: no help2man on PATH, so no man page to check (.ci/setup installs it)")
        exercise(os.path.join(prefix, "bin/mcpspec"), prefix, "cmake --install")

        # The Debian package.
        pkg = os.path.join(work, "pkg")
        code, out = sh(["cpack", "-G", "DEB", "-B", pkg, "--config", os.path.join(BUILD, "CPackConfig.cmake")], cwd=BUILD)
        debs = [f for f in os.listdir(pkg) if f.endswith(".deb")] if os.path.isdir(pkg) else []
        check(code == 0 and len(debs) == 1, f"cpack: exit {code}, packages {debs}\n{out[-2000:]}")
        if debs:
            deb = os.path.join(pkg, debs[0])
            code, info = sh(["dpkg-deb", "-I", deb])
            check(code == 0 and "Package: mcpspec" in info and "Depends:" in info and "libfmt" in info,
                  f"the .deb's control file: {info}")
            root = os.path.join(work, "root")
            code, out = sh(["dpkg-deb", "-x", deb, root])
            check(code == 0, f"dpkg-deb -x: {out}")
            exercise(os.path.join(root, "usr/bin/mcpspec"), os.path.join(root, "usr"), ".deb")

        # A project using the installed package.
        example = os.path.join(work, "example-build")
        base = ["cmake", "-S", os.path.join(SRC, "tests/install/example"), "-B", example, "-G", "Ninja",
                f"-DCMAKE_PREFIX_PATH={prefix}", f"-DMCP_SERVER={SERVER}"]
        code, out = sh(base + ["-DFAULT="])
        check(code == 0, f"example project configure: {code}\n{out[-2000:]}")
        code, out = sh(["ctest", "--test-dir", example, "--output-on-failure"])
        check(code == 0 and "example.conformance" in out, f"example conformance test against the correct server: {code}\n{out[-2000:]}")
        check(os.path.exists(os.path.join(example, "example.conformance.mcpspec.xml")), "the helper wrote no JUnit report")
        code, out = sh(base + ["-DFAULT=wrong-error-code"])
        code, out = sh(["ctest", "--test-dir", example])
        check(code != 0 and "example.conformance" in out, f"example conformance test against a faulty server must fail: {code}\n{out[-2000:]}")

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
