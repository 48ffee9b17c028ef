"""fuzz/campaign's logic without a clang build: libFuzzer's status lines, the plateau rule, crash
signatures, and triage (grouping, minimization, replays that do not reproduce)."""
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "support"))
from process_state import wait_until_gone  # noqa: E402


def load_campaign():
    loader = importlib.machinery.SourceFileLoader("campaign", os.path.join(REPO, "fuzz", "campaign"))
    spec = importlib.util.spec_from_loader("campaign", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


campaign = load_campaign()


class StatusLines(unittest.TestCase):
    def test_single_process_and_fork_lines(self):
        m = campaign.STATUS.match("#524288\tpulse  cov: 2740 ft: 16472 corp: 1177/1.2Mb lim: 16384 exec/s: 589 rss: 612Mb")
        self.assertEqual([m.group(i) for i in range(1, 6)], ["524288", "2740", "16472", "1177", "589"])
        m = campaign.STATUS.match("#123: cov: 456 ft: 789 corp: 12 exec/s: 1000 oom/timeout/crash: 0/1/2 time: 10s job: 3")
        self.assertEqual(m.group(2), "456")
        self.assertEqual(campaign.FORK_CRASHES.search("oom/timeout/crash: 0/1/2").groups(), ("0", "1", "2"))

    def test_other_lines_are_not_status(self):
        self.assertIsNone(campaign.STATUS.match("INFO: Seed: 2371756673"))


class RunBounded(unittest.TestCase):
    def test_every_line_arrives_even_when_the_child_exits_at_once(self):
        lines = []
        rc, timed_out = campaign.run_bounded(
            ["python3", "-c", "print('\\n'.join(map(str, range(5000))), end='')"], 30, on_line=lines.append)
        self.assertEqual((rc, timed_out), (0, False))
        self.assertEqual(lines, [str(i) for i in range(5000)])

    def test_the_deadline_kills_the_whole_group(self):
        with tempfile.TemporaryDirectory() as d:
            pidfile = os.path.join(d, "pid")
            rc, timed_out = campaign.run_bounded(
                ["sh", "-c", f"sleep 60 & echo $! > {pidfile}; wait"], 1)
            self.assertTrue(timed_out)
            with open(pidfile) as f:
                child = int(f.read())
            # The grandchild was in the group, so it was sent SIGKILL (delivered asynchronously).
            self.assertTrue(wait_until_gone(child, 10), f"process {child} of the group still runs")


class Plateau(unittest.TestCase):
    def timeline(self, covs, step=10):
        return [{"t": i * step, "cov": c} for i, c in enumerate(covs)]

    def test_flat_last_quarter_is_a_plateau(self):
        p = campaign.plateau(self.timeline([100, 120, 130, 130, 130]), 20)
        self.assertTrue(p["reached"])
        self.assertEqual(p["last_growth_s"], 20)
        self.assertEqual(p["final_cov"], 130)

    def test_growth_in_the_window_is_not(self):
        p = campaign.plateau(self.timeline([100, 120, 130, 130, 131]), 20)
        self.assertFalse(p["reached"])

    def test_no_status_line_is_not_a_plateau(self):
        self.assertFalse(campaign.plateau([], 20)["reached"])


class Signatures(unittest.TestCase):
    def test_invariant(self):
        kind, _ = campaign.signature("fuzz invariant violated at a.cpp:3: round trip\n")
        self.assertEqual(kind, "invariant a.cpp:3")

    def test_ubsan(self):
        kind, _ = campaign.signature("x.cpp:10:4: runtime error: signed integer overflow\n")
        self.assertEqual(kind, "x.cpp:10:4 signed integer overflow")

    def test_frames_skip_sanitizer_noise_and_argument_lists(self):
        text = ("==1==ERROR: AddressSanitizer: stack-overflow on address 0x1\n"
                "    #0 0x1 in __asan_memcpy /llvm/asan.cpp:1\n"
                "    #1 0x2 in f(int) /work/a.cpp:5:2\n"
                "    #2 0x3 in g() /work/b.cpp:9\n")
        kind, frames = campaign.signature(text)
        self.assertEqual(kind, "AddressSanitizer stack-overflow")
        self.assertEqual(frames, ["f a.cpp:5", "g b.cpp:9"])


class Triage(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.crashes = os.path.join(self.dir, "crashes")
        os.makedirs(self.crashes)
        self.fuzzer = os.path.join(HERE, "fake_fuzzer.py")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, data):
        with open(os.path.join(self.crashes, name), "wb") as f:
            f.write(data)

    def test_groups_minimizes_and_says_when_a_replay_does_not_reproduce(self):
        self.write("crash-1", b"CRASH one input")
        self.write("crash-2", b"CRASH another input, same stack")
        self.write("timeout-3", b"ran slowly only while the machine was busy")
        self.write("leak-4", b"INVARIANT")
        self.write("notes.txt", b"CRASH but not a libFuzzer artifact name")
        groups = campaign.triage(self.fuzzer, "x", self.crashes, self.dir, 5, dict(os.environ), 3)
        by_kind = {g["kind"]: g for g in groups}
        self.assertEqual(len(groups), 3, by_kind.keys())

        asan = by_kind["AddressSanitizer heap-buffer-overflow"]
        self.assertEqual(asan["count"], 2)
        self.assertEqual(asan["frames"][0], "mcpspec::scenario::load_step loader.cpp:120")
        self.assertTrue(asan["minimized"] and os.path.getsize(asan["minimized"]) == 5)
        self.assertEqual(asan["save_as"], "fuzz/regressions/x/" + asan["id"])

        slow = by_kind["timeout, not reproduced on replay (ran 7 ms)"]
        self.assertIsNone(slow["minimized"], "an input that does not crash is not minimized")

        self.assertIn("invariant x_fuzz.cpp:31", by_kind)

    def test_no_crash_folder_is_no_crash(self):
        self.assertEqual(campaign.triage(self.fuzzer, "x", os.path.join(self.dir, "none"), self.dir, 5, {}, 3), [])


if __name__ == "__main__":
    unittest.main()
