#include "harness/run/suite.hpp"

#include "harness/results/baseline.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/scenario/step_table.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace mcpspec::scenario {

namespace {

// The waits a scenario's steps declare outright (observation windows, pauses, HTTP read windows),
// in ms, foreach bodies counted once. Those are spent however fast the target is, so such
// scenarios start first: with --jobs their windows then overlap the rest of the run instead of
// trailing after it.
long long declared_wait_ms(const Scenario& s) {
  long long total = 0;
  auto add = [&](const nlohmann::json& step) { total += declared_wait_ms_of(step); };
  for_each_step(s.fixture_steps, add);
  for_each_step(s.steps, add);
  return total;
}

}  // namespace

std::vector<ScenarioResult> run_suite(const std::vector<Scenario>& scenarios, const SuiteOptions& o) {
  struct Job {
    const Scenario* scenario;
    std::string protocol;
  };
  std::vector<Job> jobs;
  for (const auto& v : o.protocols)
    for (const auto& s : scenarios) jobs.push_back({&s, v});
  std::vector<ScenarioResult> results(jobs.size());
  // Start order only: results stay in scenario order.
  std::vector<std::size_t> order(jobs.size());
  std::vector<long long> waits(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    order[i] = i;
    waits[i] = declared_wait_ms(*jobs[i].scenario);
  }
  // One job gains nothing from overlap: keep the plain order (and a plainly ordered console).
  if (o.jobs > 1)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return waits[a] > waits[b]; });
  std::atomic<std::size_t> next{0};
  std::mutex report_mutex;
  auto worker = [&] {
    for (;;) {
      std::size_t n = next.fetch_add(1);
      if (n >= jobs.size()) return;
      std::size_t i = order[n];
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

}  // namespace mcpspec::scenario
