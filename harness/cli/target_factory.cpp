#include "harness/cli/target_factory.hpp"

#include "harness/cli/commands.hpp"
#include "harness/cli/paths.hpp"
#include "harness/scenario/preflight.hpp"
#include "harness/transport/http/http_client_carrier.hpp"
#include "harness/transport/http/legacy_sse_transport.hpp"
#include "harness/transport/http/streamable_http_transport.hpp"
#include "harness/transport/http/websocket_transport.hpp"
#include "harness/transport/stdio_transport.hpp"
#include "harness/transport/unix_socket_transport.hpp"

#include <iostream>
#include <stdexcept>

namespace mcpspec::cli {

namespace th = transport::http;

namespace {

scenario::TargetSpec stdio_target(const TargetOptions& o) {
  if (o.server.empty()) throw UsageError("no server command given (--server)");
  scenario::TargetSpec t;
  t.description = o.server;
  t.transport = transport::TransportKind::Stdio;
  std::string cmd = absolutize_command(o.server);
  t.make = [cmd, o](const std::string& workdir, const std::map<std::string, std::string>& env) {
    transport::StdioOptions so;
    so.spawn.command = cmd;
    so.spawn.workdir = workdir;
    so.spawn.env = env;
    so.max_message_bytes = o.max_message_bytes;
    so.stop_grace_ms = o.stop_grace_ms;
    return std::unique_ptr<transport::Transport>(new transport::StdioTransport(so));
  };
  return t;
}

scenario::TargetSpec network_target(const TargetOptions& o) {
  using K = transport::TransportKind;
  if (o.transport == K::Stdio) throw UsageError("--transport stdio takes --server, not --url");
  th::Url url;
  if (!o.url.empty()) {
    try {
      url = th::parse_url(o.url);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--url: ") + e.what());
    }
  }
  const K kind = o.transport.value_or(url.scheme == "ws" ? K::Ws : K::Http);
  const std::string name = transport::transport_name(kind);
  if (!o.url.empty()) {
    if (kind == K::Ws && url.scheme != "ws") throw UsageError("--transport ws needs a ws:// --url");
    if (kind != K::Ws && url.scheme != "http") throw UsageError("--transport " + name + " needs an http:// --url");
  } else {
    if (o.server.empty()) throw UsageError("--transport " + name + " needs --url, or --server with --port-env");
    // Started by us: the port comes later; the path is the usual one of each transport.
    url = th::parse_url(kind == K::Ws ? "ws://127.0.0.1/" : kind == K::Sse ? "http://127.0.0.1/sse"
                                                                           : "http://127.0.0.1/mcp");
  }

  th::HttpTransportOptions ho;
  ho.url = url;
  ho.port_env = o.port_env;
  ho.origin = o.origin;
  ho.headers = o.headers;
  ho.max_message_bytes = o.max_message_bytes;
  ho.startup_timeout_ms = o.startup_timeout_ms;
  ho.keep_session = o.keep_session;
  std::string command = o.server.empty() ? "" : absolutize_command(o.server);

  scenario::TargetSpec t;
  t.transport = kind;
  t.description = command.empty() ? url.text() : command + " (" + name + ", port in $" + o.port_env + ")";
  t.spawns = !command.empty();
  t.make = [ho, command, kind](const std::string& workdir, const std::map<std::string, std::string>& env) {
    th::HttpTransportOptions opts = ho;
    if (!command.empty()) {
      transport::SpawnOptions s;
      s.command = command;
      s.workdir = workdir;
      s.env = env;
      opts.spawn = s;
    }
    if (kind == K::Sse) return std::unique_ptr<transport::Transport>(new th::LegacySseTransport(opts));
    if (kind == K::Ws) return std::unique_ptr<transport::Transport>(new th::WebSocketTransport(opts));
    return std::unique_ptr<transport::Transport>(new th::StreamableHttpTransport(opts));
  };
  return t;
}

}  // namespace

scenario::TargetSpec server_target(const TargetOptions& o) {
  bool network = !o.url.empty() || (o.transport && *o.transport != transport::TransportKind::Stdio);
  return network ? network_target(o) : stdio_target(o);
}

scenario::CarrierSpec client_carrier(const std::string& command, std::optional<transport::TransportKind> transport, bool auth,
                                     const std::string& bridge_program, std::size_t max_message_bytes, bool tls) {
  scenario::CarrierSpec c;
  c.description = command;
  c.transport = transport.value_or(transport::TransportKind::Stdio);
  try {
    if (c.transport == transport::TransportKind::Stdio) {
      if (auth) throw UsageError("--auth with --client needs --transport http");
      // Fail at once on a command that can never reach the harness, not once per scenario.
      transport::expand_client_command(command, {bridge_program, "bridge", "/check"});
      c.make = [command, bridge_program, max_message_bytes](const std::string& workdir,
                                                            const std::map<std::string, std::string>& env) {
        transport::UnixSocketClientOptions o;
        o.command = command;
        o.bridge_program = bridge_program;
        o.spawn.workdir = workdir;
        o.spawn.env = env;
        o.max_message_bytes = max_message_bytes;
        return std::unique_ptr<transport::ClientCarrier>(new transport::UnixSocketClientTransport(o));
      };
      return c;
    }
    th::expand_url_command(command, "http://127.0.0.1:1/check");
  } catch (const transport::TransportError& e) {
    throw UsageError(std::string("--client: ") + e.what());
  }
  const transport::TransportKind kind = c.transport;
  if (auth && kind != transport::TransportKind::Http) throw UsageError("--auth with --client needs --transport http");
  c.make = [command, kind, auth, max_message_bytes, tls](const std::string& workdir,
                                                   const std::map<std::string, std::string>& env) {
    th::HttpClientOptions o;
    o.command = command;
    o.transport = kind;
    o.spawn.workdir = workdir;
    o.spawn.env = env;
    o.server.max_message_bytes = max_message_bytes;
    o.auth = auth;
    o.tls = tls;
    return std::unique_ptr<transport::ClientCarrier>(new th::HttpClientCarrier(o));
  };
  return c;
}

bool target_starts(const scenario::RunConfig& config) {
  auto problem = scenario::preflight(config);
  if (problem) std::cerr << "mcpspec: " << *problem << "\n";
  return !problem;
}

CLI::Option* add_transport_option(CLI::App* cmd, std::optional<transport::TransportKind>& into, const std::string& help) {
  return cmd
      ->add_option_function<std::string>(
          "--transport", [&into](const std::string& name) { into = transport::parse_transport(name); }, help)
      ->check(CLI::IsMember({"stdio", "http", "sse", "ws"}));
}

CLI::Option* add_call_tools_option(CLI::App* cmd, scenario::CallTools& into, const std::string& help) {
  using scenario::CallTools;
  const std::map<std::string, CallTools> names = {
      {"none", CallTools::None}, {"readonly", CallTools::ReadOnly}, {"all", CallTools::All}};
  return cmd->add_option("--call-tools", into, help)->transform(CLI::CheckedTransformer(names))->default_str("readonly");
}

}  // namespace mcpspec::cli
