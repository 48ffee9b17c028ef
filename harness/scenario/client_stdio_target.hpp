#pragma once
// The target of `mcpspec run --client CMD`: a stdio client, started once per scenario, that is told
// to start `mcpspec bridge SOCKET` as its server (harness/transport/unix_socket_transport.hpp).
#include "harness/scenario/runner.hpp"

#include <string>

namespace mcpspec::scenario {

// `bridge_program` is the absolute path of the mcpspec binary. Throws transport::TransportError
// when `command` has no {server} / {server_argv_json} placeholder.
TargetSpec client_stdio_target(const std::string& command, const std::string& bridge_program,
                               std::size_t max_message_bytes);

}  // namespace mcpspec::scenario
