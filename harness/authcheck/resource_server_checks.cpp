// The server under test as an OAuth resource server, without a token (probe mode): the 401, its
// challenge, protected resource metadata, and refusal of invalid tokens and malformed headers.
#include "harness/auth/base64url.hpp"
#include "harness/auth/canonical_uri.hpp"
#include "harness/authcheck/auth_run.hpp"
#include "harness/authcheck/resource_uri.hpp"

#include <fmt/format.h>

#include <random>

namespace mcpspec::authcheck {

using nlohmann::json;

namespace {

std::string random_text(std::size_t n) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::random_device rd;
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += alphabet[rd() % 64];
  return s;
}

// A JWT-shaped string whose signature no key made (or, for alg none, that has none).
std::string fake_jwt(const std::string& alg, const std::string& audience, bool signed_part) {
  const long long now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
  json header = {{"alg", alg}, {"typ", "at+jwt"}};
  if (alg != "none") header["kid"] = "mcpspec-unknown-key";
  json claims = {{"iss", "https://issuer.mcpspec.invalid"}, {"aud", audience}, {"sub", "mcpspec"},
                 {"client_id", "mcpspec"}, {"scope", "mcp"}, {"iat", now}, {"exp", now + 3600},
                 {"jti", random_text(16)}};
  return auth::base64url_encode(header.dump()) + "." + auth::base64url_encode(claims.dump()) + "." + (signed_part ? random_text(342) : "");
}

}  // namespace

CheckResult AuthRun::start(const std::string& id, const std::string& title,
                           const std::vector<std::string>& requirements) const {
  std::vector<std::string> present;
  for (const auto& q : requirements)
    if (applies(q)) present.push_back(q);
  return CheckResult(catalog, o.protocol, id, title, present);
}

bool AuthRun::skipped_without_401(CheckResult& check) {
  if (unauthorized) return false;
  check.skip("no request was refused without a token (auth/rs/unauthenticated-401)");
  finish(check);
  return true;
}

void AuthRun::finish(CheckResult& check) {
  if (!check.judges_anything()) return;  // none of its rows exists in this version
  results.push_back(check.finish());
  if (on_result) on_result(results.back());
}

ProbeResponse AuthRun::send_protected(CheckResult& check, const std::string& authorization,
                                      const std::vector<std::pair<std::string, std::string>>& extra,
                                      const std::string& query) const {
  McpPost m = mcp();
  if (initialize_open) m.open(check, "");
  return m.post(check, protected_body, authorization, extra, query);
}

void check_unauthenticated(AuthRun& run) {
  auto check = run.start("auth/rs/unauthenticated-401", "A protected request without a token gets 401",
                         {"AUTH-04", "AUTH-06"});
  McpPost m = run.mcp();
  json init = initialize_body(run.o.protocol, 1);
  ProbeResponse r = m.post(check, init, "");
  if (!r.reached) {
    check.error("the endpoint did not answer: " + r.error);
    run.finish(check);
    return;
  }
  json protected_body = init;
  if (r.status / 100 == 2) {
    // Servers may leave initialize open (AUTH-CHECKLIST §7.5): the next request must be guarded.
    run.initialize_open = true;
    check.note(init["method"].get<std::string>() + " was answered without a token; trying tools/list");
    m.session = r.header("mcp-session-id");
    if (init["method"] == "initialize")
      m.post(check, json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, "");
    protected_body = request_body("tools/list", json::object(), 2);
    r = m.post(check, protected_body, "");
  }
  if (r.reached && r.status == 401) {
    run.unauthorized = r;
    run.protected_body = protected_body;
  } else if (ok_with_result(r)) {
    check.violation("AUTH-04", fmt::format("{} was answered with a result although no token was sent; with --auth "
                                           "the server is declared protected (a public server is not an auth target)",
                                           protected_body["method"].get<std::string>()),
                    r.body.substr(0, 500));
  } else {
    check.violation("AUTH-06", fmt::format("{} without a token got {}; a missing token is answered with 401",
                                           protected_body["method"].get<std::string>(), status_text(r)));
  }
  run.finish(check);
}

