#!/usr/bin/env python3
"""Compares the verdicts of two mcpspec JSON reports: id, protocol and verdict of every result.

  python3 bench/default-run/verdicts.py BEFORE.json AFTER.json

Prints every difference (a result only in one report, or another verdict) and exits 1 if there is
one, 0 if the two runs judged the same scenarios the same way. A change that only makes runs faster
must leave this list identical.
"""
import json
import sys


def verdict_list(report):
    """{(id, protocol): verdict} of one parsed JSON report."""
    return {(r["id"], r["protocol"]): r["verdict"] for r in report["results"]}


def compare(before, after):
    """The differences between two verdict lists, one readable line each."""
    out = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a != b:
            out.append("%s @%s: %s -> %s" % (key[0], key[1], a or "(absent)", b or "(absent)"))
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    lists = []
    for path in argv[1:]:
        try:
            with open(path) as fh:
                lists.append(verdict_list(json.load(fh)))
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("%s: not an mcpspec JSON report (%s)" % (path, e), file=sys.stderr)
            return 2
    diff = compare(*lists)
    for d in diff:
        print(d)
    print("%d results compared, %d differ" % (len(set(lists[0]) | set(lists[1])), len(diff)))
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
