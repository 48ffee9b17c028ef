#include "mcpref/backoff.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

namespace mcpref {

namespace {

Backoff::Random default_random() {
  auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
  return [engine] { return std::uniform_real_distribution<double>(0.0, 1.0)(*engine); };
}

}  // namespace

Backoff::Backoff(BackoffPolicy policy, Random random)
    : policy_(policy), random_(random ? std::move(random) : default_random()) {
  // Out-of-range settings are clamped rather than trusted: a factor below 1 would shrink the
  // delays, a negative jitter could make them negative.
  policy_.factor = std::max(1.0, policy_.factor);
  policy_.jitter = std::clamp(policy_.jitter, 0.0, 1.0);
  policy_.initial = std::max(std::chrono::milliseconds(0), policy_.initial);
  policy_.max_delay = std::max(policy_.initial, policy_.max_delay);
  policy_.max_retries = std::max(0, policy_.max_retries);
}

std::optional<std::chrono::milliseconds> Backoff::next() {
  if (retries_ >= policy_.max_retries) return std::nullopt;
  double base = static_cast<double>(policy_.initial.count()) * std::pow(policy_.factor, retries_);
  base = std::min(base, static_cast<double>(policy_.max_delay.count()));
  double u = std::clamp(random_(), 0.0, 1.0);
  ++retries_;
  return std::chrono::milliseconds(static_cast<long long>(std::llround(base * (1.0 + policy_.jitter * u))));
}

}  // namespace mcpref
