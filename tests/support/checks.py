"""A list of failed checks for the scripted end-to-end tests: each failed check is printed as it
happens (so a long test shows every problem, not the first only), and finish() prints the tally
and gives the exit status. Standard library only."""


class Checks:
    def __init__(self, name):
        self.name = name
        self.failures = []

    def __call__(self, ok, what):
        """Records `what` as a problem unless `ok`; returns `ok`."""
        if not ok:
            self.failures.append(what)
            print("FAIL:", what, flush=True)
        return ok

    def finish(self):
        print(f"{self.name}:", "FAILED" if self.failures else "passed", f"({len(self.failures)} problems)")
        return 1 if self.failures else 0
