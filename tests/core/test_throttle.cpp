// The suite's back-off (run/throttle.hpp, run/startup_failure.hpp): which results count as a target
// that never came up, and how the limit on parallel scenarios moves. The end-to-end proof with a
// real one-at-a-time server is tests/e2e/parallel_backoff.py.
#include "harness/run/startup_failure.hpp"
#include "harness/run/throttle.hpp"
#include "harness/scenario/session.hpp"

#include <catch2/catch.hpp>

using namespace mcpspec;
using scenario::Throttle;

namespace {

ScenarioResult result(Verdict v, std::vector<WireEntry> wire, std::string reason = "") {
  ScenarioResult r;
  r.verdict = v;
  r.wire = std::move(wire);
  r.reason = std::move(reason);
  return r;
}

WireEntry event(const std::string& text) { return {0, WireEntry::Dir::Event, text}; }
WireEntry in(const std::string& text) { return {0, WireEntry::Dir::In, text}; }

}  // namespace

TEST_CASE("back-off: a target whose process ended without a word never came up", "[core][suite]") {
  std::string ended = std::string(scenario::kTargetEndedEvent) + "exit code 1";
  CHECK(scenario::target_never_came_up(result(Verdict::Fail, {event("spawned pid 7"), event(ended)})));
  CHECK(scenario::target_never_came_up(
      result(Verdict::Error, {event("connecting")}, "could not start the target: connection refused")));
}

TEST_CASE("back-off: a failure in which the target spoke or stayed is its own", "[core][suite]") {
  std::string ended = std::string(scenario::kTargetEndedEvent) + "exit code 1";
  // It answered something before it ended.
  CHECK_FALSE(scenario::target_never_came_up(result(Verdict::Fail, {in("{\"id\":1}"), event(ended)})));
  // It never answered but stayed (an HTTP server refusing with a status).
  CHECK_FALSE(scenario::target_never_came_up(result(Verdict::Fail, {event("wait ended early")})));
  // Verdicts that are not failures, and a scenario that never started.
  CHECK_FALSE(scenario::target_never_came_up(result(Verdict::Pass, {event(ended)})));
  CHECK_FALSE(scenario::target_never_came_up(result(Verdict::Skip, {event(ended)})));
  CHECK_FALSE(scenario::target_never_came_up(result(Verdict::Error, {}, "the run's --deadline passed")));
}

TEST_CASE("back-off: failures among others halve the limit, alone they are the scenario's own", "[core][suite]") {
  Throttle t(16);
  std::string note;
  CHECK_FALSE(t.failed_under_load(1, note));  // it ran alone: nothing to blame on the load
  CHECK(t.limit() == 16);
  CHECK(t.failed_under_load(16, note));
  CHECK(t.limit() == 8);
  CHECK(note.find("running at most 8") != std::string::npos);
  note.clear();
  CHECK(t.failed_under_load(3, note));  // below what was running then, whatever the limit is
  CHECK(t.limit() == 1);
  note.clear();
  t.own_failure(16, note);  // it failed again alone: the limit goes back
  CHECK(t.limit() == 16);
  CHECK(note.find("its own failure") != std::string::npos);
}

TEST_CASE("back-off: after three failures of its own the target gets no more reruns", "[core][suite]") {
  Throttle t(4);
  std::string note;
  for (int i = 0; i < Throttle::kMaxOwnFailures; ++i) {
    REQUIRE(t.failed_under_load(4, note));
    t.own_failure(4, note);
  }
  CHECK(note.find("no more reruns") != std::string::npos);
  CHECK_FALSE(t.failed_under_load(4, note));
  CHECK(t.limit() == 4);
}

TEST_CASE("back-off: enter counts what runs, up to the limit", "[core][suite]") {
  Throttle t(2);
  Throttle::Slot a = t.enter();
  CHECK(a.running_at_entry == 1);
  Throttle::Slot b = t.enter();
  CHECK(b.running_at_entry == 2);
  CHECK(t.leave(b) == 2);
  Throttle::Slot c = t.enter();
  CHECK(c.running_at_entry == 2);
  CHECK(t.leave(c) == 2);
  CHECK(t.leave(a) == 3);  // b and c both ran while a did
}

TEST_CASE("back-off: one that entered alone but had company before it left did not run alone", "[core][suite]") {
  // The race the e2e test met: a scenario starts alone, the next one starts a moment later and its
  // process takes the lock first. The first one's failure is the load's, not its own.
  Throttle t(8);
  Throttle::Slot first = t.enter();
  REQUIRE(first.running_at_entry == 1);
  Throttle::Slot second = t.enter();
  CHECK(t.leave(first) == 2);
  CHECK(t.leave(second) == 2);
  Throttle::Slot alone = t.enter();
  CHECK(t.leave(alone) == 1);
}
