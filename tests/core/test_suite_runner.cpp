// run_suite: parallel runs come back in input order (scenario x protocol), every result reaches
// the callback once, the baseline turns FAIL into XFAIL and PASS into XPASS, and summarize counts.
#include "tests/core/core_support.hpp"

#include "harness/results/baseline.hpp"
#include "harness/results/summary.hpp"
#include "harness/run/suite.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <mutex>
#include <set>
#include <string>

using namespace mcpspec;
using namespace mcpspec::scenario;
using mcpspec::coretest::describe;
using mcpspec::coretest::TempDir;
using nlohmann::json;

namespace {

// Scenarios without a handshake against `cat` (which never writes): quick, and each verdict is
// decided by the scenario alone.
Scenario make(const TempDir& dir, const std::string& id, const std::string& steps, const std::string& extra = "{}") {
  json doc = coretest::scenario_json(id, "PING-01", steps, extra);
  if (!json::parse(extra).contains("fixture")) doc["fixture"] = "none";
  std::string file = id;
  for (auto& c : file)
    if (c == '/') c = '_';
  return coretest::load_one(dir, doc.dump(), file + ".json");
}

const char* kPass = R"([{"sleep_ms": 1}])";
const char* kSlowPass = R"([{"sleep_ms": 400}])";
const char* kFail = R"([{"expect": {"method": "never/arrives"}, "within_ms": 100}])";
const char* kError = R"([{"send": {"id": 1, "method": "no-jsonrpc"}}])";

SuiteOptions options(int jobs) {
  SuiteOptions o;
  o.config = coretest::run_config("cat");
  o.config.startup_timeout_ms = 100;  // `cat` never speaks: do not stretch the waits for its start-up
  o.protocols = {"2025-03-26", "2025-06-18"};
  o.jobs = jobs;
  return o;
}

}  // namespace

TEST_CASE("suite: results come back in input order, whatever finishes first", "[core][suite]") {
  TempDir dir;
  std::vector<Scenario> scenarios;
  // Slow ones first, so with 4 workers the later, quicker ones finish earlier.
  scenarios.push_back(make(dir, "core/suite/a-slow", kSlowPass));
  scenarios.push_back(make(dir, "core/suite/b-slow", kSlowPass));
  scenarios.push_back(make(dir, "core/suite/c-fail", kFail));
  scenarios.push_back(make(dir, "core/suite/d-pass", kPass));
  scenarios.push_back(make(dir, "core/suite/e-error", kError));
  scenarios.push_back(make(dir, "core/suite/f-skip", kPass, R"({"protocol": "2025-06-18"})"));
  scenarios.push_back(make(dir, "core/suite/g-pass", kPass));
  auto o = options(4);
  std::multiset<std::string> reported;
  o.on_result = [&](const ScenarioResult& r) { reported.insert(r.id + "@" + r.protocol); };
  auto results = run_suite(scenarios, o);

  REQUIRE(results.size() == scenarios.size() * 2);
  for (std::size_t i = 0; i < results.size(); ++i) {
    INFO("result " << i << ": " << describe(results[i]));
    CHECK(results[i].id == scenarios[i % scenarios.size()].id);
    CHECK(results[i].protocol == o.protocols[i / scenarios.size()]);
  }
  // Each case reached the callback exactly once.
  CHECK(reported.size() == results.size());
  for (const auto& r : results) CHECK(reported.count(r.id + "@" + r.protocol) == 1);

  std::map<std::string, Verdict> first_pass;
  for (std::size_t i = 0; i < scenarios.size(); ++i) first_pass[results[i].id] = results[i].verdict;
  CHECK(first_pass["core/suite/a-slow"] == Verdict::Pass);
  CHECK(first_pass["core/suite/c-fail"] == Verdict::Fail);
  CHECK(first_pass["core/suite/e-error"] == Verdict::Error);
  CHECK(first_pass["core/suite/f-skip"] == Verdict::Skip);  // 2025-03-26 is outside its range
  CHECK(results[scenarios.size() + 5].verdict == Verdict::Pass);  // and 2025-06-18 inside

  auto sum = summarize(results, false);
  CHECK(sum.total() == 14);
  CHECK(sum.pass == 4 * 2 + 1);
  CHECK(sum.fail == 2);
  CHECK(sum.error == 2);
  CHECK(sum.skip == 1);
  CHECK(sum.warn == 0);
  CHECK(sum.failed());
}

TEST_CASE("suite: one job and four jobs give the same verdicts", "[core][suite]") {
  TempDir dir;
  std::vector<Scenario> scenarios = {make(dir, "core/suite/p", kPass), make(dir, "core/suite/f", kFail),
                                     make(dir, "core/suite/e", kError)};
  auto serial = run_suite(scenarios, options(1));
  auto parallel = run_suite(scenarios, options(4));
  REQUIRE(serial.size() == parallel.size());
  for (std::size_t i = 0; i < serial.size(); ++i) {
    CHECK(serial[i].id == parallel[i].id);
    CHECK(serial[i].verdict == parallel[i].verdict);
  }
  // More workers than cases, and no cases at all.
  auto many = options(64);
  CHECK(run_suite(scenarios, many).size() == 6);
  CHECK(run_suite({}, options(4)).empty());
}

