#include "harness/scenario/suite.hpp"

#include "harness/scenario/baseline.hpp"

#include <atomic>
#include <mutex>
#include <thread>

namespace mcpspec::scenario {

std::vector<ScenarioResult> run_suite(const std::vector<Scenario>& scenarios, const SuiteOptions& o) {
  struct Job {
    const Scenario* scenario;
    std::string protocol;
  };
  std::vector<Job> jobs;
  for (const auto& v : o.protocols)
    for (const auto& s : scenarios) jobs.push_back({&s, v});
  std::vector<ScenarioResult> results(jobs.size());
  std::atomic<std::size_t> next{0};
  std::mutex report_mutex;
  auto worker = [&] {
    for (;;) {
      std::size_t i = next.fetch_add(1);
      if (i >= jobs.size()) return;
      RunConfig cfg = o.config;
      cfg.proposed_version = jobs[i].protocol;
      ScenarioResult r = run_scenario(*jobs[i].scenario, cfg);
      if (o.baseline) apply_baseline(r, o.strict, *o.baseline);
      {
        std::lock_guard<std::mutex> lock(report_mutex);
        if (o.on_result) o.on_result(r);
      }
      results[i] = std::move(r);
    }
  };
  int n = std::max(1, std::min<int>(o.jobs, static_cast<int>(jobs.size())));
  std::vector<std::thread> threads;
  for (int t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  return results;
}

RunSummary summarize(const std::vector<ScenarioResult>& results, bool strict) {
  RunSummary s;
  s.strict = strict;
  for (const auto& r : results) {
    switch (r.verdict) {
      case Verdict::Pass: ++s.pass; break;
      case Verdict::Fail: ++s.fail; break;
      case Verdict::Warn: ++s.warn; break;
      case Verdict::Skip: ++s.skip; break;
      case Verdict::XFail: ++s.xfail; break;
      case Verdict::XPass: ++s.xpass; break;
      case Verdict::Error: ++s.error; break;
    }
  }
  return s;
}

}  // namespace mcpspec::scenario
