// The server under test as an OAuth resource server, with tokens the user supplies (token mode):
// the valid token works on every request, the query string is no way in, a low-scope token gets
// 403 insufficient_scope, a token for another audience is refused. The rows only tokens minted by
// the harness's own authorization server reach are in minted_tokens.cpp.
#include "harness/auth/mock_as.hpp"
#include "harness/authcheck/auth_run.hpp"

#include <fmt/format.h>

namespace mcpspec::authcheck {

using nlohmann::json;

bool ok_with_result(const ProbeResponse& r) { return r.reached && r.status / 100 == 2 && r.has_result(); }

std::string status_text(const ProbeResponse& r) {
  return r.reached ? std::to_string(r.status) : "no answer (" + r.error + ")";
}

std::vector<json> operations(const AuthRun& run) {
  std::vector<json> out = {request_body("tools/list", json::object(), 2)};
  int id = 3;
  if (run.o.call_tools)
    for (const auto& t : run.tools)
      if (t.is_object() && t.contains("name") && t["name"].is_string() &&
          t.value("annotations", json::object()).value("readOnlyHint", false))
        out.push_back(request_body("tools/call", {{"name", t["name"]}, {"arguments", json::object()}}, id++));
  return out;
}

std::string label(const json& body) {
  std::string m = body["method"];
  if (m == "tools/call") m += " " + body["params"]["name"].get<std::string>();
  return m;
}

void check_token_mode(AuthRun& run) {
  const std::string why_skip = "token mode: give --auth-token (a token the server accepts)";
  auto valid = run.start("auth/rs/valid-token", "The valid token is accepted on every request", {"AUTH-15"});
  if (run.o.token.empty()) {
    valid.skip(why_skip);
  } else {
    McpPost m = run.mcp();
    ProbeResponse init = m.open(valid, "Bearer " + run.o.token);
    ProbeResponse list = init.reached && init.status / 100 == 2
                             ? m.post(valid, request_body("tools/list", json::object(), 2), "Bearer " + run.o.token)
                             : init;
    if (!ok_with_result(list)) {
      // The control: without it no negative check can be judged (AUTH-CHECKLIST: positive control).
      const std::string which = init.status / 100 == 2 ? "tools/list" : "initialize";
      valid.error(run.o.mock_as
                      ? fmt::format("the token minted by the harness's authorization server ({}) was not accepted ({} "
                                    "answered {}): does the server trust MCP_CONFORMANCE_AUTH_SERVER_URL? The token "
                                    "rows are not judged", run.o.mock_as->issuer(), which, status_text(list))
                      : fmt::format("the --auth-token was not accepted ({} answered {}): check the token; the token "
                                    "rows are not judged", which, status_text(list)));
    } else {
      run.token_accepted = true;
      for (const auto& msg : list.messages)
        if (msg.contains("result") && msg["result"].contains("tools") && msg["result"]["tools"].is_array())
          run.tools = msg["result"]["tools"];
    }
  }
  run.finish(valid);
  const std::string no_control = "the valid-token control did not pass (auth/rs/valid-token)";

  auto query = run.start("auth/rs/query-token", "A token in the URL query is not accepted", {"AUTH-19"});
  if (run.o.token.empty()) query.skip(why_skip);
  else if (!run.token_accepted || !run.unauthorized) query.skip(run.unauthorized ? no_control : "no 401 was seen");
  else {
    ProbeResponse r = run.send_protected(query, "", {}, "access_token=" + run.o.token);
    // The resource-server side of this rule is inherited from OAuth 2.1 (AUTH-CHECKLIST §7.2): WARN.
    if (ok_with_result(r))
      query.finding(Level::Should, {"AUTH-19"}, "a valid token sent only as ?access_token= was accepted");
  }
  run.finish(query);

  auto scope = run.start("auth/rs/insufficient-scope", "A token lacking a scope gets 403 insufficient_scope",
                         {"AUTH-20", "AUTH-06"});
  if (run.o.low_scope_token.empty()) {
    scope.skip("token mode: give --auth-token-low-scope (a token some operation refuses for scope)");
  } else if (!run.token_accepted) {
    scope.skip(no_control);
  } else {
    McpPost m = run.mcp();
    const std::string auth = "Bearer " + run.o.low_scope_token;
    ProbeResponse init = m.open(scope, auth);
    std::vector<std::pair<std::string, ProbeResponse>> refused;
    if (!(init.reached && init.status / 100 == 2)) refused.emplace_back("initialize", init);
    else
      for (const auto& body : operations(run)) {
        ProbeResponse r = m.post(scope, body, auth);
        if (!(r.reached && r.status / 100 == 2)) refused.emplace_back(label(body), r);
        // What the scope rules of mock-AS mode retry (auth/rs/minted-tokens, AUTH-21).
        if (r.reached && r.status == 403) run.scope_refusals.push_back({body, r.header("www-authenticate")});
      }
    const bool modern = run.applies("AUTH-20");  // 2025-11-25 onwards: the 403 challenge is specified
    const std::string row = modern ? "AUTH-20" : "AUTH-06";
    if (refused.empty())
      scope.skip("the low-scope token was refused nothing (tools/list and read-only tools/call); nothing to judge");
    for (const auto& [what, r] : refused) {
      if (r.reached && r.status == 401) {
        scope.finding(Level::Should, {row}, what + " with the low-scope token got 401, not 403 (a valid token that "
                                                     "lacks a scope is a 403)", r.header("www-authenticate"));
        continue;
      }
      if (!r.reached || r.status != 403) {
        scope.finding(Level::Should, {row}, fmt::format("{} with the low-scope token got {}, not 403", what, status_text(r)));
        continue;
      }
      if (!modern) continue;
      auto parsed = auth::parse_www_authenticate(r.header("www-authenticate"));
      const auth::Challenge* b = auth::find_challenge(parsed.challenges, "Bearer");
      const std::string header = r.header("www-authenticate");
      if (!b || b->param("error") != std::optional<std::string>("insufficient_scope")) {
        // The checklist's verdict for a 403 without the error code is FAIL, whatever the row's level.
        scope.finding(Level::Must, {"AUTH-20"}, "the 403 for " + what + " has no Bearer error=\"insufficient_scope\"", header);
        continue;
      }
      if (!b->param("scope")) scope.violation("AUTH-20", "the 403 for " + what + " names no scope", header);
      if (!b->param("resource_metadata"))
        scope.violation("AUTH-20", "the 403 for " + what + " has no resource_metadata", header);
    }
  }
  run.finish(scope);

  auto audience = run.start("auth/rs/other-audience", "A token issued for another resource is refused",
                            {"AUTH-15", "AUTH-17", "AUTH-16"});
  if (run.o.other_audience_token.empty()) {
    audience.skip("token mode: give --auth-token-other-audience (a token of the same AS for another resource)");
  } else if (!run.unauthorized) {
    audience.skip("no request was refused without a token (auth/rs/unauthenticated-401)");
  } else {
    ProbeResponse r = run.send_protected(audience, "Bearer " + run.o.other_audience_token);
    if (ok_with_result(r))
      audience.violation("AUTH-15", fmt::format("the token for another audience was accepted ({} answered {})",
                                                label(run.protected_body), r.status));
    else if (!r.reached || r.status != 401)
      audience.finding(Level::Should, {"AUTH-15"}, "the token for another audience got " + status_text(r) + ", not 401");
  }
  run.finish(audience);
}

}  // namespace mcpspec::authcheck
