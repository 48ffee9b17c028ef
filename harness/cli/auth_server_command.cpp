// `mcpspec auth-server`: the harness's mock OAuth 2.1 authorization server on its own, for pointing
// a real MCP server at it by hand (docs/authorization.md, "Running the authorization server alone").
// It prints its issuer, metadata and JWKS URLs (and, with --mint, access tokens it signed and
// recorded, so its introspection endpoint knows them), logs each request it answers on stderr, and
// runs until SIGINT, SIGTERM or SIGHUP, or for --duration seconds.
#include "harness/auth/jws_key.hpp"
#include "harness/auth/mock_as.hpp"
#include "harness/auth/pkce.hpp"
#include "harness/auth/request_log.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/end_signals.hpp"
#include "harness/cli/trusting_server.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>

namespace mcpspec::cli {
namespace {

struct AuthServerArgs {
  int port = 0;
  std::string issuer_path;
  std::string alg = "RS256";
  std::vector<std::string> mint;  // audiences
  std::string scope;
  int token_seconds = 3600;
  std::string client_id, client_secret;
  double duration = 0;  // 0: until a signal
  std::string log_path;
  bool quiet = false;
};

std::string normalized_issuer_path(const std::string& p) {
  if (p.empty()) return p;
  if (p.front() != '/' || p.back() == '/' || p.find_first_of("?# ") != std::string::npos)
    throw UsageError("--issuer-path " + p + ": expected a path like /tenant1 (starting with /, no trailing /, no query)");
  return p;
}

int run_auth_server(const AuthServerArgs& a) {
  auth::AsConfig config;
  config.port = a.port;
  config.issuer_path = normalized_issuer_path(a.issuer_path);
  auto alg = auth::alg_from_name(a.alg);
  if (!alg) throw UsageError("--alg " + a.alg + ": expected RS256 or ES256");
  config.alg = *alg;
  config.cimd_supported = true;
  config.iss_parameter_supported = true;
  if (!a.client_id.empty()) config.pre_registered.push_back({a.client_id, a.client_secret, {}});
  else if (!a.client_secret.empty()) throw UsageError("--client-secret needs --client-id");

  const EndSignals ends;  // before the authorization server's threads start

  auth::RequestLog log;
  auth::MockAuthorizationServer as(config, log);
  std::mutex out;
  if (!a.quiet)
    as.on_request([&](const std::string& line) {
      std::lock_guard<std::mutex> lock(out);
      std::fprintf(stderr, "mcpspec auth-server: %s\n", line.c_str());
      std::fflush(stderr);
    });
  try {
    as.start();
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }

  const nlohmann::json meta = as.metadata();
  {
    std::lock_guard<std::mutex> lock(out);
    // One KEY=value per line on stdout, so a script can read it (or `eval` it in a shell).
    std::printf("%s=%s\n", kAuthServerUrlEnv, as.issuer().c_str());
    std::printf("MCPSPEC_AUTH_METADATA_URL=%s/.well-known/oauth-authorization-server%s\n", as.origin().c_str(),
                config.issuer_path.c_str());
    std::printf("%s=%s\n", kAuthJwksUrlEnv, meta.value("jwks_uri", "").c_str());
    std::printf("MCPSPEC_AUTH_INTROSPECTION_URL=%s\n", meta.value("introspection_endpoint", "").c_str());
    std::printf("MCPSPEC_AUTH_TOKEN_URL=%s\n", meta.value("token_endpoint", "").c_str());
    const long long now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    for (std::size_t i = 0; i < a.mint.size(); ++i) {
      nlohmann::json claims = {{"iss", as.issuer()},
                               {"sub", "mcpspec-auth-server"},
                               {"client_id", a.client_id.empty() ? "mcpspec-auth-server" : a.client_id},
                               {"aud", a.mint[i]},
                               {"iat", now},
                               {"exp", now + a.token_seconds},
                               {"jti", auth::random_token(12)}};
      if (!a.scope.empty()) claims["scope"] = a.scope;
      std::printf("MCPSPEC_AUTH_TOKEN%s=%s\n", i == 0 ? "" : fmt::format("_{}", i + 1).c_str(),
                  as.mint_issued(claims).c_str());
    }
    std::fflush(stdout);
  }
  if (!a.quiet) {
    std::fprintf(stderr, "mcpspec auth-server: issuer %s (%s), %s\n", as.issuer().c_str(), a.alg.c_str(),
                 a.duration > 0 ? fmt::format("for {} s", a.duration).c_str() : "until interrupted");
    std::fflush(stderr);
  }
  ends.wait(a.duration);
  as.stop();
  if (!a.log_path.empty()) {
    std::ofstream f(a.log_path);
    for (const auto& e : log.entries()) f << e.dump() << "\n";
    if (!f) {
      std::fprintf(stderr, "mcpspec auth-server: cannot write %s\n", a.log_path.c_str());
      return 2;
    }
  }
  return 0;
}

}  // namespace

void add_auth_server_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<AuthServerArgs>();
  auto* cmd = app.add_subcommand(
      "auth-server",
      "Run mcpspec's mock OAuth 2.1 authorization server alone (on 127.0.0.1), to point a real MCP server at it: "
      "prints its issuer, metadata, JWKS and introspection URLs and, with --mint, access tokens it signed");
  cmd->add_option("--port", args->port, "Port on 127.0.0.1 (default: any free port, printed)")->check(CLI::Range(0, 65535));
  cmd->add_option("--issuer-path", args->issuer_path, "Path of the issuer under the origin, e.g. /tenant1 (default: none)");
  cmd->add_option("--alg", args->alg, "Signing algorithm of its tokens: RS256 (default) or ES256");
  cmd->add_option("--mint", args->mint,
                  "Print an access token for this audience (the server's resource URI); repeat for more. The "
                  "server's introspection endpoint knows each one")
      ->type_name("AUDIENCE");
  cmd->add_option("--scope", args->scope, "Space-separated scopes of the minted tokens (default: none)");
  cmd->add_option("--token-seconds", args->token_seconds, "Lifetime of the minted tokens (default 3600)")
      ->check(CLI::Range(1, 31536000));
  cmd->add_option("--client-id", args->client_id, "A pre-registered client (besides dynamic registration and client ID metadata documents)");
  cmd->add_option("--client-secret", args->client_secret, "Its secret (default: a public client)");
  cmd->add_option("--duration", args->duration, "Stop after this many seconds (default: at SIGINT/SIGTERM)")
      ->check(CLI::Range(0.0, 604800.0));
  cmd->add_option("--log", args->log_path, "At the end, write every request it answered to FILE (JSON lines)");
  cmd->add_flag("--quiet", args->quiet, "No request lines on stderr");
  cmd->callback([args, &exit_code] { exit_code = run_auth_server(*args); });
}

}  // namespace mcpspec::cli
