#pragma once
// What a client under test did in the OAuth flow, worked out from the request log so client-auth
// scenarios can judge it with plain matchers (the `${auth.facts}` variable, docs/authorization.md):
// the discovery sequence as one string (order checks with $regex), every /authorize, /token and
// /register request, the MCP requests made after a token was issued, whether a token ever travelled
// in a URL, and the milestones a negative check needs as its positive control.
#include <nlohmann/json.hpp>

namespace mcpspec::auth {

nlohmann::json auth_facts(const nlohmann::json& log);

}  // namespace mcpspec::auth
