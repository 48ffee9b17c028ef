// The authorization servers a PRM document names (AUTH-CHECKLIST §3), only where MCP imposes
// something on them: metadata at the right well-known URL with the fields clients need, PKCE S256
// advertised, https endpoints, client ID metadata document support, dynamic registration as
// advertised and exact redirect-URI matching for the client it registered, iss in the authorization
// response (2026-07-28). And, for 2025-03-26,
// where the MCP server itself is the authorization server: metadata at its origin's root, or the
// default endpoints.
#include "harness/auth/form_urlencoded.hpp"
#include "harness/authcheck/auth_run.hpp"
#include "harness/authcheck/resource_uri.hpp"

#include <fmt/format.h>

namespace mcpspec::authcheck {

using nlohmann::json;

namespace {

struct FoundMetadata {
  json doc;  // null when no well-known URL served a JSON object
  std::string url;
  bool openid = false;
};

FoundMetadata fetch_metadata(CheckResult& check, const std::vector<MetadataUrl>& urls, int timeout_ms,
                             const std::vector<std::pair<std::string, std::string>>& headers = {}) {
  for (const auto& m : urls) {
    ProbeRequest req{"GET", m.url, headers, "", ""};
    req.headers.emplace_back("Accept", "application/json");
    ProbeResponse r = send_probe(req, timeout_ms);
    check.exchange(req, r);
    if (r.reached && r.status == 200 && r.is_json() && r.json.is_object()) return {r.json, m.url, m.openid};
  }
  return {};
}

// The RFC 8414 §2 fields a client needs to run the code flow.
void judge_metadata_fields(CheckResult& check, const std::string& row, const json& doc, const std::string& issuer) {
  if (!doc.contains("issuer") || !doc["issuer"].is_string())
    check.violation(row, "the metadata has no issuer string", doc.dump(2));
  else if (!issuer.empty() && doc["issuer"] != issuer)  // byte-exact (AUTH-CHECKLIST §7.8)
    check.violation(row, fmt::format("the metadata's issuer {} is not the issuer {} it was found for",
                                     doc["issuer"].get<std::string>(), issuer));
  for (const char* f : {"authorization_endpoint", "token_endpoint"})
    if (!doc.contains(f) || !doc[f].is_string()) check.violation(row, std::string("the metadata has no ") + f);
  const json types = doc.value("response_types_supported", json());
  if (!types.is_array() || std::find(types.begin(), types.end(), "code") == types.end())
    check.violation(row, "response_types_supported does not list code");
}

// The loopback redirect URI the checks register (a native client's).
constexpr const char* kLoopbackRedirect = "http://127.0.0.1:9/mcpspec/callback";

// An authorization request of a registered public client with PKCE S256 for `redirect_uri`.
std::string authorize_url(const AuthRun& run, const std::string& endpoint, const std::string& client_id,
                          const std::string& redirect_uri) {
  return fmt::format(
      "{}{}response_type=code&client_id={}&redirect_uri={}&state=mcpspec&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
      "&code_challenge_method=S256&resource={}",
      endpoint, endpoint.find('?') == std::string::npos ? "?" : "&", percent_encode(client_id),
      percent_encode(redirect_uri), percent_encode(run.o.endpoint));
}

// Dynamic registration of a native public client, and (AUTH-88) whether /authorize redirects to a
// redirect URI that only resembles the registered one. Returns the client id it registered (empty
// when none), with kLoopbackRedirect among its redirect URIs.
std::string register_and_probe_redirects(AuthRun& run, const json& doc, const std::string& issuer) {
  auto reg = run.start("auth/as/registration", "Dynamic client registration as advertised, exact redirect URIs",
                       {"AUTH-99", "AUTH-88"});
  reg.note("issuer " + issuer);
  if (!doc.contains("registration_endpoint") || !doc["registration_endpoint"].is_string()) {
    if (reg.level_of("AUTH-99") == Level::Should)
      reg.violation("AUTH-99", "the authorization server advertises no registration_endpoint");
    else
      reg.skip("no registration_endpoint advertised (dynamic registration is optional in this version)");
    run.finish(reg);
    return "";
  }
  // A loopback URI (native clients) and an https one: near misses are judged on both, except another
  // port of the loopback one, which OAuth 2.1 (RFC 8252 §7.3) lets the client choose at request time.
  const std::string loopback = kLoopbackRedirect, web = "https://client.mcpspec.invalid/callback";
  ProbeRequest req{"POST", doc["registration_endpoint"], {{"Accept", "application/json"}},
                   json{{"client_name", "mcpspec"},
                        {"redirect_uris", {loopback, web}},
                        {"grant_types", {"authorization_code", "refresh_token"}},
                        {"response_types", {"code"}},
                        {"token_endpoint_auth_method", "none"},
                        {"application_type", "native"}}
                       .dump(),
                   "application/json"};
  ProbeResponse r = send_probe(req, run.o.timeout_ms);
  reg.exchange(req, r);
  const bool registered = r.reached && (r.status == 201 || r.status == 200) && r.json.is_object() &&
                          r.json.contains("client_id") && r.json["client_id"].is_string();
  if (!registered) {
    // Advertised but not working: whatever the row's level, clients that follow the metadata fail.
    reg.finding(Level::Should, {"AUTH-99"},
                "the advertised registration endpoint did not answer 201 with a client_id (got " +
                    (r.reached ? std::to_string(r.status) : r.error) + ")");
    run.finish(reg);
    return "";
  }
  const std::string client_id = r.json["client_id"];
  if (!doc.contains("authorization_endpoint") || !doc["authorization_endpoint"].is_string() || !run.applies("AUTH-88")) {
    run.finish(reg);
    return client_id;
  }
  const std::string endpoint = doc["authorization_endpoint"];
  const std::vector<std::pair<std::string, std::string>> near_misses = {
      {web + "/x", web}, {"https://client.mcpspec.invalid:8443/callback", web}, {web + "?x=1", web},
      {loopback + "/x", loopback}, {loopback + "?x=1", loopback}};
  for (const auto& [near, registered_uri] : near_misses) {
    const std::string url = authorize_url(run, endpoint, client_id, near);
    ProbeRequest a{"GET", url, {}, "", ""};
    ProbeResponse ar = send_probe(a, run.o.timeout_ms);
    reg.exchange(a, ar);
    if (ar.reached && ar.status / 100 == 3 && ar.header("location").rfind(near, 0) == 0)
      reg.violation("AUTH-88", "the authorization endpoint redirected to " + near +
                                   ", which only resembles the registered redirect URI " + registered_uri);
  }
  run.finish(reg);
  return client_id;
}

// 2026-07-28 (RFC 9207): the authorization response carries iss, equal to the metadata's issuer
// (AUTH-97), and an AS that sends it says so in its metadata (AUTH-98). Judged on the redirect to
// the registered loopback URI: the code is never exchanged.
void check_iss_parameter(AuthRun& run, const json& doc, const std::string& issuer, const std::string& client_id) {
  if (!run.applies("AUTH-97") && !run.applies("AUTH-98")) return;
  auto check = run.start("auth/as/iss-parameter", "The authorization response carries the issuer (RFC 9207)",
                         {"AUTH-97", "AUTH-98"});
  check.note("issuer " + issuer);
  if (client_id.empty() || !doc.contains("authorization_endpoint") || !doc["authorization_endpoint"].is_string()) {
    check.skip("no client could be registered (auth/as/registration), so no authorization response to read");
    run.finish(check);
    return;
  }
  ProbeRequest a{"GET", authorize_url(run, doc["authorization_endpoint"], client_id, kLoopbackRedirect), {}, "", ""};
  ProbeResponse r = send_probe(a, run.o.timeout_ms);
  check.exchange(a, r);
  const std::string location = r.header("location");
  if (!r.reached || r.status / 100 != 3 || location.rfind(kLoopbackRedirect, 0) != 0) {
    // Most real authorization servers show a login page first: nothing to judge without a user.
    check.skip("the authorization endpoint did not redirect to the registered URI at once (" + status_text(r) +
               "); an AS that needs a user's consent cannot be judged here");
    run.finish(check);
    return;
  }
  const auto q = location.find('?');
  const auth::Form back = auth::parse_form(q == std::string::npos ? "" : location.substr(q + 1));
  const std::optional<std::string> iss = back.get("iss");
  const bool advertised = doc.value("authorization_response_iss_parameter_supported", json()) == true;
  if (!iss) {
    check.violation("AUTH-97", "the authorization response has no iss", location);
  } else {
    // The checklist's verdict for an iss that differs is FAIL, whatever the row's level.
    if (*iss != doc.value("issuer", std::string()))
      check.finding(Level::Must, {"AUTH-97"}, fmt::format("the authorization response's iss {} is not the metadata's "
                                                           "issuer {} (compared byte for byte)", *iss,
                                                           doc.value("issuer", std::string())), location);
    if (!advertised)
      check.violation("AUTH-98", "the authorization response carries iss, but the metadata does not say "
                                 "authorization_response_iss_parameter_supported: true", doc.dump(2));
  }
  run.finish(check);
}

}  // namespace

void check_authorization_servers(AuthRun& run) {
  if (!run.applies("AUTH-85") || run.prm.is_null() || !run.prm.contains("authorization_servers") ||
      !run.prm["authorization_servers"].is_array())
    return;
  std::size_t n = 0;
  for (const auto& entry : run.prm["authorization_servers"]) {
    if (!entry.is_string() || ++n > 3) continue;  // three issuers are plenty to judge a deployment
    const std::string issuer = entry;
    const bool oauth_only = !run.applies("AUTH-86");  // OpenID discovery is an alternative from 2025-11-25
    auto meta = run.start("auth/as/metadata", "The authorization server publishes its metadata", {"AUTH-85"});
    meta.note("issuer " + issuer);
    FoundMetadata found = fetch_metadata(meta, as_metadata_urls(issuer, oauth_only), run.o.timeout_ms);
    if (found.doc.is_null())
      meta.violation("AUTH-85", fmt::format("no JSON metadata at the {} well-known URL(s) of issuer {}",
                                            oauth_only ? "RFC 8414" : "RFC 8414 or OpenID", issuer));
    else
      judge_metadata_fields(meta, "AUTH-85", found.doc, issuer);
    run.finish(meta);
    if (found.doc.is_null()) continue;
    const json& doc = found.doc;

    if (run.applies("AUTH-86")) {
      auto pkce = run.start("auth/as/pkce-s256", "The metadata advertises PKCE with S256", {"AUTH-86"});
      const json methods = doc.value("code_challenge_methods_supported", json());
      if (methods.is_null()) {
        // Required of OpenID documents; for RFC 8414 ones clients refuse to proceed without it (AUTH-43).
        if (found.openid) pkce.violation("AUTH-86", "the OpenID metadata has no code_challenge_methods_supported", doc.dump(2));
        else pkce.finding(Level::Should, {"AUTH-86"}, "the metadata has no code_challenge_methods_supported; MCP clients refuse such a server", doc.dump(2));
      } else if (!methods.is_array() || std::find(methods.begin(), methods.end(), "S256") == methods.end()) {
        pkce.violation("AUTH-86", "code_challenge_methods_supported does not list S256: " + methods.dump(), doc.dump(2));
      }
      run.finish(pkce);
    }

    auto tls = run.start("auth/as/https-endpoints", "Every authorization server endpoint is https", {"AUTH-87"});
    for (const auto& [key, value] : doc.items()) {
      const bool endpoint = key == "issuer" || key == "jwks_uri" ||
                            (key.size() > 9 && key.compare(key.size() - 9, 9, "_endpoint") == 0);
      if (endpoint && value.is_string() && !is_secure_or_loopback(value))
        tls.violation("AUTH-87", fmt::format("{} is {}: not https", key, value.get<std::string>()), doc.dump(2));
    }
    if (is_loopback(issuer)) tls.note("loopback http is accepted (a local test deployment)");
    run.finish(tls);

    if (run.applies("AUTH-92")) {
      auto cimd = run.start("auth/as/cimd-support", "The metadata advertises client ID metadata documents", {"AUTH-92"});
      if (doc.value("client_id_metadata_document_supported", json()) != true)
        cimd.violation("AUTH-92", "client_id_metadata_document_supported is not true", doc.dump(2));
      run.finish(cimd);
    }
    const std::string client_id = register_and_probe_redirects(run, doc, issuer);
    check_iss_parameter(run, doc, issuer, client_id);
  }
}

void check_legacy_metadata(AuthRun& run) {
  if (!run.applies("AUTH-100")) return;
  auto check = run.start("auth/as/legacy-metadata",
                         "2025-03-26: metadata at the MCP origin's root, or the default endpoints", {"AUTH-100"});
  const std::string origin = origin_of(run.o.endpoint);
  FoundMetadata found = fetch_metadata(check, {{origin + "/.well-known/oauth-authorization-server", false}},
                                       run.o.timeout_ms, {{"MCP-Protocol-Version", run.o.protocol}});
  if (!found.doc.is_null()) {
    judge_metadata_fields(check, "AUTH-100", found.doc, "");
  } else {
    check.note("no metadata at the root: probing the default endpoints");
    ProbeRequest a{"GET", origin + "/authorize?response_type=code&client_id=mcpspec", {}, "", ""};
    ProbeResponse ar = send_probe(a, run.o.timeout_ms);
    check.exchange(a, ar);
    ProbeRequest t{"POST", origin + "/token", {}, "", "application/x-www-form-urlencoded"};
    ProbeResponse tr = send_probe(t, run.o.timeout_ms);
    check.exchange(t, tr);
    if (!ar.reached || ar.status == 404 || !tr.reached || tr.status == 404)
      check.finding(Level::Must, {"AUTH-100"},
                    "neither metadata at /.well-known/oauth-authorization-server nor the default /authorize and "
                    "/token endpoints exist at " + origin);
  }
  run.finish(check);
}

}  // namespace mcpspec::authcheck
