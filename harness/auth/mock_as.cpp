#include "harness/auth/mock_as.hpp"

#include "harness/auth/base64url.hpp"
#include "harness/auth/form_urlencoded.hpp"
#include "harness/auth/jwt.hpp"
#include "harness/auth/pkce.hpp"
#include "harness/auth/request_headers.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <openssl/evp.h>
#include <sys/socket.h>

#include <chrono>
#include <regex>

namespace mcpspec::auth {

using nlohmann::json;

namespace {

long long now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

json params_of(const httplib::Params& params) {
  json out = json::object();
  for (const auto& [k, v] : params)
    if (!out.contains(k)) out[k] = v;
  return out;
}

void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(body.dump(), "application/json");
}

void oauth_error(httplib::Response& res, int status, const std::string& error, const std::string& description) {
  send_json(res, status, {{"error", error}, {"error_description", description}});
}

bool is_loopback_or_https(const std::string& uri) {
  static const std::regex re(R"(^(https://[^/?#]+|http://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]+)?)([/?][^#]*)?$)",
                             std::regex::icase);
  return uri.size() < 2048 && std::regex_match(uri, re);
}

// A client_id that is a URL: a client ID metadata document (CIMD) to fetch.
bool is_url_client_id(const std::string& id) { return id.rfind("https://", 0) == 0 || id.rfind("http://", 0) == 0; }

std::optional<std::string> standard_base64_decode(const std::string& text) {
  std::string url = text;
  while (!url.empty() && url.back() == '=') url.pop_back();
  for (char& c : url) {
    if (c == '+') c = '-';
    else if (c == '/') c = '_';
  }
  return base64url_decode(url);
}

std::string append_query(const std::string& uri, const std::vector<std::pair<std::string, std::string>>& params) {
  return uri + (uri.find('?') == std::string::npos ? "?" : "&") + write_form(params);
}

}  // namespace

MockAuthorizationServer::MockAuthorizationServer(AsConfig config, RequestLog& log)
    : config_(std::move(config)), log_(log) {
  // One key pair per algorithm and process: RSA-2048 generation takes up to seconds on a loaded
  // machine, and every scenario starts a server. (Tokens of one scenario stay unusable in another:
  // each server accepts only the jti values it issued.)
  static const JwsKey rsa = JwsKey::generate(JwsAlg::RS256, "mcpspec-rs256-" + random_token(6));
  static const JwsKey ec = JwsKey::generate(JwsAlg::ES256, "mcpspec-es256-" + random_token(6));
  const JwsKey& key = config_.alg == JwsAlg::RS256 ? rsa : ec;
  kid_ = key.kid();
  keys_.add(key);
  for (const auto& p : config_.pre_registered) clients_[p.client_id] = {p.client_secret, p.redirect_uris, "pre-registered"};
}

MockAuthorizationServer::~MockAuthorizationServer() { stop(); }

