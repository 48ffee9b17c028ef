#include "cancellation.hpp"

namespace speckit {

void CancelToken::cancel(StopReason reason) {
  {
    std::lock_guard lock(mutex_);
    if (!reason_) reason_ = reason;
  }
  changed_.notify_all();
}

std::optional<StopReason> CancelToken::reason() const {
  std::lock_guard lock(mutex_);
  return reason_;
}

void CancelToken::check() const {
  std::lock_guard lock(mutex_);
  if (reason_) throw Stopped(*reason_);
  if (std::chrono::steady_clock::now() >= deadline_) throw DeadlineExceeded("deadline passed");
}

void CancelToken::pause(std::chrono::milliseconds pause) const {
  {
    std::unique_lock lock(mutex_);
    auto until = std::min(std::chrono::steady_clock::now() + pause, deadline_);
    changed_.wait_until(lock, until, [&] { return reason_.has_value(); });
  }
  check();
}

}  // namespace speckit