TEST_CASE("suite: with several jobs, scenarios with long declared waits start first", "[core][suite]") {
  TempDir dir;
  // Each scenario names itself in its target's environment, so the target factory sees the start
  // order. In id order the waiting ones would start last; started first, they overlap the rest.
  auto named = [&](const std::string& id, const std::string& steps) {
    return make(dir, id, steps, R"({"env": {"MCPSPEC_TEST_WHO": ")" + id + R"("}})");
  };
  std::vector<Scenario> scenarios = {
      named("core/suite/a-quick", kPass), named("core/suite/b-quick", kPass),
      named("core/suite/c-window", R"([{"foreach": "${nothing}", "as": "x", "steps": [{"sleep_ms": 1}]},
                                       {"expect_silence_ms": 300}])"),
      named("core/suite/d-pause", R"([{"sleep_ms": 250}])")};
  auto o = options(2);
  o.protocols = {"2025-06-18"};
  std::vector<std::string> started;
  std::mutex mu;
  o.config.target.make = [&, inner = o.config.target.make](const std::string& wd,
                                                            const std::map<std::string, std::string>& env) {
    {
      std::lock_guard<std::mutex> lock(mu);
      auto it = env.find("MCPSPEC_TEST_WHO");
      started.push_back(it == env.end() ? "?" : it->second);
    }
    return inner(wd, env);
  };
  auto results = run_suite(scenarios, o);
  REQUIRE(results.size() == 4);
  CHECK(results[0].id == "core/suite/a-quick");  // results keep scenario order
  CHECK(results[2].id == "core/suite/c-window");
  // Two workers: both waiting scenarios are taken before either quick one.
  REQUIRE(started.size() == 4);
  CHECK(std::set<std::string>{started[0], started[1]} ==
        std::set<std::string>{"core/suite/c-window", "core/suite/d-pause"});

  // One job keeps the plain order.
  started.clear();
  o.jobs = 1;
  run_suite(scenarios, o);
  CHECK(started == std::vector<std::string>{"core/suite/a-quick", "core/suite/b-quick", "core/suite/c-window",
                                            "core/suite/d-pause"});
}

TEST_CASE("suite: the baseline turns FAIL into XFAIL and PASS into XPASS", "[core][suite][baseline]") {
  TempDir dir;
  std::vector<Scenario> scenarios = {make(dir, "core/base/fails", kFail), make(dir, "core/base/passes", kPass),
                                     make(dir, "core/base/untouched", kFail)};
  Baseline baseline = Baseline::from_json(json::parse(R"({"format": "mcpspec-baseline", "version": 1,
      "expected_failures": [
        {"id": "core/base/fails", "reason": "known bug 17"},
        {"id": "core/base/passes", "protocol": "2025-06-18", "reason": "was broken once"},
        {"id": "core/base/never-run", "reason": "stale"}]})"),
                                          "test-baseline");
  auto o = options(4);
  o.baseline = &baseline;
  auto results = run_suite(scenarios, o);
  REQUIRE(results.size() == 6);
  // 2025-03-26 pass
  CHECK(results[0].verdict == Verdict::XFail);
  CHECK(results[0].reason == "known bug 17");
  CHECK(results[1].verdict == Verdict::Pass);  // its entry names only 2025-06-18
  CHECK(results[2].verdict == Verdict::Fail);
  // 2025-06-18 pass
  CHECK(results[3].verdict == Verdict::XFail);
  CHECK(results[4].verdict == Verdict::XPass);
  CHECK(results[4].reason == "was broken once");
  CHECK(results[5].verdict == Verdict::Fail);

  auto sum = summarize(results, false);
  CHECK(sum.xfail == 2);
  CHECK(sum.xpass == 1);
  CHECK(sum.fail == 2);
  CHECK(sum.pass == 1);
  CHECK(sum.failed());
  CHECK(baseline.stale() == std::vector<std::string>{"core/base/never-run [any protocol]"});
}

TEST_CASE("suite: summarize counts every verdict and knows when a run failed", "[core][suite]") {
  auto with = [](std::initializer_list<Verdict> vs) {
    std::vector<ScenarioResult> out;
    for (auto v : vs) {
      ScenarioResult r;
      r.verdict = v;
      out.push_back(r);
    }
    return out;
  };
  auto all = summarize(with({Verdict::Pass, Verdict::Pass, Verdict::Fail, Verdict::Warn, Verdict::Skip,
                             Verdict::XFail, Verdict::XPass, Verdict::Error}),
                       false);
  CHECK(all.pass == 2);
  CHECK(all.fail == 1);
  CHECK(all.warn == 1);
  CHECK(all.skip == 1);
  CHECK(all.xfail == 1);
  CHECK(all.xpass == 1);
  CHECK(all.error == 1);
  CHECK(all.total() == 8);

  CHECK_FALSE(summarize({}, false).failed());
  CHECK_FALSE(summarize(with({Verdict::Pass, Verdict::Skip, Verdict::XFail, Verdict::Warn}), false).failed());
  CHECK(summarize(with({Verdict::Pass, Verdict::Warn}), true).failed());  // strict: WARN fails
  CHECK(summarize(with({Verdict::XPass}), false).failed());
  CHECK(summarize(with({Verdict::Error}), false).failed());
  CHECK(summarize(with({Verdict::Fail}), false).failed());
  CHECK(summarize(with({Verdict::Warn}), true).strict);
}
