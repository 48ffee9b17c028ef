#pragma once
// What the authorization checks share while they run: the options, the catalog of the run's
// version, the results so far, and what earlier checks discovered (the 401 and its challenge, the
// request the server protects, the PRM document, the issuers it names).
#include "harness/auth/www_authenticate.hpp"
#include "harness/authcheck/auth_checks.hpp"
#include "harness/authcheck/check_result.hpp"
#include "harness/authcheck/mcp_post.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mcpspec::authcheck {

struct AuthRun {
  AuthRun(const AuthOptions& options, const scenario::RequirementCatalog& cat,
          std::function<void(const ScenarioResult&)> report)
      : o(options), catalog(cat), on_result(std::move(report)) {}

  AuthOptions o;  // a copy: mock-AS mode fills in the tokens it mints
  const scenario::RequirementCatalog& catalog;
  std::function<void(const ScenarioResult&)> on_result;
  std::vector<ScenarioResult> results;

  // Discovered by the unauthenticated probe.
  std::optional<ProbeResponse> unauthorized;  // the first 401
  nlohmann::json protected_body;              // the request that got it
  bool initialize_open = false;               // initialize answered without a token
  std::optional<auth::Challenge> bearer;      // the 401's Bearer challenge
  // Discovered from protected resource metadata.
  std::string prm_url;
  nlohmann::json prm;  // null when none was found
  bool prm_at_root = false;
  // The token-mode control passed: the server accepts --auth-token.
  bool token_accepted = false;
  nlohmann::json tools = nlohmann::json::array();  // tools/list with the valid token
  // Mock-AS mode: the tokens only the harness's AS can make, by what is wrong with them
  // ("no audience", "foreign issuer", ...), each one the server must refuse.
  struct MintedNegative {
    std::string what, requirement, token;
  };
  std::vector<MintedNegative> minted_negatives;
  std::string resource;  // the audience minted tokens carry: PRM's resource, else the endpoint
  std::vector<std::string> low_scopes;  // the scopes of the minted low-scope token
  // Operations the low-scope token got 403 for, with the WWW-Authenticate header of the refusal.
  std::vector<std::pair<nlohmann::json, std::string>> scope_refusals;

  bool applies(const std::string& requirement) const { return catalog.find(o.protocol, requirement).has_value(); }
  // A check over the rows of `requirements` that exist in this version.
  CheckResult start(const std::string& id, const std::string& title, const std::vector<std::string>& requirements) const;
  // Reports the check (unless none of its rows exists in this version).
  void finish(CheckResult& check);
  // When no 401 was seen: the check is reported as SKIP and true returned.
  bool skipped_without_401(CheckResult& check);
  // A session to the endpoint in the run's version.
  McpPost mcp() const { return McpPost{o.endpoint, o.protocol, o.timeout_ms, ""}; }
  // Sends the protected request with this Authorization value (a fresh session first when
  // initialize is open, so the request is the one the server guards).
  ProbeResponse send_protected(CheckResult& check, const std::string& authorization,
                               const std::vector<std::pair<std::string, std::string>>& extra = {},
                               const std::string& query = "") const;
};

// The requests a token is tried with: tools/list, and tools/call of each read-only tool (not with
// --call-tools none); label() names one in a finding ("tools/call echo").
std::vector<nlohmann::json> operations(const AuthRun& run);
std::string label(const nlohmann::json& body);
// A 2xx answer carrying a JSON-RPC result: the request was served.
bool ok_with_result(const ProbeResponse& r);
std::string status_text(const ProbeResponse& r);  // "401", or "no answer (why)"

void check_unauthenticated(AuthRun& run);
void check_challenge(AuthRun& run);
void check_prm(AuthRun& run);
void check_invalid_tokens(AuthRun& run);
void check_malformed_authorization(AuthRun& run);
void mint_tokens(AuthRun& run);  // mock-AS mode: fills o.token... and minted_negatives
void check_token_mode(AuthRun& run);
void check_mock_as_rows(AuthRun& run);
void check_authorization_servers(AuthRun& run);
void check_legacy_metadata(AuthRun& run);  // 2025-03-26: the MCP server is the AS

}  // namespace mcpspec::authcheck
