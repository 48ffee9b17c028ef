#include "harness/transport/http/http_client_carrier.hpp"

#include "harness/auth/auth_facts.hpp"
#include "harness/auth/test_ca.hpp"
#include "harness/transport/http/legacy_sse_server.hpp"
#include "harness/transport/http/streamable_http_server.hpp"
#include "harness/transport/http/websocket_server.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace mcpspec::transport::http {

std::string expand_url_command(const std::string& command, const std::string& url) {
  if (command.find("{url}") == std::string::npos)
    throw TransportError("the --client command has no {url} placeholder, so the client cannot be told where the "
                         "server listens: " + command);
  std::string quoted = "'";
  for (char c : url) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  std::string out = command;
  for (auto p = out.find("{url}"); p != std::string::npos; p = out.find("{url}", p + quoted.size()))
    out.replace(p, 5, quoted);
  return out;
}

HttpClientCarrier::HttpClientCarrier(HttpClientOptions options) : options_(std::move(options)) {}

HttpClientCarrier::~HttpClientCarrier() {
  stop();
  std::error_code ignored;
  if (!tls_dir_.empty()) std::filesystem::remove_all(tls_dir_, ignored);
}

void HttpClientCarrier::configure(const nlohmann::json& o) {
  if (!o.is_object()) return;
  if (o.contains("response_mode")) options_.server.response_mode = o["response_mode"].get<std::string>();
  if (o.contains("close_after_priming_retry_ms"))
    options_.server.close_after_priming_retry_ms = o["close_after_priming_retry_ms"].get<int>();
  if (o.contains("auth")) {
    const auto& a = o["auth"];
    try {
      if (!a.is_object()) throw std::invalid_argument("transport_options.auth: must be an object");
      for (const auto& [k, v] : a.items())
        if (k != "as" && k != "resource") throw std::invalid_argument("transport_options.auth." + k + ": unknown member");
      as_config_ = auth::parse_as_config(a.value("as", nlohmann::json()), "transport_options.auth.as");
      resource_config_ = auth::parse_resource_config(a.value("resource", nlohmann::json()), "transport_options.auth.resource");
    } catch (const std::invalid_argument& e) {
      throw TransportError(e.what());
    }
  }
}

nlohmann::json HttpClientCarrier::auth_state() const {
  if (!as_ || !server_) return nullptr;
  nlohmann::json log = auth_log_->entries();
  return {{"issuer", as_->issuer()}, {"resource", server_->url()}, {"as_origin", as_->origin()},
          {"requests", log}, {"facts", auth::auth_facts(log)}};
}

void HttpClientCarrier::start() {
  if (options_.auth) {
    if (options_.transport != TransportKind::Http)
      throw TransportError("--auth needs --transport http (the protected endpoint is Streamable HTTP)");
    auth_log_ = std::make_unique<auth::RequestLog>();
    if (options_.tls) {
      char dir[] = "/tmp/mcpspec-tls-XXXXXX";
      if (!::mkdtemp(dir)) throw TransportError("--tls: cannot create a folder for the test CA");
      tls_dir_ = dir;
      try {
        const auth::TestCa ca = auth::make_test_ca(tls_dir_);
        as_config_.tls_cert = options_.server.tls_cert = ca.server_cert;
        as_config_.tls_key = options_.server.tls_key = ca.server_key;
        // What the usual TLS stacks read: OpenSSL (Python, curl, Go...), Node, Python requests.
        for (const char* var : {"SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE"})
          options_.spawn.env[var] = ca.ca_cert;
      } catch (const std::runtime_error& e) {
        throw TransportError(std::string("--tls: ") + e.what());
      }
    }
    as_ = std::make_unique<auth::MockAuthorizationServer>(as_config_, *auth_log_);
    as_->on_request([this](const std::string& line) { events_.push(Event{Event::Type::Stderr, "auth-server: " + line, {}}); });
    try {
      as_->start();
    } catch (const std::runtime_error& e) {
      throw TransportError(e.what());
    }
    guard_ = std::make_unique<auth::ProtectedResource>(resource_config_, *as_, *auth_log_);
    options_.server.guard = guard_.get();
  }
  if (options_.transport == TransportKind::Http) server_ = std::make_unique<StreamableHttpServer>(options_.server, events_);
  else if (options_.transport == TransportKind::Sse) server_ = std::make_unique<LegacySseServer>(options_.server, events_);
  else if (options_.transport == TransportKind::Ws) server_ = std::make_unique<WebSocketServer>(options_.server, events_);
  else throw TransportError(std::string("no client-side server for transport ") + transport_name(options_.transport));
  server_->start();
  if (guard_) {
    std::string url = server_->url();
    guard_->set_endpoint(url, url.substr(0, url.rfind("/mcp")), "/mcp");
  }
  expanded_ = expand_url_command(options_.command, server_->url());
  SpawnOptions so = options_.spawn;
  so.command = expanded_;
  child_.spawn(so);
}

