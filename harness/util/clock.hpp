#pragma once
// Monotonic time and deadlines: every wait in the harness is bounded by one of these.
#include <algorithm>
#include <chrono>

namespace mcpspec {

using Clock = std::chrono::steady_clock;

class Deadline {
 public:
  static Deadline after_ms(long long ms) { return Deadline(Clock::now() + std::chrono::milliseconds(std::max(0LL, ms))); }
  static Deadline never() { return Deadline(Clock::time_point::max()); }
  explicit Deadline(Clock::time_point at) : at_(at) {}

  bool passed() const { return Clock::now() >= at_; }
  // Milliseconds left, clamped to [0, cap]; suitable for poll().
  int remaining_ms(int cap = 1 << 30) const {
    if (at_ == Clock::time_point::max()) return cap;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(at_ - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, cap));
  }
  Deadline earliest(const Deadline& other) const { return Deadline(std::min(at_, other.at_)); }
  Clock::time_point at() const { return at_; }

 private:
  Clock::time_point at_;
};

inline double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace mcpspec
