#include "harness/scenario/client_http_target.hpp"

#include "harness/transport/http/http_client_target.hpp"

namespace mcpspec::scenario {

TargetSpec client_http_target(const std::string& command, const std::string& transport, std::size_t max_message_bytes) {
  if (transport != "http" && transport != "sse" && transport != "ws")
    throw transport::TransportError("clients can be tested over --transport stdio, http, sse or ws, not " + transport);
  // Fail at once on a command that can never reach the harness, not once per scenario.
  transport::http::expand_url_command(command, "http://127.0.0.1:1/check");
  TargetSpec t;
  t.description = command;
  t.transport = transport;
  t.make = [command, transport, max_message_bytes](const std::string& workdir,
                                                   const std::map<std::string, std::string>& env) {
    transport::http::HttpClientOptions o;
    o.command = command;
    o.transport = transport;
    o.spawn.workdir = workdir;
    o.spawn.env = env;
    o.server.max_message_bytes = max_message_bytes;
    return std::unique_ptr<transport::Transport>(new transport::http::HttpClientTarget(o));
  };
  return t;
}

}  // namespace mcpspec::scenario
