#include "harness/run/throttle.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace mcpspec::scenario {

Throttle::Slot Throttle::enter() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return running_ < limit_; });
  return Slot{++running_, ++entries_};
}

int Throttle::leave(const Slot& slot) {
  int overlapped = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
    overlapped = slot.running_at_entry + static_cast<int>(entries_ - slot.entered_before);
  }
  changed_.notify_all();
  return overlapped;
}

bool Throttle::failed_under_load(int running, std::string& note) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (running <= 1 || own_failures_ >= kMaxOwnFailures) return false;
  // Lower than what was running when it failed, whatever the limit is by now.
  int lower = std::max(1, std::min(limit_, running / 2));
  if (lower < limit_) {
    note = fmt::format(
        "the target failed to come up with {} scenarios running in parallel: running at most {} at a time from "
        "now on (scenarios that failed that way run again)",
        running, lower);
    limit_ = lower;
  }
  return true;
}

void Throttle::own_failure(int limit_before, std::string& note) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++own_failures_;
    int back = std::max(limit_, std::min(ceiling_, limit_before));
    note = fmt::format(
        "a scenario's target failed to come up again running alone, so that was its own failure, not the load: "
        "running up to {} at a time again{}",
        back, own_failures_ >= kMaxOwnFailures ? " (and no more reruns: the target fails on its own)" : "");
    limit_ = back;
  }
  changed_.notify_all();
}

int Throttle::limit() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return limit_;
}

}  // namespace mcpspec::scenario
