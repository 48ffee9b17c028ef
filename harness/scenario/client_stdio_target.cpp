#include "harness/scenario/client_stdio_target.hpp"

#include "harness/transport/unix_socket_transport.hpp"

namespace mcpspec::scenario {

TargetSpec client_stdio_target(const std::string& command, const std::string& bridge_program,
                               std::size_t max_message_bytes) {
  // Fail at once on a command that can never reach the harness, not once per scenario.
  transport::expand_client_command(command, {bridge_program, "bridge", "/check"});
  TargetSpec t;
  t.description = command;
  t.transport = "stdio";
  t.make = [command, bridge_program, max_message_bytes](const std::string& workdir,
                                                        const std::map<std::string, std::string>& env) {
    transport::UnixSocketClientOptions o;
    o.command = command;
    o.bridge_program = bridge_program;
    o.spawn.workdir = workdir;
    o.spawn.env = env;
    o.max_message_bytes = max_message_bytes;
    return std::unique_ptr<transport::Transport>(new transport::UnixSocketClientTransport(o));
  };
  return t;
}

}  // namespace mcpspec::scenario
