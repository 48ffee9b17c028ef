"""The command line both tree checks share (doc_links.py, machine_paths.py): `SCRIPT SOURCEDIR`
checks the tree, `SCRIPT --self-test` proves the check catches planted faults. Standard library only."""
import sys


def main(doc, check, self_test, passed, header=None):
    """Exit status: 0 when `check(SOURCEDIR)` finds nothing, 1 with its problems, 2 on a bad command line."""
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(doc)
        return 2
    problems = check(sys.argv[1])
    if problems:
        if header:
            print(header)
        print("\n".join(problems))
        return 1
    print(passed)
    return 0
