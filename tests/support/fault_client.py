"""The command line of the scripted test clients with injected faults (tests/http/http_test_client.py,
tests/auth/auth_test_client.py): `[--fault NAME] URL`, or `--list-faults`. Standard library only."""
import argparse
import sys


def parse_fault_client_args(faults):
    """Parsed arguments (.fault, .url) for a client whose faults are `faults` (name -> what it does).
    --list-faults prints them and exits 0; a missing URL exits 2 naming it."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--fault", choices=sorted(faults))
    ap.add_argument("--list-faults", action="store_true")
    ap.add_argument("url", nargs="?")
    a = ap.parse_args()
    if a.list_faults:
        for name, what in sorted(faults.items()):
            print("%-22s %s" % (name, what))
        sys.exit(0)
    if not a.url:
        ap.error("the server URL is required")
    return a
