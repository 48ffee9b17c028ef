#pragma once
// `mcpspec run --url URL --auth`: the authorization checks of a server under test, as an OAuth
// resource server (AUTH-CHECKLIST §1) and of the authorization servers its protected resource
// metadata names (§3). Each check is one result, named auth/rs/... or auth/as/..., with the AUTH
// rows it judges; docs/authorization.md lists them and the modes they need:
//   probe: no token (works against any server);
//   token: tokens the user supplies (--auth-token, --auth-token-low-scope, ...);
//   mock-AS: tokens minted by the harness's own authorization server, which the server under test
//            trusts (`run --server CMD --transport http --auth` starts both; without it those rows
//            are SKIP with the reason, never PASS).
#include "harness/results/result.hpp"
#include "harness/scenario/requirements.hpp"

#include <functional>
#include <string>
#include <vector>

namespace mcpspec::auth {
class MockAuthorizationServer;
}

namespace mcpspec::authcheck {

struct AuthOptions {
  std::string endpoint;   // the MCP endpoint URL
  std::string protocol;   // the version proposed in initialize and judged against
  std::string token;                 // valid for every operation (token mode)
  std::string low_scope_token;       // valid, but lacking a scope some operation needs
  std::string other_audience_token;  // valid at some AS, but issued for another resource
  std::string expired_token;         // issued for this server, expired
  bool call_tools = true;   // may tools/call read-only tools (readOnlyHint) to provoke a 403
  int timeout_ms = 5000;
  const scenario::RequirementCatalog* catalog = nullptr;
  // Mock-AS mode: the authorization server the server under test was started to trust. Once PRM
  // is known the checks mint their tokens there (any token given above is used instead of the
  // minted one of its kind) and judge the rows only minted tokens reach.
  auth::MockAuthorizationServer* mock_as = nullptr;
};

// Runs every check that applies to `o.protocol`, calling `on_result` as each finishes.
std::vector<ScenarioResult> run_auth_checks(const AuthOptions& o,
                                            const std::function<void(const ScenarioResult&)>& on_result);

// Why the endpoint cannot be checked at all (not an http(s) URL, or no HTTP answer to OPTIONS within
// the timeout), or empty when it answers (any status).
std::string unreachable(const std::string& endpoint, int timeout_ms);

// The AUTH rows some check judges (not only skips), for `mcpspec coverage`.
const std::vector<std::string>& judged_requirements();

}  // namespace mcpspec::authcheck