void check_challenge(AuthRun& run) {
  if (!run.applies("AUTH-05") && !run.applies("AUTH-08")) return;  // 2025-03-26 names no challenge
  auto check = run.start("auth/rs/challenge", "The 401 carries a Bearer challenge naming the resource metadata",
                         {"AUTH-05"});
  if (run.skipped_without_401(check)) return;
  const std::string header = run.unauthorized->header("www-authenticate");
  const bool one_of = run.o.protocol >= "2025-11-25";  // header or well-known (AUTH-05, 11-25+)
  if (header.empty()) {
    if (!one_of) check.violation("AUTH-05", "the 401 has no WWW-Authenticate header");
    else check.note("no WWW-Authenticate header: judged with the well-known PRM (auth/rs/prm-discovery)");
    run.finish(check);
    return;
  }
  auto parsed = auth::parse_www_authenticate(header);
  if (!parsed.error.empty())
    check.violation("AUTH-05", "WWW-Authenticate does not follow the RFC 9110 challenge grammar: " + parsed.error, header);
  const auth::Challenge* bearer = auth::find_challenge(parsed.challenges, "Bearer");
  if (!bearer) {
    check.violation("AUTH-05", "WWW-Authenticate has no Bearer challenge", header);
  } else {
    run.bearer = *bearer;
    auto rm = bearer->param("resource_metadata");
    if (!rm) {
      if (!one_of) check.violation("AUTH-05", "the Bearer challenge has no resource_metadata parameter", header);
      else check.note("no resource_metadata: judged with the well-known PRM (auth/rs/prm-discovery)");
    } else if (!is_secure_or_loopback(*rm)) {
      check.violation("AUTH-05", "resource_metadata is not an absolute https URL (http only on loopback): " + *rm, header);
    }
  }
  run.finish(check);

  if (!run.applies("AUTH-12")) return;
  auto scope = run.start("auth/rs/challenge-scope", "The 401 challenge names the scopes needed", {"AUTH-12"});
  if (!run.bearer) {
    scope.skip("no Bearer challenge to read");
  } else if (auto s = run.bearer->param("scope"); !s || s->empty()) {
    scope.violation("AUTH-12", "the Bearer challenge has no scope parameter", header);
  } else if (run.applies("AUTH-14") && (" " + *s + " ").find(" offline_access ") != std::string::npos) {
    scope.violation("AUTH-14", "the challenged scope includes offline_access", header);
  }
  run.finish(scope);
}

void check_prm(AuthRun& run) {
  if (!run.applies("AUTH-09")) return;  // 2025-03-26 has no protected resource metadata
  auto check = run.start("auth/rs/prm-discovery", "Protected resource metadata is served where clients look",
                         {"AUTH-09", "AUTH-05"});
  std::vector<std::pair<std::string, std::string>> places;  // (kind, url)
  std::optional<std::string> header_url = run.bearer ? run.bearer->param("resource_metadata") : std::nullopt;
  if (header_url && is_secure_or_loopback(*header_url)) places.emplace_back("header", *header_url);
  auto wk = prm_well_known_urls(run.o.endpoint);
  for (std::size_t i = 0; i < wk.size(); ++i)
    places.emplace_back(i + 1 == wk.size() ? "root well-known" : "path well-known", wk[i]);
  std::vector<std::string> served;
  bool header_served = false, well_known_served = false;
  for (const auto& [kind, url] : places) {
    ProbeRequest req{"GET", url, {{"Accept", "application/json"}}, "", ""};
    ProbeResponse r = send_probe(req, run.o.timeout_ms);
    check.exchange(req, r);
    if (!(r.reached && r.status == 200 && r.is_json() && r.json.is_object())) continue;
    served.push_back(kind);
    (kind == "header" ? header_served : well_known_served) = true;
    if (run.prm.is_null()) {
      run.prm = r.json;
      run.prm_url = url;
      run.prm_at_root = kind == "root well-known";
    }
  }
  check.note(served.empty() ? "PRM served nowhere" : "PRM served at: " + fmt::format("{}", fmt::join(served, ", ")));
  if (run.o.protocol < "2025-11-25") {
    if (!header_served)
      check.violation("AUTH-09", "no JSON PRM document at the resource_metadata URL of the 401 challenge "
                                 "(before 2025-11-25 the challenge is the one way clients find it)");
  } else if (served.empty()) {
    check.violation("AUTH-09", "no JSON PRM document at the challenge's URL, the path-based or the root well-known URL");
  } else if (!header_url && run.unauthorized) {
    check.finding(Level::Should, {"AUTH-05"},
                  "the 401 names no resource_metadata; clients find the PRM only by probing the well-known URLs");
  }
  run.finish(check);

  auto content = run.start("auth/rs/prm-content",
                           "The PRM document names its resource and at least one authorization server",
                           {"AUTH-10", "AUTH-11", "AUTH-19"});
  if (run.prm.is_null()) {
    content.skip("no PRM document was found (auth/rs/prm-discovery)");
    run.finish(content);
    return;
  }
  const json& prm = run.prm;
  const std::string doc = prm.dump(2);
  if (!prm.contains("authorization_servers") || !prm["authorization_servers"].is_array() ||
      prm["authorization_servers"].empty()) {
    content.violation("AUTH-10", "authorization_servers is missing or not a non-empty array", doc);
  } else {
    for (const auto& as : prm["authorization_servers"]) {
      if (!as.is_string()) {
        content.violation("AUTH-10", "an authorization_servers entry is not a string: " + as.dump());
        continue;
      }
      UriParts u = split_uri(as.get<std::string>());
      if (!is_secure_or_loopback(as) || u.has_query || u.has_fragment)
        content.violation("AUTH-10", "issuer " + as.get<std::string>() +
                                         " is not an https URL (http only on loopback) without query and fragment");
    }
  }
  if (!prm.contains("resource") || !prm["resource"].is_string()) {
    content.violation("AUTH-11", "the PRM document has no resource string", doc);
  } else {
    const std::string resource = prm["resource"];
    const auth::UriMatch match = auth::compare_resource(resource, run.o.endpoint);
    const bool root_origin = run.prm_at_root && split_uri(resource).path.size() <= 1 &&
                             origin_of(resource) == origin_of(run.o.endpoint);
    if (match == auth::UriMatch::Identical || match == auth::UriMatch::Normalized || root_origin) {
      // Equal, or the origin itself at the root well-known, which describes the origin (RFC 9728 §3.1).
    } else if (match == auth::UriMatch::TrailingSlash || match == auth::UriMatch::OtherPath) {
      content.finding(Level::Should, {"AUTH-11"},
                      fmt::format("resource {} is on the endpoint's origin but is not the endpoint {} ({}; RFC 9728 "
                                  "asks for equality, many clients accept it)",
                                  resource, run.o.endpoint, auth::describe(match)));
    } else {
      content.violation("AUTH-11", fmt::format("resource {} does not name the endpoint {}: {}", resource,
                                               run.o.endpoint, auth::describe(match)));
    }
  }
  if (prm.contains("bearer_methods_supported")) {
    const json& methods = prm["bearer_methods_supported"];
    if (!methods.is_array())
      content.violation("AUTH-11", "bearer_methods_supported is not an array");
    else
      for (const auto& m : methods)
        if (m == "query")
          content.finding(Level::Should, {"AUTH-19"}, "bearer_methods_supported offers tokens in the URL query");
  }
  run.finish(content);
}

