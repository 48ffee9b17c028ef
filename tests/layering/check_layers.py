#!/usr/bin/env python3
"""The harness's layers hold: no source includes a header of a layer above its own.

    check_layers.py ROOT          check the tree at ROOT (exit 0 clean, 1 with each wrong include)
    check_layers.py --self-test   prove the check catches a wrong include in a made-up tree

The layers, lowest first (docs/architecture.md): util -> jsonschema -> protocol -> monitor, transport -> results ->
scenario -> run, fuzz, proxy -> cli, with reports reading results (and util) only. A folder may include its
own layer and the layers this table lists for it; anything else is a design bug.
"""
import os
import re
import sys
import tempfile

# folder -> the folders its sources may include from (besides itself)
ALLOWED = {
    "harness/util": [],
    "harness/jsonschema": ["harness/util"],
    "harness/protocol": ["harness/util", "harness/jsonschema"],
    "harness/monitor": ["harness/util", "harness/jsonschema", "harness/protocol"],
    # OAuth building blocks and the mock authorization server: util only, so both roles can use them
    "harness/auth": ["harness/util"],
    "harness/transport": ["harness/util", "harness/jsonschema", "harness/protocol", "harness/auth"],
    "harness/results": ["harness/util"],
    "harness/scenario": ["harness/util", "harness/jsonschema", "harness/protocol", "harness/monitor",
                         "harness/transport", "harness/auth", "harness/results"],
    "harness/fuzz": ["harness/util", "harness/jsonschema", "harness/protocol", "harness/monitor", "harness/transport", "harness/auth",
                     "harness/results", "harness/scenario"],
    "harness/run": ["harness/util", "harness/jsonschema", "harness/protocol", "harness/monitor", "harness/transport", "harness/auth",
                    "harness/results", "harness/scenario"],
    # the proxy sits beside run and fuzz: it judges traffic with the monitors (and the scenario
    # layer's requirement catalog for levels); it runs no scenarios.
    "harness/proxy": ["harness/util", "harness/jsonschema", "harness/protocol", "harness/monitor",
                      "harness/transport", "harness/auth", "harness/results", "harness/scenario"],
    "reports": ["harness/util", "harness/jsonschema", "harness/results"],
    "harness/cli": ["harness/util", "harness/jsonschema", "harness/protocol", "harness/monitor", "harness/transport", "harness/auth",
                    "harness/results", "harness/scenario", "harness/run", "harness/fuzz", "harness/proxy", "reports"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(path):
    best = None
    for folder in ALLOWED:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def check(root):
    problems = []
    for folder in ALLOWED:
        base = os.path.join(root, folder)
        for dirpath, _, names in os.walk(base):
            for name in sorted(names):
                if not name.endswith((".cpp", ".hpp")):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root)
                own = layer_of(rel)
                with open(full, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = layer_of(m.group(1))
                        if target is None or target == own or target in ALLOWED[own]:
                            continue
                        problems.append(f"{rel}:{lineno}: {own} includes {m.group(1)} ({target} is not below it)")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        write("harness/transport/good.cpp", '#include "harness/util/clock.hpp"\n#include "harness/transport/x.hpp"\n')
        write("harness/transport/bad.cpp", '#include "harness/scenario/session.hpp"\n')
        write("harness/protocol/bad.hpp", '#include "harness/results/result.hpp"\n')
        write("reports/bad.cpp", '#include "harness/scenario/runner.hpp"\n')
        write("harness/util/fine.cpp", '#include <vector>\n#include "local.hpp"\n')
        write("harness/jsonschema/bad.cpp", '#include "harness/protocol/message.hpp"\n')
        write("harness/monitor/bad.cpp", '#include "harness/scenario/session.hpp"\n')
        write("harness/scenario/bad.cpp", '#include "harness/run/suite.hpp"\n')
        found = check(root)
        expected = {"harness/transport/bad.cpp:1", "harness/protocol/bad.hpp:1", "reports/bad.cpp:1",
                    "harness/jsonschema/bad.cpp:1", "harness/monitor/bad.cpp:1",
                    "harness/scenario/bad.cpp:1"}
        got = {p.split(": ")[0] for p in found}
        if got != expected:
            print("self-test failed: expected", sorted(expected), "got", found)
            return 1
    print("self-test: the check catches includes that go up a layer")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) go up a layer")
        return 1
    print("layers hold: no include goes up a layer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
