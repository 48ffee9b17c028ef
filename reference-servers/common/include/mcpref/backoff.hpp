// Bounded exponential backoff with jitter: how long a client waits before its next attempt at
// something that failed (restarting a server, resending a request), and when it gives up.
#pragma once

#include <chrono>
#include <functional>
#include <optional>

namespace mcpref {

struct BackoffPolicy {
  // Delay before the first retry; each later one is `factor` times the one before, up to
  // `max_delay`. Then up to `jitter` of that delay is added at random (0.25: up to +25 %), so
  // clients that failed together do not all come back at the same instant. The un-jittered
  // delay is therefore a lower bound a test can rely on, and max_delay * (1 + jitter) an upper one.
  std::chrono::milliseconds initial{100};
  double factor = 2.0;
  std::chrono::milliseconds max_delay{2000};
  double jitter = 0.25;
  // Retries allowed after the first attempt (0: never retry).
  int max_retries = 4;
};

class Backoff {
 public:
  // Uniform random numbers in [0, 1). Injected so tests are deterministic; the default draws
  // from a generator seeded by std::random_device.
  using Random = std::function<double()>;

  explicit Backoff(BackoffPolicy policy = {}, Random random = {});

  // The delay to wait before the next retry, or nullopt once max_retries have been handed out.
  std::optional<std::chrono::milliseconds> next();
  // Retries handed out since construction or reset().
  int retries() const { return retries_; }
  // After a success: the next failure starts again from `initial`.
  void reset() { retries_ = 0; }
  const BackoffPolicy& policy() const { return policy_; }

 private:
  BackoffPolicy policy_;
  Random random_;
  int retries_ = 0;
};

}  // namespace mcpref
