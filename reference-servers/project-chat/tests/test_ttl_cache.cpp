#include "ttl_cache.hpp"

#include <catch2/catch.hpp>

using project_chat::TtlCache;
using std::chrono::milliseconds;

TEST_CASE("cache entries live for the TTL, then are dropped", "[cache]") {
  auto now = TtlCache<int>::Clock::time_point{};
  TtlCache<int> cache(milliseconds(500), [&] { return now; });
  CHECK_FALSE(cache.get("a").has_value());
  cache.put("a", 1);
  now += milliseconds(499);
  CHECK(cache.get("a") == 1);
  now += milliseconds(1);
  CHECK_FALSE(cache.get("a").has_value());
  CHECK(cache.size() == 0);
}

TEST_CASE("clear empties the cache, a TTL of 0 caches nothing", "[cache]") {
  TtlCache<int> cache(milliseconds(10000));
  cache.put("a", 1);
  cache.put("b", 2);
  cache.clear();
  CHECK(cache.size() == 0);
  TtlCache<int> off(milliseconds(0));
  off.put("a", 1);
  CHECK_FALSE(off.get("a").has_value());
}
