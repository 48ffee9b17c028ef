// Stopping one tool call from outside: a cancellation request, the call's own deadline, or the
// server shutting down. Work waits on this token instead of sleeping, so a cancel takes effect at
// once rather than after the current pause.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace speckit {

// How a call was stopped decides how it is answered: $/cancelRequest gets the document's -32002
// error, notifications/cancelled gets no answer at all (MCP), a deadline gets -32001.
enum class StopReason { CancelRequest, CancelledNotification, Shutdown };

class Stopped : public std::runtime_error {
 public:
  explicit Stopped(StopReason reason) : std::runtime_error("stopped"), reason_(reason) {}
  StopReason reason() const { return reason_; }

 private:
  StopReason reason_;
};

class DeadlineExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CancelToken {
 public:
  explicit CancelToken(std::chrono::steady_clock::time_point deadline) : deadline_(deadline) {}

  // The first reason wins: a call cancelled twice is answered once.
  void cancel(StopReason reason);
  std::optional<StopReason> reason() const;

  // Throws Stopped or DeadlineExceeded when the call must end; otherwise returns.
  void check() const;
  // Waits `pause` (or until cancelled / the deadline), then check()s.
  void pause(std::chrono::milliseconds pause) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::optional<StopReason> reason_;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace speckit
