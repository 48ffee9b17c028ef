#pragma once
// The target of `mcpspec run --client 'CMD {url}' --transport http|sse|ws`: a client started once
// per scenario and given the URL of a server end the harness runs on 127.0.0.1
// (harness/transport/http/http_client_target.hpp).
#include "harness/scenario/runner.hpp"

#include <string>

namespace mcpspec::scenario {

// Throws transport::TransportError when `command` has no {url} placeholder or `transport` is not
// one mcpspec can serve to a client.
TargetSpec client_http_target(const std::string& command, const std::string& transport, std::size_t max_message_bytes);

}  // namespace mcpspec::scenario