void MockAuthorizationServer::start() {
  if (config_.tls_cert.empty()) {
    server_ = std::make_unique<httplib::Server>();
  } else {
    auto tls = std::make_unique<httplib::SSLServer>(config_.tls_cert.c_str(), config_.tls_key.c_str());
    if (!tls->is_valid()) throw std::runtime_error("the mock authorization server cannot load " + config_.tls_cert);
    server_ = std::move(tls);
  }
  server_->new_task_queue = [] { return new httplib::ThreadPool(8); };
  server_->set_payload_max_length(1024 * 1024);
  server_->set_read_timeout(std::chrono::seconds(10));
  auto h = [this](const httplib::Request& q, httplib::Response& r) { handle(q, r); };
  server_->Get(".*", h);
  server_->Post(".*", h);
  server_->Put(".*", h);
  server_->Delete(".*", h);
  if (config_.port > 0) {
    // httplib's default options add SO_REUSEPORT, with which a second server binds a port another
    // already listens on and shares its connections: a fixed port must be ours alone.
    server_->set_socket_options([](int sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    port_ = server_->bind_to_port("127.0.0.1", config_.port) ? config_.port : -1;
    if (port_ <= 0)
      throw std::runtime_error("the mock authorization server cannot listen on 127.0.0.1:" + std::to_string(config_.port) +
                               " (in use?)");
  } else {
    port_ = server_->bind_to_any_port("127.0.0.1");
    if (port_ <= 0) throw std::runtime_error("the mock authorization server cannot listen on 127.0.0.1");
  }
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

void MockAuthorizationServer::stop() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string MockAuthorizationServer::origin() const {
  return fmt::format("{}://127.0.0.1:{}", config_.tls_cert.empty() ? "http" : "https", port_);
}
std::string MockAuthorizationServer::issuer() const { return origin() + config_.issuer_path; }
std::string MockAuthorizationServer::path(const char* endpoint) const { return config_.issuer_path + endpoint; }

json MockAuthorizationServer::metadata() const {
  std::string base = origin();
  json m = {{"issuer", config_.issuer_claim.empty() ? issuer() : config_.issuer_claim},
            {"authorization_endpoint", base + path("/authorize")},
            {"token_endpoint", base + path("/token")},
            {"jwks_uri", base + path("/jwks")},
            {"introspection_endpoint", base + path("/introspect")},
            {"response_types_supported", {"code"}},
            {"grant_types_supported", {"authorization_code", "refresh_token"}},
            {"token_endpoint_auth_methods_supported", config_.token_endpoint_auth_methods},
            // OpenID Connect Discovery requires these three; RFC 8414 readers ignore them.
            {"subject_types_supported", {"public"}},
            {"id_token_signing_alg_values_supported", {alg_name(config_.alg)}}};
  if (config_.code_challenge_methods) m["code_challenge_methods_supported"] = *config_.code_challenge_methods;
  if (config_.registration_endpoint) m["registration_endpoint"] = base + path("/register");
  if (config_.cimd_supported) m["client_id_metadata_document_supported"] = true;
  if (config_.iss_parameter_supported) m["authorization_response_iss_parameter_supported"] = *config_.iss_parameter_supported;
  if (!config_.scopes_supported.is_null()) m["scopes_supported"] = config_.scopes_supported;
  return m;
}

std::string MockAuthorizationServer::mint(const json& claims) const { return sign_jwt(claims, *keys_.find(kid_)); }

std::string MockAuthorizationServer::mint_issued(const json& claims) {
  std::string token = mint(claims);
  std::lock_guard<std::mutex> lock(mu_);
  access_.insert(claims.value("jti", ""));
  issued_.insert(token);
  return token;
}

void MockAuthorizationServer::handle(const httplib::Request& req, httplib::Response& res) {
  json rec = {{"server", "as"}, {"method", req.method}, {"path", req.path}, {"query", params_of(req.params)},
              {"headers", recorded_headers(req)}};
  if (req.method == "POST") {
    std::string type = req.get_header_value("Content-Type");
    if (type.rfind("application/x-www-form-urlencoded", 0) == 0) {
      Form f = parse_form(req.body);
      json form = json::object();
      for (const auto& [k, v] : f.all)
        if (!form.contains(k)) form[k] = v;
      rec["form"] = form;
      if (!f.repeated().empty()) rec["repeated"] = f.repeated();
    } else {
      json body = json::parse(req.body, nullptr, false);
      rec["body"] = body.is_discarded() ? json(req.body.substr(0, 4096)) : body;
    }
  }
  // Which discovery document this path is, if any (the request log names it for order checks).
  const std::string& ip = config_.issuer_path;
  std::map<std::string, std::string> docs = {
      {"/.well-known/oauth-authorization-server" + ip, "oauth"},
      {"/.well-known/openid-configuration" + ip, "oidc"},
      {ip + "/.well-known/openid-configuration", ip.empty() ? "oidc" : "oidc-appended"}};
  auto doc = docs.find(req.path);
  if (req.path.rfind("/.well-known/", 0) == 0 || (doc != docs.end())) {
    rec["well_known"] = true;
    bool served = doc != docs.end() && req.method == "GET" &&
                  std::find(config_.metadata.begin(), config_.metadata.end(), doc->second) != config_.metadata.end();
    if (served) {
      rec["document"] = doc->second;
      send_json(res, 200, metadata());
    } else {
      oauth_error(res, 404, "not_found", "no metadata document here");
    }
  } else if (req.path == path("/authorize") && req.method == "GET") {
    on_authorize(req, res, rec);
  } else if (req.path == path("/token") && req.method == "POST") {
    on_token(req, res, rec);
  } else if (req.path == path("/register") && req.method == "POST" && config_.registration_endpoint) {
    on_register(req, res, rec);
  } else if (req.path == path("/introspect") && req.method == "POST") {
    on_introspect(req, res, rec);
  } else if (req.path == path("/jwks") && req.method == "GET") {
    send_json(res, 200, keys_.jwks());
  } else {
    oauth_error(res, 404, "not_found", "no such endpoint on the mock authorization server");
  }
  rec["status"] = res.status;
  if (res.has_header("Location")) rec["location"] = res.get_header_value("Location");
  if (note_) {
    std::string line = fmt::format("{} {} -> {}", req.method, req.path, res.status);
    if (rec.contains("grant_type")) line += " (" + rec["grant_type"].get<std::string>() + ")";
    if (rec.contains("refused")) line += ": " + rec["refused"].get<std::string>();
    note_(line);
  }
  log_.add(std::move(rec));
}

const MockAuthorizationServer::Client* MockAuthorizationServer::client_for(const std::string& id, json& rec,
                                                                           std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = clients_.find(id);
    if (it != clients_.end()) return &it->second;
  }
  if (!is_url_client_id(id)) {
    why = "unknown client_id \"" + id + "\" (not pre-registered, not issued by /register, not a URL)";
    return nullptr;
  }
  if (!config_.cimd_supported) {
    why = "a URL client_id, but this server does not advertise client ID metadata documents";
    return nullptr;
  }
  // Fetch the client ID metadata document: only loopback http is reachable from here; other URLs
  // are recorded as unfetchable and accepted with loopback redirect URIs (as the official suite does).
  json cimd = {{"url", id}};
  Client c{"", {}, "cimd"};
  static const std::regex loop(R"(^(http://(127\.0\.0\.1|localhost)(:[0-9]+)?)(/.*)$)");
  std::smatch m;
  if (std::regex_match(id, m, loop)) {
    httplib::Client http(m[1].str());
    http.set_connection_timeout(std::chrono::seconds(3));
    http.set_read_timeout(std::chrono::seconds(3));
    auto r = http.Get(m[4].str());
    if (!r) {
      cimd["fetched"] = false;
    } else {
      cimd["fetched"] = true;
      cimd["status"] = r->status;
      json doc = json::parse(r->body, nullptr, false);
      cimd["document"] = doc.is_discarded() ? json(nullptr) : doc;
      std::vector<std::string> problems;
      if (r->status != 200) problems.push_back(fmt::format("HTTP status {}", r->status));
      if (!doc.is_object()) problems.push_back("not a JSON object");
      else {
        if (doc.value("client_id", json()) != id) problems.push_back("client_id is not the document URL");
        if (!doc.contains("client_name")) problems.push_back("no client_name");
        if (!doc.contains("redirect_uris") || !doc["redirect_uris"].is_array() || doc["redirect_uris"].empty())
          problems.push_back("no redirect_uris");
        else
          for (const auto& u : doc["redirect_uris"])
            if (u.is_string()) c.redirect_uris.push_back(u);
      }
      cimd["problems"] = problems;
      if (!problems.empty()) {
        rec["cimd"] = cimd;
        why = "the client ID metadata document is invalid: " + problems.front();
        return nullptr;
      }
    }
  } else {
    cimd["fetched"] = false;
  }
  rec["cimd"] = cimd;
  std::lock_guard<std::mutex> lock(mu_);
  return &(clients_[id] = c);
}

void MockAuthorizationServer::on_authorize(const httplib::Request& req, httplib::Response& res, json& rec) {
  auto p = [&](const char* name) -> std::optional<std::string> {
    if (!req.has_param(name)) return std::nullopt;
    return req.get_param_value(name);
  };
  std::string client_id = p("client_id").value_or("");
  std::string redirect = p("redirect_uri").value_or("");
  std::string why;
  const Client* client = client_for(client_id, rec, why);
  rec["client_known"] = client != nullptr;  // AUTH-52: a client id obtained before authorizing
  if (!client) {
    rec["refused"] = why;
    oauth_error(res, 400, "invalid_client", why);
    return;
  }
  bool registered = client->redirect_uris.empty()
                        ? is_loopback_or_https(redirect)
                        : std::find(client->redirect_uris.begin(), client->redirect_uris.end(), redirect) !=
                              client->redirect_uris.end();
  rec["redirect_registered"] = registered;
  if (redirect.empty() || !registered) {
    // Never redirect to an unregistered URI (open redirect); the error is shown here instead.
    rec["refused"] = "redirect_uri is not registered for this client";
    oauth_error(res, 400, "invalid_request", "redirect_uri is not registered for this client");
    return;
  }
  std::vector<std::pair<std::string, std::string>> back;
  auto redirect_error = [&](const std::string& error, const std::string& description) {
    rec["refused"] = description;
    back = {{"error", error}, {"error_description", description}};
    if (auto s = p("state")) back.push_back({"state", *s});
    back.push_back({"iss", issuer()});
    res.status = 302;
    res.set_header("Location", append_query(redirect, back));
  };
  if (p("response_type") != std::optional<std::string>("code"))
    return redirect_error("unsupported_response_type", "response_type must be code");
  auto challenge = p("code_challenge");
  std::string method = p("code_challenge_method").value_or("plain");  // RFC 7636 §4.3 default
  if (!challenge) return redirect_error("invalid_request", "code_challenge is required (PKCE)");
  json supported = config_.code_challenge_methods.value_or(json::array({"S256", "plain"}));
  if (std::find(supported.begin(), supported.end(), method) == supported.end())
    return redirect_error("invalid_request", "code_challenge_method " + method + " is not supported");

  std::string code = random_token();
  {
    std::lock_guard<std::mutex> lock(mu_);
    codes_[code] = {client_id, redirect, *challenge, method, p("scope").value_or(""), p("resource"), false};
  }
  // "change": a state other than the one sent, even when none was sent (a client that keeps no
  // state cannot tell either way, which is what AUTH-72 is about).
  if (config_.state == "change") back.push_back({"state", p("state").value_or("") + "-changed"});
  else if (config_.state == "echo" && p("state")) back.push_back({"state", *p("state")});
  back.insert(back.begin(), {"code", code});
  if (config_.iss == "correct") back.push_back({"iss", issuer()});
  else if (config_.iss == "wrong") back.push_back({"iss", "https://evil.example.com"});
  else if (config_.iss == "trailing-slash") back.push_back({"iss", issuer() + "/"});
  rec["code"] = code;
  res.status = 302;
  res.set_header("Location", append_query(redirect, back));
}

std::string MockAuthorizationServer::issue_access(const std::string& client_id, const std::string& scope,
                                                  const std::optional<std::string>& resource) {
  long long now = now_seconds();
  std::string jti = random_token(12);
  json claims = {{"iss", issuer()},        {"sub", "mcpspec-test-user"}, {"client_id", client_id},
                 {"iat", now},             {"exp", now + config_.expires_in}, {"jti", jti}};
  // RFC 9068 requires aud; a client that sent no resource gets a token for no resource server.
  claims["aud"] = resource.value_or("urn:mcpspec:no-resource-requested");
  if (!scope.empty()) claims["scope"] = scope;
  return mint_issued(claims);
}

json MockAuthorizationServer::token_response(const std::string& client_id, const std::string& requested,
                                             const std::optional<std::string>& resource) {
  std::string scope = requested;
  if (!config_.grantable_scopes.is_null()) {
    scope.clear();
    for (const auto& s : scope_set(requested))
      if (std::find(config_.grantable_scopes.begin(), config_.grantable_scopes.end(), s) != config_.grantable_scopes.end())
        scope += (scope.empty() ? "" : " ") + s;
  }
  json out = {{"access_token", issue_access(client_id, scope, resource)},
              {"token_type", "Bearer"},
              {"expires_in", config_.expires_in}};
  if (!scope.empty()) out["scope"] = scope;
  if (config_.refresh_tokens) {
    std::string r = random_token();
    std::lock_guard<std::mutex> lock(mu_);
    refresh_[r] = {client_id, scope, resource, false};
    issued_.insert(r);
    out["refresh_token"] = r;
  }
  return out;
}

void MockAuthorizationServer::on_token(const httplib::Request& req, httplib::Response& res, json& rec) {
  Form f = parse_form(req.body);
  // Client authentication (RFC 6749 §2.3): a Basic header, a secret in the body, or none.
  std::string client_id = f.get("client_id").value_or(""), secret;
  std::string auth_method = "none";
  std::string authz = req.get_header_value("Authorization");
  if (authz.size() > 6 && (authz.rfind("Basic ", 0) == 0 || authz.rfind("basic ", 0) == 0)) {
    auth_method = "client_secret_basic";
    auto decoded = standard_base64_decode(authz.substr(6));
    auto colon = decoded ? decoded->find(':') : std::string::npos;
    if (colon == std::string::npos) {
      rec["client_auth"] = auth_method;
      return oauth_error(res, 401, "invalid_client", "the Basic credentials are not base64 of id:secret");
    }
    client_id = httplib::detail::decode_url(decoded->substr(0, colon), true);
    secret = httplib::detail::decode_url(decoded->substr(colon + 1), true);
  } else if (f.has("client_secret")) {
    auth_method = "client_secret_post";
    secret = f.get("client_secret").value_or("");
  }
  rec["client_auth"] = auth_method;
  rec["client_id"] = client_id;
  if (!f.repeated().empty()) return oauth_error(res, 400, "invalid_request", "a parameter is repeated");
  std::string why;
  const Client* client = client_for(client_id, rec, why);
  if (!client) return oauth_error(res, 401, "invalid_client", why);
  if (client->secret != secret) {
    rec["refused"] = client->secret.empty() ? "a secret was sent for a public client" : "wrong or missing client secret";
    return oauth_error(res, 401, "invalid_client", rec["refused"].get<std::string>());
  }
  std::string grant = f.get("grant_type").value_or("");
  std::optional<std::string> resource = f.get("resource");
  std::string refusal, error = "invalid_grant", scope;
  std::optional<std::string> audience;
  if (grant == "authorization_code") {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = codes_.find(f.get("code").value_or(""));
    if (it == codes_.end()) refusal = "unknown code";
    else if (it->second.used) refusal = "the code was already used";
    else {
      Code& c = it->second;
      c.used = true;  // single use, even when this attempt fails
      auto verifier = f.get("code_verifier");
      bool match = false;
      if (verifier) {
        rec["verifier_syntax_ok"] = valid_verifier(*verifier);
        match = c.method == "S256" ? s256_challenge(*verifier) == c.challenge : *verifier == c.challenge;
        rec["pkce_ok"] = match;
      }
      rec["pkce_method"] = c.method;
      rec["authorize_resource"] = c.resource ? json(*c.resource) : json(nullptr);
      if (c.client_id != client_id) refusal = "the code was issued to another client";
      else if (f.get("redirect_uri") != std::optional<std::string>(c.redirect_uri))
        refusal = "redirect_uri differs from the authorization request";
      else if (!verifier) refusal = "code_verifier is missing (PKCE)";
      else if (!match) refusal = "code_verifier does not match the code_challenge";
      else if (c.resource && resource && *c.resource != *resource) {
        error = "invalid_target";
        refusal = "resource differs from the authorization request";
      }
      scope = c.scope;
      audience = resource ? resource : c.resource;
    }
  } else if (grant == "refresh_token") {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = refresh_.find(f.get("refresh_token").value_or(""));
    if (it == refresh_.end()) refusal = "unknown refresh_token";
    else if (it->second.used) refusal = "the refresh_token was already used (rotated)";
    else if (it->second.client_id != client_id) refusal = "the refresh_token was issued to another client";
    else {
      it->second.used = true;  // rotation (OAuth 2.1 §4.3.1)
      scope = f.get("scope").value_or(it->second.scope);
      audience = resource ? resource : it->second.resource;
    }
  } else {
    error = "unsupported_grant_type";
    refusal = "grant_type must be authorization_code or refresh_token";
  }
  rec["grant_type"] = grant;
  if (!refusal.empty()) {
    rec["refused"] = refusal;
    return oauth_error(res, 400, error, refusal);
  }
  json out = token_response(client_id, scope, audience);
  rec["issued"] = true;
  send_json(res, 200, out);
}

void MockAuthorizationServer::on_register(const httplib::Request& req, httplib::Response& res, json& rec) {
  json body = json::parse(req.body, nullptr, false);
  if (!body.is_object()) return oauth_error(res, 400, "invalid_client_metadata", "the body is not a JSON object");
  if (!body.contains("redirect_uris") || !body["redirect_uris"].is_array() || body["redirect_uris"].empty())
    return oauth_error(res, 400, "invalid_redirect_uri", "redirect_uris must be a non-empty array");
  Client c{"", {}, "dcr"};
  for (const auto& u : body["redirect_uris"]) {
    if (!u.is_string()) return oauth_error(res, 400, "invalid_redirect_uri", "redirect_uris must hold strings");
    c.redirect_uris.push_back(u);
  }
  // RFC 7591 §2: the default method is client_secret_basic.
  std::string method = body.value("token_endpoint_auth_method", json("client_secret_basic")).is_string()
                           ? body.value("token_endpoint_auth_method", std::string("client_secret_basic"))
                           : std::string("?");
  if (std::find(config_.token_endpoint_auth_methods.begin(), config_.token_endpoint_auth_methods.end(), method) ==
      config_.token_endpoint_auth_methods.end())
    return oauth_error(res, 400, "invalid_client_metadata", "token_endpoint_auth_method " + method + " is not supported");
  if (method != "none") c.secret = random_token();
  std::string id = "dcr-" + random_token(9);
  json out = body;
  out["client_id"] = id;
  out["client_id_issued_at"] = now_seconds();
  out["token_endpoint_auth_method"] = method;
  if (!c.secret.empty()) {
    out["client_secret"] = c.secret;
    out["client_secret_expires_at"] = 0;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    clients_[id] = c;
  }
  rec["client_id"] = id;
  send_json(res, 201, out);
}

void MockAuthorizationServer::on_introspect(const httplib::Request& req, httplib::Response& res, json&) {
  Form f = parse_form(req.body);
  std::string token = f.get("token").value_or("");
  auto check = verify_jwt(token, keys_);
  bool active = false;
  if (check.ok) {
    std::lock_guard<std::mutex> lock(mu_);
    active = access_.count(check.claims.value("jti", "")) > 0 && check.claims.value("exp", 0LL) > now_seconds();
  }
  if (!active) return send_json(res, 200, {{"active", false}});
  json out = check.claims;
  out["active"] = true;
  out["token_type"] = "Bearer";
  send_json(res, 200, out);
}

TokenCheck MockAuthorizationServer::check_access_token(const std::string& token, const std::string& audience) const {
  TokenCheck out;
  auto v = verify_jwt(token, keys_);
  if (!v.ok) {
    out.error = v.error;
    return out;
  }
  if (std::string bad = check_claims(v.claims, issuer(), audience, now_seconds()); !bad.empty()) {
    out.error = bad;
    return out;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!access_.count(v.claims.value("jti", ""))) {
      out.error = "not a token this server issued";
      return out;
    }
  }
  out.ok = true;
  out.client_id = v.claims.value("client_id", "");
  out.scopes = scope_set(v.claims.value("scope", ""));
  return out;
}

std::set<std::string> MockAuthorizationServer::issued_values() const {
  std::lock_guard<std::mutex> lock(mu_);
  return issued_;
}

}  // namespace mcpspec::auth
