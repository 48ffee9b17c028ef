#pragma once
// Events produced by background reader threads (one per HTTP stream) and consumed by receive().
#include "harness/transport/transport.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>

namespace mcpspec::transport::http {

class EventQueue {
 public:
  void push(Event e) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (q_.size() >= kMax) {
        // A flood of events the scenario never reads must not exhaust memory.
        if (dropped_++ == 0) q_.push_back(Event{Event::Type::Stderr, "transport: event queue full, dropping events", {}});
        return;
      }
      q_.push_back(std::move(e));
    }
    cv_.notify_all();
  }
  Event pop(Deadline deadline) {
    std::unique_lock<std::mutex> lock(mu_);
    while (q_.empty()) {
      if (deadline.passed()) return Event{};
      if (deadline.at() == Clock::time_point::max()) cv_.wait_for(lock, std::chrono::seconds(1));
      else cv_.wait_until(lock, deadline.at());
    }
    Event e = std::move(q_.front());
    q_.pop_front();
    return e;
  }

 private:
  static constexpr std::size_t kMax = 100000;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Event> q_;
  std::size_t dropped_ = 0;
};

}  // namespace mcpspec::transport::http
