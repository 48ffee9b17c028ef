#include "harness/cli/trusting_server.hpp"

#include "harness/cli/paths.hpp"

#include <stdexcept>

namespace mcpspec::cli {

TrustingServer::TrustingServer(const std::string& command, const std::string& port_env, const std::string& path,
                               int startup_timeout_ms)
    : path_(path.empty() ? "/mcp" : path) {
  // RFC 8414 metadata at the root issuer, S256, registration, client ID metadata documents: an AS
  // that passes the auth/as checks the server's PRM leads to. The checks only mint its tokens.
  auth::AsConfig config;
  config.cimd_supported = true;
  config.iss_parameter_supported = true;  // its redirects carry iss (RFC 9207, AUTH-98)
  as_ = std::make_unique<auth::MockAuthorizationServer>(config, log_);
  as_->start();
  transport::SpawnOptions spawn;
  spawn.command = absolutize_command(command);
  spawn.env[kAuthServerUrlEnv] = as_->issuer();
  // The JWKS URL too, so a server that verifies signatures need not read the metadata first (the
  // name `mcpspec auth-server` prints it under).
  spawn.env[kAuthJwksUrlEnv] = as_->metadata().value("jwks_uri", "");
  server_ = std::make_unique<transport::http::ServedProcess>(spawn, port_env, events_);
  try {
    server_->start(Deadline::after_ms(startup_timeout_ms));
  } catch (const transport::TransportError& e) {
    throw std::runtime_error(std::string("the server did not start: ") + e.what());
  }
}

TrustingServer::~TrustingServer() {
  if (server_) server_->stop(500);
  if (as_) as_->stop();
}

std::string TrustingServer::endpoint() const { return "http://127.0.0.1:" + std::to_string(server_->port()) + path_; }

}  // namespace mcpspec::cli