std::string HttpClientCarrier::describe() const {
  std::string s = "listening on " + (server_ ? server_->url() : std::string("?")) + "; spawned client pid " +
                  std::to_string(child_.pid()) + ": " + expanded_;
  if (!options_.spawn.workdir.empty()) s += " (in " + options_.spawn.workdir + ")";
  return s;
}

void HttpClientCarrier::read_child_stream(int fd, LineFramer& framer, const char* prefix, bool is_stdout) {
  if (framer.read_available(fd)) {
    if (is_stdout) child_.close_stdout();
    else child_.close_stderr();
  }
  while (framer.has_frame()) events_.push(Event{Event::Type::Stderr, prefix + framer.pop().text, std::nullopt});
}

Event HttpClientCarrier::receive(Deadline deadline) {
  for (;;) {
    // The HTTP side fills the queue from its own threads; the client's output is read here, in
    // slices of at most 20 ms so neither waits long for the other.
    Event e = events_.pop(Deadline::after_ms(0));
    if (e.type != Event::Type::Timeout) return e;
    if (!exit_reported_ && child_.stdout_fd() < 0 && child_.stderr_fd() < 0)
      if (auto st = child_.poll_exit()) {
        exit_reported_ = true;
        return Event{Event::Type::Exited, st->text(), st};
      }
    if (deadline.passed()) return Event{};
    struct pollfd fds[2];
    int n = 0;
    for (int fd : {child_.stdout_fd(), child_.stderr_fd()})
      if (fd >= 0) fds[n++] = {fd, POLLIN, 0};
    int slice = deadline.remaining_ms(20);
    if (n == 0) {
      e = events_.pop(Deadline::after_ms(slice));
      if (e.type != Event::Type::Timeout) return e;
    } else {
      ::poll(fds, static_cast<nfds_t>(n), slice);
      for (int i = 0; i < n; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        if (fds[i].fd == child_.stdout_fd()) read_child_stream(fds[i].fd, out_framer_, "client stdout: ", true);
        else if (fds[i].fd == child_.stderr_fd()) read_child_stream(fds[i].fd, err_framer_, "", false);
      }
    }
    // A client that exits while a grandchild keeps its stdout open still counts as exited.
    if (!exit_reported_ && !connected())
      if (auto st = child_.poll_exit()) {
        exit_reported_ = true;
        events_.push(Event{Event::Type::Exited, st->text(), st});
      }
  }
}

void HttpClientCarrier::send(const std::string& frame, Deadline deadline) {
  if (!server_) throw TransportError("not started");
  server_->deliver(frame, deadline);
}

// Over HTTP there is no byte stream to corrupt: the bytes travel as one message body / event.
void HttpClientCarrier::send_raw(const std::string& bytes, Deadline deadline) { send(bytes, deadline); }

void HttpClientCarrier::close_input() {
  if (server_) server_->close();
}

void HttpClientCarrier::crash_server() {
  if (server_) server_->crash();
}

void HttpClientCarrier::signal(int sig) { child_.signal_group(sig); }

std::optional<ExitStatus> HttpClientCarrier::exit_status() { return child_.poll_exit(); }

void HttpClientCarrier::stop() {
  // The server end goes first, so a client that ends when its server goes away ends on its own
  // before the grace period and the signals.
  if (server_) server_->stop();
  if (as_) as_->stop();
  child_.terminate(options_.stop_grace_ms);
}

}  // namespace mcpspec::transport::http
