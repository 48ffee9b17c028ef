#include "harness/cli/target_factory.hpp"

#include "harness/cli/commands.hpp"
#include "harness/cli/paths.hpp"
#include "harness/transport/http/legacy_sse_transport.hpp"
#include "harness/transport/http/streamable_http_transport.hpp"
#include "harness/transport/http/websocket_transport.hpp"

#include <stdexcept>

namespace mcpspec::cli {

namespace th = transport::http;

bool wants_network_target(const std::string& url, const std::string& transport) {
  return !url.empty() || (!transport.empty() && transport != "stdio");
}

scenario::TargetSpec network_target(const NetworkTargetOptions& o) {
  std::string kind = o.transport;
  th::Url url;
  if (!o.url.empty()) {
    try {
      url = th::parse_url(o.url);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--url: ") + e.what());
    }
    if (kind.empty()) kind = url.scheme == "ws" ? "ws" : "http";
    if (kind == "ws" && url.scheme != "ws") throw UsageError("--transport ws needs a ws:// --url");
    if (kind != "ws" && url.scheme != "http") throw UsageError("--transport " + kind + " needs an http:// --url");
  } else {
    if (o.server.empty()) throw UsageError("--transport " + kind + " needs --url, or --server with --port-env");
    // Started by us: the port comes later; the path is the usual one of each transport.
    url = th::parse_url(kind == "ws" ? "ws://127.0.0.1/" : kind == "sse" ? "http://127.0.0.1/sse"
                                                                        : "http://127.0.0.1/mcp");
  }
  if (kind == "stdio") throw UsageError("--transport stdio takes --server, not --url");
  if (kind != "http" && kind != "sse" && kind != "ws")
    throw UsageError("--transport " + kind + ": unknown (stdio, http, sse or ws)");

  th::HttpTransportOptions ho;
  ho.url = url;
  ho.port_env = o.port_env;
  ho.origin = o.origin;
  ho.max_message_bytes = o.max_message_bytes;
  ho.startup_timeout_ms = o.startup_timeout_ms;
  ho.keep_session = o.keep_session;
  std::string command = o.server.empty() ? "" : absolutize_command(o.server);

  scenario::TargetSpec t;
  t.transport = kind;
  t.description = command.empty() ? url.text() : command + " (" + kind + ", port in $" + o.port_env + ")";
  t.make = [ho, command, kind](const std::string& workdir, const std::map<std::string, std::string>& env) {
    th::HttpTransportOptions opts = ho;
    if (!command.empty()) {
      transport::SpawnOptions s;
      s.command = command;
      s.workdir = workdir;
      s.env = env;
      opts.spawn = s;
    }
    if (kind == "sse") return std::unique_ptr<transport::Transport>(new th::LegacySseTransport(opts));
    if (kind == "ws") return std::unique_ptr<transport::Transport>(new th::WebSocketTransport(opts));
    return std::unique_ptr<transport::Transport>(new th::StreamableHttpTransport(opts));
  };
  return t;
}

}  // namespace mcpspec::cli
