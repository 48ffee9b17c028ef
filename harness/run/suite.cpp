#include "harness/run/suite.hpp"

#include "harness/results/baseline.hpp"
#include "harness/run/startup_failure.hpp"
#include "harness/run/throttle.hpp"
#include "harness/scenario/handshake_memo.hpp"
#include "harness/scenario/step_support.hpp"
#include "harness/scenario/step_table.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace mcpspec::scenario {

namespace {

// How long a scenario may spend waiting on the target, in ms, foreach bodies counted once: the
// waits its steps declare outright (observation windows, pauses, HTTP read windows), which are
// spent however fast the target is, plus every wait a step allows beyond the run's default
// (within_ms: a tool call given 30 s, a progress notification given 20 s), where the scenario
// expects a slow target. Such scenarios start first: with --jobs their waits then overlap the rest
// of the run (and each other) instead of trailing after it.
long long start_weight(const Scenario& s, int default_wait_ms) {
  long long total = 0;
  auto add = [&](const nlohmann::json& step) {
    total += declared_wait_ms_of(step);
    long long allowed = step_ms(step, "within_ms");
    if (allowed > default_wait_ms) total += allowed;
  };
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
    waits[i] = start_weight(*jobs[i].scenario, o.config.timeout_ms);
  }
  // One job gains nothing from overlap: keep the plain order (and a plainly ordered console).
  if (o.jobs > 1)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return waits[a] > waits[b]; });
  // Work list: the start order, then reruns of scenarios whose target never came up under load.
  // A worker with nothing to take waits while others run: one of them may still queue a rerun.
  std::mutex work_mutex;
  std::condition_variable work_changed;
  std::size_t next = 0;
  int in_flight = 0;
  std::vector<std::size_t> reruns;
  std::vector<int> lowered_from(jobs.size(), 0);  // the limit before this scenario lowered it (0: it did not)
  auto take = [&](std::size_t& i) {
    std::unique_lock<std::mutex> lock(work_mutex);
    work_changed.wait(lock, [&] { return !reruns.empty() || next < jobs.size() || in_flight == 0; });
    if (!reruns.empty()) {
      i = reruns.back();
      reruns.pop_back();
    } else if (next < jobs.size()) {
      i = order[next++];
    } else {
      return false;
    }
    ++in_flight;
    return true;
  };
  auto done = [&](std::size_t i, bool again) {
    {
      std::lock_guard<std::mutex> lock(work_mutex);
      if (again) reruns.push_back(i);
      --in_flight;
    }
    work_changed.notify_all();
  };
  Throttle throttle(o.jobs);
  std::mutex report_mutex;
  auto note = [&](const std::string& text) {
    if (text.empty() || !o.on_note) return;
    std::lock_guard<std::mutex> lock(report_mutex);
    o.on_note(text);
  };
  // One memo for the run: a scenario whose SKIP an earlier handshake decided is not started.
  auto handshakes = o.config.handshakes ? o.config.handshakes : std::make_shared<HandshakeMemo>();
  auto worker = [&] {
    std::size_t i = 0;
    while (take(i)) {
      RunConfig cfg = o.config;
      cfg.handshakes = handshakes;
      cfg.proposed_version = jobs[i].protocol;
      int limit_before = throttle.limit();
      Throttle::Slot slot = throttle.enter();
      ScenarioResult r = run_scenario(*jobs[i].scenario, cfg);
      int running = throttle.leave(slot);
      if (target_never_came_up(r)) {
        std::string text;
        if (throttle.failed_under_load(running, text)) {
          if (lowered_from[i] == 0) lowered_from[i] = limit_before;
          note(text);
          done(i, true);
          continue;
        }
        if (lowered_from[i] > 0) throttle.own_failure(lowered_from[i], text);
        note(text);
      }
      if (o.baseline) apply_baseline(r, o.strict, *o.baseline);
      {
        std::lock_guard<std::mutex> lock(report_mutex);
        if (o.on_result) o.on_result(r);
      }
      results[i] = std::move(r);
      done(i, false);
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
