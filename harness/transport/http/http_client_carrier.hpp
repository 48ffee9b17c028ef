#pragma once
// The target of `mcpspec run --client 'CMD {url}' --transport http|sse|ws`: a client process started
// once per scenario and given the URL of a server end mcpspec runs on 127.0.0.1 (an ephemeral port
// per scenario). The client's stdout/stderr become Stderr events for the wire log, as over stdio.
#include "harness/transport/client_carrier.hpp"
#include "harness/transport/child_process.hpp"
#include "harness/transport/http/client_side_server.hpp"
#include "harness/transport/line_framer.hpp"
#include "harness/auth/mock_as.hpp"
#include "harness/auth/protected_resource.hpp"

#include <memory>
#include <string>

namespace mcpspec::transport::http {

struct HttpClientOptions {
  std::string command;    // run by /bin/sh -c; {url} becomes the endpoint URL (one shell word)
  TransportKind transport = TransportKind::Http;  // Http, Sse or Ws
  SpawnOptions spawn;     // workdir and env (command is filled in by start())
  ClientSideOptions server;
  int stop_grace_ms = 500;
  // --auth (Streamable HTTP): the endpoint is protected and a mock authorization server runs beside
  // it, configured by the scenario's transport_options.auth (docs/authorization.md).
  bool auth = false;
  // --tls (with auth): the endpoint and the mock authorization server serve https with a
  // certificate of a throwaway CA made per scenario; the client gets the CA file in SSL_CERT_FILE,
  // NODE_EXTRA_CA_CERTS and REQUESTS_CA_BUNDLE.
  bool tls = false;
};

// Replaces {url} (shell-quoted); throws TransportError when the command has no {url}.
std::string expand_url_command(const std::string& command, const std::string& url);

class HttpClientCarrier : public transport::ClientCarrier {
 public:
  explicit HttpClientCarrier(HttpClientOptions options);
  ~HttpClientCarrier() override;

  std::string name() const override { return transport_name(options_.transport); }
  void configure(const nlohmann::json& options) override;
  void serve_versions(const std::vector<std::string>& versions) override { options_.server.serve_modern = !versions.empty(); }
  void start() override;
  void send(const std::string& frame, Deadline deadline) override;
  void send_raw(const std::string& bytes, Deadline deadline) override;
  Event receive(Deadline deadline) override;
  void close_input() override;
  void signal(int sig) override;
  std::optional<ExitStatus> exit_status() override;
  void stop() override;
  std::string describe() const override;

  void crash_server() override;
  // A client that has exited has abandoned its session, even without a DELETE.
  bool connected() const override { return !exit_reported_ && server_ && server_->session_open(); }
  int connections() const override { return server_ ? server_->sessions() : 0; }
  nlohmann::json http_requests() const override { return server_ ? server_->requests() : nlohmann::json::array(); }
  nlohmann::json auth_state() const override;
  nlohmann::json take_violations() override { return server_ ? server_->take_violations() : nullptr; }

 private:
  void read_child_stream(int fd, LineFramer& framer, const char* prefix, bool is_stdout);

  HttpClientOptions options_;
  auth::AsConfig as_config_;
  auth::ResourceConfig resource_config_;
  std::unique_ptr<auth::RequestLog> auth_log_;
  std::unique_ptr<auth::MockAuthorizationServer> as_;
  std::unique_ptr<auth::ProtectedResource> guard_;
  EventQueue events_;
  std::unique_ptr<ClientSideServer> server_;
  ChildProcess child_;
  std::string expanded_;
  std::string tls_dir_;  // the throwaway CA's files (--tls), removed with the carrier
  LineFramer out_framer_{64 * 1024}, err_framer_{64 * 1024};
  bool exit_reported_ = false;
};

}  // namespace mcpspec::transport::http
