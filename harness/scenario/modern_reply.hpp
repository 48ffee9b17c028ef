#pragma once
// What the harness, playing a 2026-07-28 server, adds to the results a client-role scenario writes,
// so that scenarios state only what they test: resultType "complete" on every result of a modern
// request, and the caching hints (ttlMs 0, cacheScope "private": never an invitation to cache) on
// the results that must carry them. A scenario that writes either member keeps its own value; a
// reply marked "invalid" is sent exactly as written (how a scenario omits resultType on purpose).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mcpspec::scenario {

// True for the methods whose complete results carry ttlMs and cacheScope (server/discover, the
// four lists, resources/read).
bool is_cacheable_method(const std::string& method);

// `result` completed for an answer to a modern request of `method`.
nlohmann::json complete_modern_result(nlohmann::json result, const std::string& method);

// The DiscoverResult the harness answers server/discover with.
nlohmann::json discover_result(const std::vector<std::string>& versions, const nlohmann::json& capabilities,
                               const std::string& mcpspec_version);

}  // namespace mcpspec::scenario
