#pragma once
// Mock-AS mode of `mcpspec run --server CMD --transport http --auth` (docs/authorization.md): the
// harness's authorization server starts first, then the server under test, told to trust it by
// MCP_CONFORMANCE_AUTH_SERVER_URL (the issuer URL; its RFC 8414 metadata names the JWKS and
// introspection endpoints) and MCPSPEC_AUTH_JWKS_URL and given a free port in --port-env. Both stop when this object dies:
// the server with its whole process group, reaped.
#include "harness/auth/mock_as.hpp"
#include "harness/auth/request_log.hpp"
#include "harness/transport/http/event_queue.hpp"
#include "harness/transport/http/served_process.hpp"

#include <memory>
#include <string>

namespace mcpspec::cli {

// The variable the server under test reads its authorization server's issuer URL from: the name
// the SDKs' conformance test servers use (AUTH-CHECKLIST.md, "Server-under-test wiring").
inline constexpr const char* kAuthServerUrlEnv = "MCP_CONFORMANCE_AUTH_SERVER_URL";
// Its JWKS URL (RFC 7517), named as `mcpspec auth-server` prints it.
inline constexpr const char* kAuthJwksUrlEnv = "MCPSPEC_AUTH_JWKS_URL";

class TrustingServer {
 public:
  // Starts both. `path` is the endpoint's path on the server ("/mcp"). Throws std::runtime_error
  // naming what failed (the mock AS cannot listen, the server exits or does not listen in time).
  TrustingServer(const std::string& command, const std::string& port_env, const std::string& path,
                 int startup_timeout_ms);
  ~TrustingServer();

  std::string endpoint() const;  // http://127.0.0.1:PORT/path
  auth::MockAuthorizationServer& authorization_server() { return *as_; }

 private:
  auth::RequestLog log_;
  std::unique_ptr<auth::MockAuthorizationServer> as_;
  transport::http::EventQueue events_;  // the server's output lines, unread: the checks judge HTTP
  std::unique_ptr<transport::http::ServedProcess> server_;
  std::string path_;
};

}  // namespace mcpspec::cli
