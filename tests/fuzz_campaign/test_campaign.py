"""fuzz/campaign's logic without a clang build: libFuzzer's status lines, the plateau rule, crash
signatures, and triage (grouping, minimization, replays that do not reproduce)."""
import argparse
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


class LateCoverage(unittest.TestCase):
    def test_new_pc_lines(self):
        m = campaign.NEW_PC.match("\tNEW_PC: 0x55b69741f361 in std::vector<int, std::allocator<int> >::push_back(int&&) "
                                  "/usr/include/c++/12/bits/stl_vector.h:1294:9")
        self.assertEqual(m.groups(), ("std::vector<int, std::allocator<int> >::push_back(int&&)",
                                      "/usr/include/c++/12/bits/stl_vector.h", "1294"))
        self.assertEqual(campaign.NEW_PC.match("\tNEW_PC: 0x5503 in (x_fuzz+0x5503)").groups(),
                         ("(x_fuzz+0x5503)", None, None))
        self.assertEqual(campaign.NEW_PC.match("\tNEW_PC: 0x5503").groups(), (None, None, None))
        self.assertIsNone(campaign.NEW_PC.match("NEW_FUNC[1/2]: 0x5503 in f /a.cpp:1"))

    def test_origins(self):
        self.assertEqual(campaign.pc_origin(os.path.join(REPO, "harness", "scenario", "matcher.cpp")),
                         os.path.join("harness", "scenario", "matcher.cpp"))
        self.assertEqual(campaign.pc_origin("/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/"
                                            "bits/regex_executor.tcc"), "libstdc++ regex_executor")
        self.assertEqual(campaign.pc_origin("/usr/include/nlohmann/detail/input/lexer.hpp"), "nlohmann")
        self.assertEqual(campaign.pc_origin("/usr/include/valijson/validation_visitor.hpp"), "valijson")
        self.assertEqual(campaign.pc_origin("/opt/other/x.cpp"), "/opt/other/x.cpp")
        self.assertEqual(campaign.pc_origin(None), "unknown (not symbolized)")
        self.assertEqual(campaign.pc_origin(None, "(x_fuzz+0x5503)"), "unknown (not symbolized)")

    def test_function_names_lose_their_template_and_argument_lists(self):
        self.assertEqual(campaign.short_function("nlohmann::detail::lexer<nlohmann::basic_json<std::map>, it<char const*> >::scan()"),
                         "nlohmann::detail::lexer<…>::scan(…)")
        self.assertEqual(campaign.short_function("void std::vector<int>::_M_realloc_insert<bool&>(__gnu_cxx::__norm"),
                         "void std::vector<…>::_M_realloc_insert<…>(…")
        self.assertEqual(campaign.short_function("_M_dispose"), "_M_dispose")

    def test_lines_cut_short_go_by_the_function_name(self):
        cut = "nlohmann::basic_json<std::map, std::vector>& std::vector<nlohmann::basic_json<std::map, std::vec"
        self.assertEqual(campaign.pc_origin(None, cut), "libstdc++ (by name: line cut short)")
        self.assertEqual(campaign.pc_origin(None, "void std::vector<int>::_M_realloc_insert<bool&>(__gnu_cxx::__norm"),
                         "libstdc++ (by name: line cut short)")
        self.assertEqual(campaign.pc_origin(None, "mcpspec::scenario::match(nlohmann::basic_json<std::map"),
                         "our code (by name: line cut short)")
        self.assertEqual(campaign.pc_origin(None, "valijson::ValidationVisitor<valijson::adapters::Nlohm"),
                         "valijson (by name: line cut short)")
        self.assertEqual(campaign.pc_origin(None, "anon_helper<int"), "unknown (line cut short)")
        self.assertEqual(campaign.pc_origin("/usr/bin/../lib/gcc/x86_64-linux-gnu/1", "std::vector<int>::push_back(int&&)"),
                         "libstdc++ (by name: line cut short)")

    def test_only_the_window_counts_by_origin_and_function(self):
        regex = "/usr/include/c++/12/bits/regex_compiler.tcc"
        pcs = [(5.0, "early", "/usr/include/valijson/v.hpp", "1"),
               (80.0, "_M_atom", regex, "312"), (85.0, "_M_atom", regex, "330"),
               (90.0, "_M_term", regex, "100"), (95.0, "ours", os.path.join(REPO, "harness", "a.cpp"), "7")]
        lc = campaign.late_coverage(pcs, 75.0)
        self.assertEqual(lc["edges"], 4)
        self.assertEqual(lc["by_origin"], [{"origin": "libstdc++ regex_compiler", "edges": 3},
                                           {"origin": os.path.join("harness", "a.cpp"), "edges": 1}])
        self.assertEqual([(f["function"], f["edges"], f["first_s"]) for f in lc["top_functions"]],
                         [("_M_atom", 2, 80.0), ("_M_term", 1, 90.0), ("ours", 1, 95.0)])
        self.assertEqual(lc["top_functions"][0]["first"], regex + ":312")
        self.assertEqual(campaign.late_coverage(pcs, 100.0)["edges"], 0)


class FuzzRun(unittest.TestCase):
    """One target's run end to end against the stand-in fuzzer: the command it gets, the
    timeline it reports, and the late edges (only those named after the corpus loaded)."""

    def run_target(self, jobs):
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        args = argparse.Namespace(out=out, resume=[], time=40, timeout=3, rss_limit_mb=100, max_len=64, jobs=jobs,
                                  merge_time=20, minimize_time=5, plateau_fraction=0.25)
        return campaign.fuzz_target(args, "no_such_target", os.path.join(HERE, "fake_fuzzer.py"), out,
                                    dict(os.environ))

    def test_single_process_names_the_late_edges(self):
        r = self.run_target(1)
        self.assertIn("-print_pcs=1", r["command"])
        self.assertEqual((r["cov"], r["execs"]), (12, 20))
        lc = r["late_coverage"]
        # The stand-in's output takes well under the 10 s window, so every edge after INITED is late.
        self.assertEqual(lc["edges"], 2)
        self.assertEqual({o["origin"] for o in lc["by_origin"]}, {"libstdc++ regex_compiler", "unknown (not symbolized)"})
        self.assertEqual(lc["window_start_s"], 0.0, "a window longer than the run starts at 0")
        report = campaign.markdown({"started": "now", "seconds": 1, "build": "b", "targets": [r],
                                    "options": {"time": 40, "jobs": 1, "timeout": 3, "rss_limit_mb": 100}})
        self.assertIn("Edges first covered in the plateau window", report)
        self.assertIn("libstdc++ regex_compiler 1", report)

    def test_fork_mode_does_not_claim_to_know(self):
        r = self.run_target(2)
        self.assertNotIn("-print_pcs=1", r["command"])
        self.assertIsNone(r["late_coverage"])


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
                "    #1 0x2 in f(int) /src/a.cpp:5:2\n"
                "    #2 0x3 in g() /src/b.cpp:9\n")
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
