#pragma once
// The mock OAuth 2.1 authorization server a client under test is sent to (docs/authorization.md):
// its own listener on 127.0.0.1, discovery documents at the well-known locations a scenario picks,
// an auto-approving /authorize that answers 302 with code, state and iss, /token (authorization
// code with PKCE, refresh with rotation, client authentication detected), /register (RFC 7591),
// client ID metadata documents fetched and checked, RS256/ES256 JWT access tokens (RFC 9068) with
// a JWKS endpoint, and RFC 7662 introspection. It behaves like a strict real server (a bad code
// verifier gets invalid_grant), and every request goes to the shared RequestLog with what was
// decided, so scenarios judge the client from the log.
#include "harness/auth/jwks.hpp"
#include "harness/auth/mock_as_config.hpp"
#include "harness/auth/request_log.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace mcpspec::auth {

// What the resource server learns from an access token.
struct TokenCheck {
  bool ok = false;
  std::string error;  // why it is not acceptable (signature, issuer, audience, expiry, unknown)
  std::string client_id;
  std::set<std::string> scopes;
};

class MockAuthorizationServer {
 public:
  MockAuthorizationServer(AsConfig config, RequestLog& log);
  ~MockAuthorizationServer();
  MockAuthorizationServer(const MockAuthorizationServer&) = delete;
  MockAuthorizationServer& operator=(const MockAuthorizationServer&) = delete;

  // Called with one line per request ("GET /authorize -> 302 ..."), for the wire log. Set before start().
  void on_request(std::function<void(const std::string&)> note) { note_ = std::move(note); }
  // Binds 127.0.0.1 on an ephemeral port. Throws std::runtime_error when it cannot.
  void start();
  // Stops listening; bounded; idempotent.
  void stop();

  std::string origin() const;  // http://127.0.0.1:PORT (https:// in TLS mode)
  std::string issuer() const;  // origin + issuer_path
  const KeySet& keys() const { return keys_; }
  // The metadata document as served (the "issuer" member may be a scenario's wrong one).
  nlohmann::json metadata() const;
  // Signs claims with the current key (tokens a scenario mints itself, unknown to this server's
  // registry: introspection calls them inactive).
  std::string mint(const nlohmann::json& claims) const;
  // Signs claims and records the token as issued here, so introspection and check_access_token know
  // it like one /token issued (the tokens mock-AS mode hands a server under test). `claims` needs a
  // "jti".
  std::string mint_issued(const nlohmann::json& claims);
  // Verifies an access token for `audience`: signed by this server, iss exact, aud naming the
  // audience, not expired, and issued here.
  TokenCheck check_access_token(const std::string& token, const std::string& audience) const;
  // Every token value this server issued (access and refresh), to spot one in a URL.
  std::set<std::string> issued_values() const;

 private:
  struct Client {
    std::string secret;
    std::vector<std::string> redirect_uris;  // empty: loopback or https accepted
    std::string source;                       // "pre-registered", "dcr", "cimd"
  };
  struct Code {
    std::string client_id, redirect_uri, challenge, method, scope;
    std::optional<std::string> resource;
    bool used = false;
  };
  struct Refresh {
    std::string client_id, scope;
    std::optional<std::string> resource;
    bool used = false;
  };

  void handle(const httplib::Request& req, httplib::Response& res);
  void on_authorize(const httplib::Request& req, httplib::Response& res, nlohmann::json& rec);
  void on_token(const httplib::Request& req, httplib::Response& res, nlohmann::json& rec);
  void on_register(const httplib::Request& req, httplib::Response& res, nlohmann::json& rec);
  void on_introspect(const httplib::Request& req, httplib::Response& res, nlohmann::json& rec);
  // The client a client_id names: known, or a CIMD URL fetched now. Null with `why` otherwise.
  const Client* client_for(const std::string& client_id, nlohmann::json& rec, std::string& why);
  std::string issue_access(const std::string& client_id, const std::string& scope,
                           const std::optional<std::string>& resource);
  nlohmann::json token_response(const std::string& client_id, const std::string& scope,
                                const std::optional<std::string>& resource);
  std::string path(const char* endpoint) const;

  AsConfig config_;
  RequestLog& log_;
  std::function<void(const std::string&)> note_;
  KeySet keys_;
  std::string kid_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;

  mutable std::mutex mu_;
  std::map<std::string, Client> clients_;
  std::map<std::string, Code> codes_;
  std::map<std::string, Refresh> refresh_;
  std::set<std::string> access_;  // jti of every access token issued
  std::set<std::string> issued_;  // every token value issued
};

}  // namespace mcpspec::auth
