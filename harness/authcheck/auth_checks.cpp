#include "harness/authcheck/auth_checks.hpp"

#include "harness/authcheck/auth_run.hpp"
#include "harness/authcheck/resource_uri.hpp"

namespace mcpspec::authcheck {

std::vector<ScenarioResult> run_auth_checks(const AuthOptions& o,
                                            const std::function<void(const ScenarioResult&)>& on_result) {
  AuthRun run(o, o.catalog ? *o.catalog : scenario::RequirementCatalog::builtin(), on_result);
  // Order matters: each check reads what the earlier ones discovered (docs/authorization.md).
  check_unauthenticated(run);
  if (!run.results.empty() && run.results.back().verdict == Verdict::Error) return run.results;  // unreachable
  check_challenge(run);
  check_prm(run);
  mint_tokens(run);  // mock-AS mode: now that PRM names the resource and its scopes
  check_invalid_tokens(run);
  check_malformed_authorization(run);
  check_token_mode(run);
  check_mock_as_rows(run);
  check_authorization_servers(run);
  check_legacy_metadata(run);
  return run.results;
}

std::string unreachable(const std::string& endpoint, int timeout_ms) {
  const UriParts u = split_uri(endpoint);
  if ((u.scheme != "http" && u.scheme != "https") || u.authority.empty())
    return "not an absolute http:// or https:// URL";
  // OPTIONS: any status proves an HTTP server answers, and no stream is opened.
  ProbeResponse r = send_probe(ProbeRequest{"OPTIONS", endpoint, {}, "", ""}, timeout_ms);
  return r.reached ? "" : "no HTTP answer (" + r.error + ")";
}

const std::vector<std::string>& judged_requirements() {
  // Rows with a check that can FAIL or WARN (in probe, token or mock-AS mode). AUTH-22 and AUTH-24
  // (2026-07-28) are not judged.
  static const std::vector<std::string> ids = {
      "AUTH-04", "AUTH-05", "AUTH-06", "AUTH-07", "AUTH-08", "AUTH-09", "AUTH-10", "AUTH-11", "AUTH-12",
      "AUTH-14", "AUTH-15", "AUTH-16", "AUTH-17", "AUTH-19", "AUTH-20", "AUTH-21", "AUTH-25", "AUTH-85", "AUTH-86", "AUTH-87",
      "AUTH-88", "AUTH-92", "AUTH-97", "AUTH-98", "AUTH-99", "AUTH-100"};
  return ids;
}

}  // namespace mcpspec::authcheck
