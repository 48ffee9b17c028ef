#pragma once
// How many scenarios may run at once, lowered while the run goes on when the target shows it
// cannot take that many parallel sessions (docs/performance.md, "Parallel scenarios").
//
// Scenarios mostly wait on the target, so the suite starts many at once; a target that cannot
// start that many processes (a lock file, one port) or accept that many connections shows it by
// failing to come up. Each such failure among others halves the limit and the scenario runs again;
// once it has failed that way running alone, the failure was its own, not the load's: the limit
// goes back up, so a target that crashes on one scenario does not slow the whole run for good.
#include <condition_variable>
#include <mutex>
#include <string>

namespace mcpspec::scenario {

class Throttle {
 public:
  explicit Throttle(int limit) : limit_(limit < 1 ? 1 : limit), ceiling_(limit_) {}

  // One scenario's time in the throttle: what ran when it entered, and how many entered before it
  // left (a process started just after this one can still win the race for a lock or a port).
  struct Slot {
    int running_at_entry = 0;
    long entered_before = 0;  // entries counted up to and including this one
  };
  // Blocks until fewer than the limit are running, then counts one more.
  Slot enter();
  // Returns how many scenarios ran alongside this one at some point while it ran, itself included:
  // those running when it entered plus those that entered after it.
  int leave(const Slot& slot);

  // A scenario that ran alongside `running` (itself included; see leave) failed to bring its target
  // up. Returns true when it is to run again (it ran among others: the load may be the cause),
  // after lowering the limit below `running`; `note` then says so, when the limit changed.
  bool failed_under_load(int running, std::string& note);
  // Such a scenario failed that way again running alone: the failure is its own. The limit goes
  // back to `limit_before`, what it was before that scenario first lowered it. After
  // kMaxOwnFailures of those the target plainly fails on its own: no more reruns in this run.
  void own_failure(int limit_before, std::string& note);
  static constexpr int kMaxOwnFailures = 3;

  int limit() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int limit_;
  const int ceiling_;
  int running_ = 0;
  long entries_ = 0;
  int own_failures_ = 0;
};

}  // namespace mcpspec::scenario