void check_invalid_tokens(AuthRun& run) {
  auto check = run.start("auth/rs/invalid-token", "Invalid, forged and expired tokens get 401 and no data",
                         {"AUTH-07", "AUTH-08", "AUTH-16", "AUTH-25"});
  if (run.skipped_without_401(check)) return;
  std::vector<std::pair<std::string, std::string>> tokens = {
      {"a random opaque token", random_text(40)},
      {"a JWT signed by a key the server cannot know", fake_jwt("RS256", run.o.endpoint, true)},
      {"an unsigned JWT (alg none)", fake_jwt("none", run.o.endpoint, false)},
  };
  if (!run.o.expired_token.empty()) tokens.emplace_back("the expired token (--auth-token-expired)", run.o.expired_token);
  for (const auto& [what, token] : tokens) {
    ProbeResponse r = run.send_protected(check, "Bearer " + token);
    if (ok_with_result(r)) {
      const std::string message = fmt::format("{} was accepted: {} answered {} with a result", what,
                                              run.protected_body["method"].get<std::string>(), r.status);
      // An accepted expired token also breaks 2025-03-26's expiry rule.
      if (token == run.o.expired_token && run.applies("AUTH-25"))
        check.finding(check.level_of("AUTH-07"), {"AUTH-07", "AUTH-25"}, message);
      else
        check.violation("AUTH-07", message);
      continue;
    }
    if (r.reached && r.has_result() && run.applies("AUTH-16"))
      check.violation("AUTH-16", what + " got a JSON-RPC result in a refused response");
    if (!r.reached || r.status != 401) {
      check.finding(Level::Should, {"AUTH-07"}, fmt::format("{} got {}, not 401", what, status_text(r)));
      continue;
    }
    auto parsed = auth::parse_www_authenticate(r.header("www-authenticate"));
    const auth::Challenge* bearer = auth::find_challenge(parsed.challenges, "Bearer");
    if (!bearer || bearer->param("error") != std::optional<std::string>("invalid_token"))
      check.finding(Level::Should, {"AUTH-08"},
                    fmt::format("the 401 for {} has no Bearer challenge with error=\"invalid_token\"", what),
                    r.header("www-authenticate"));
  }
  run.finish(check);
}

void check_malformed_authorization(AuthRun& run) {
  auto check = run.start("auth/rs/malformed-authorization", "A malformed Authorization header gets 400 or 401",
                         {"AUTH-06"});
  if (run.skipped_without_401(check)) return;
  struct Case {
    std::string what, value;
    std::vector<std::pair<std::string, std::string>> extra;
  };
  std::vector<Case> cases = {{"Bearer with no token", "Bearer", {}},
                             {"Bearer with two tokens", "Bearer " + random_text(12) + " " + random_text(12), {}},
                             {"two Authorization fields", "Bearer " + random_text(20), {{"Authorization", "Bearer " + random_text(20)}}}};
  for (const auto& c : cases) {
    ProbeResponse r = run.send_protected(check, c.value, c.extra);
    if (ok_with_result(r))
      check.violation("AUTH-06", c.what + " was accepted with a result");
    else if (!r.reached || (r.status != 400 && r.status != 401))
      check.finding(Level::Should, {"AUTH-06"}, fmt::format("{} got {}, not 400 or 401", c.what, status_text(r)));
  }
  run.finish(check);
}

}  // namespace mcpspec::authcheck
