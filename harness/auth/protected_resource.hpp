#pragma once
// The MCP endpoint as an OAuth protected resource, for clients under test (`--auth`,
// docs/authorization.md): the Streamable HTTP server end asks `admit` before a request reaches the
// scenario, and serves Protected Resource Metadata (RFC 9728) through `serve_metadata`. A request
// without an acceptable token gets 401 with a `WWW-Authenticate: Bearer` challenge
// (resource_metadata, scope, error as configured); a token lacking the scopes a method needs gets
// 403 insufficient_scope. Tokens count only from the Authorization header; one in the query string
// is logged and ignored. Every request goes to the shared RequestLog.
#include "harness/auth/mock_as.hpp"
#include "harness/auth/request_log.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace mcpspec::auth {

struct ResourceConfig {
  // Where the PRM document is served: "header" (only at a custom path the challenge names),
  // "path" (/.well-known/oauth-protected-resource/mcp), "root" (/.well-known/oauth-protected-resource).
  std::vector<std::string> prm_at = {"path"};
  // Whether the 401 challenge carries resource_metadata (the first of header, path, root served).
  bool challenge_resource_metadata = true;
  std::string challenge_scope;  // the 401 challenge's scope parameter; empty: none
  // PRM "resource": empty for the canonical endpoint URI, else this text (AUTH-30 serves another origin).
  std::string prm_resource;
  nlohmann::json scopes_supported;  // null: absent
  // MCP method -> the scopes it needs (space-separated); "*" for every other method. A token lacking
  // one gets 403 insufficient_scope naming them (step-up, AUTH-62/63).
  std::map<std::string, std::string> method_scopes;
  // initialize, notifications and responses pass without a token (as some servers do).
  bool open_initialize = false;
  // The challenge in a form a naive reader gets wrong (AUTH-26): a DPoP challenge first, then the
  // Bearer one with a lower-case scheme and an unknown parameter before resource_metadata.
  bool challenge_variant = false;
  // 2025-03-26: no PRM anywhere and no resource_metadata; the MCP server's origin serves the
  // authorization server metadata at /.well-known/oauth-authorization-server (issuer: that origin,
  // endpoints: the mock authorization server's), as that version's clients look for it (AUTH-38).
  bool as_metadata_at_origin = false;
};

// Throws std::invalid_argument naming the member.
ResourceConfig parse_resource_config(const nlohmann::json& j, const std::string& where);

class ProtectedResource {
 public:
  ProtectedResource(ResourceConfig config, const MockAuthorizationServer& as, RequestLog& log);
  // The endpoint URL the client is given: the canonical resource URI (set once the port is known).
  void set_endpoint(const std::string& url, const std::string& origin, const std::string& path);
  // GETs of anything but the endpoint: serves PRM where configured, 404 elsewhere; logged. Returns
  // true when it answered.
  bool serve_metadata(const httplib::Request& req, httplib::Response& res);
  // A request to the endpoint: true to let it through; false when `res` holds the 401/403.
  bool admit(const httplib::Request& req, httplib::Response& res);
  // The custom location "header" serves PRM at.
  static constexpr const char* kHeaderPrmPath = "/mcpspec/resource-metadata.json";

 private:
  std::optional<std::string> prm_path(const std::string& where) const;
  std::string challenge_url() const;
  nlohmann::json prm() const;

  ResourceConfig config_;
  const MockAuthorizationServer& as_;
  RequestLog& log_;
  std::string endpoint_, origin_, path_;
};

}  // namespace mcpspec::auth
