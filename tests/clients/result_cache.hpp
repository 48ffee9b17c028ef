// The test client's cache of 2026-07-28 results (list requests), as the caching hints allow: a
// complete result with ttlMs > 0 is fresh for that long after receipt, one with ttlMs 0, absent or
// negative is stale at once (CACHE-06); the key is the method and every param that shapes the
// result, i.e. all of params except _meta (CACHE-04). Three faults break those rules on purpose.
#pragma once

#include "faults.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <optional>
#include <string>

namespace testclient {

class ResultCache {
 public:
  explicit ResultCache(Fault fault) : fault_(fault) {}
  // The fresh cached result of this request, if any.
  std::optional<nlohmann::json> fresh(const std::string& method, const nlohmann::json& params) const;
  // Keeps a complete result for as long as its ttlMs says.
  void keep(const std::string& method, const nlohmann::json& params, const nlohmann::json& result);

 private:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    nlohmann::json result;
    Clock::time_point expires;
  };
  std::string key(const std::string& method, const nlohmann::json& params) const;

  Fault fault_;
  std::map<std::string, Entry> entries_;
};

}  // namespace testclient
