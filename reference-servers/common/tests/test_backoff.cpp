#include "mcpref/backoff.hpp"

#include <catch2/catch.hpp>

using mcpref::Backoff;
using mcpref::BackoffPolicy;
using std::chrono::milliseconds;

namespace {
BackoffPolicy policy(int initial, double factor, int max_delay, double jitter, int retries) {
  BackoffPolicy p;
  p.initial = milliseconds(initial);
  p.factor = factor;
  p.max_delay = milliseconds(max_delay);
  p.jitter = jitter;
  p.max_retries = retries;
  return p;
}
}  // namespace

TEST_CASE("backoff doubles from the initial delay and stops after max_retries", "[backoff]") {
  Backoff b(policy(100, 2.0, 10000, 0.25, 4), [] { return 0.0; });
  CHECK(b.next() == milliseconds(100));
  CHECK(b.next() == milliseconds(200));
  CHECK(b.next() == milliseconds(400));
  CHECK(b.next() == milliseconds(800));
  CHECK_FALSE(b.next().has_value());
  CHECK(b.retries() == 4);
  b.reset();
  CHECK(b.next() == milliseconds(100));
}

TEST_CASE("backoff jitter adds at most its fraction and never goes below the base", "[backoff]") {
  Backoff high(policy(100, 2.0, 10000, 0.25, 3), [] { return 0.999999; });
  CHECK(high.next() == milliseconds(125));
  CHECK(high.next() == milliseconds(250));
  Backoff half(policy(100, 2.0, 10000, 0.5, 1), [] { return 0.5; });
  CHECK(half.next() == milliseconds(125));
}

TEST_CASE("backoff delays are capped at max_delay (plus jitter)", "[backoff]") {
  Backoff b(policy(500, 3.0, 1000, 0.1, 5), [] { return 1.0; });
  CHECK(b.next() == milliseconds(550));
  CHECK(b.next() == milliseconds(1100));
  CHECK(b.next() == milliseconds(1100));
}

TEST_CASE("backoff clamps nonsensical settings instead of trusting them", "[backoff]") {
  Backoff b(policy(100, 0.5, 50, -1.0, -2), [] { return 0.7; });
  CHECK_FALSE(b.next().has_value());  // negative retries: none
  Backoff c(policy(100, 0.5, 50, 3.0, 2), [] { return 0.0; });
  CHECK(c.next() == milliseconds(100));  // factor below 1 is taken as 1, max_delay raised to initial
  CHECK(c.next() == milliseconds(100));
}

TEST_CASE("the default random source stays within the bounds", "[backoff]") {
  Backoff b(policy(40, 2.0, 1000, 0.25, 3));
  for (int base : {40, 80, 160}) {
    auto d = b.next();
    REQUIRE(d.has_value());
    CHECK(d->count() >= base);
    CHECK(d->count() <= base * 5 / 4);
  }
}
