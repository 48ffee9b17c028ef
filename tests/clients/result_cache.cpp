#include "result_cache.hpp"

namespace testclient {

using nlohmann::json;

std::string ResultCache::key(const std::string& method, const json& params) const {
  if (fault_ == Fault::cache_key_method_only) return method;
  json shaping = params.is_object() ? params : json::object();
  shaping.erase("_meta");  // the version and capabilities travel in every request; they shape nothing here
  return method + " " + shaping.dump();
}

std::optional<json> ResultCache::fresh(const std::string& method, const json& params) const {
  auto it = entries_.find(key(method, params));
  if (it == entries_.end() || Clock::now() >= it->second.expires) return std::nullopt;
  return it->second.result;
}

void ResultCache::keep(const std::string& method, const json& params, const json& result) {
  if (!result.is_object() || result.value("resultType", "complete") != "complete") return;
  long long ttl = result.contains("ttlMs") && result["ttlMs"].is_number_integer() ? result["ttlMs"].get<long long>() : 0;
  if (fault_ == Fault::cache_zero_ttl_fresh && ttl <= 0) ttl = 60000;
  if (ttl <= 0) {
    entries_.erase(key(method, params));
    return;
  }
  Clock::time_point expires = fault_ == Fault::cache_never_expires ? Clock::time_point::max()
                                                                   : Clock::now() + std::chrono::milliseconds(ttl);
  entries_[key(method, params)] = {result, expires};
}

}  // namespace testclient
