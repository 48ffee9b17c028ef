#pragma once
// The `http` scenario step: one exact HTTP request to the target's endpoint (headers deliberately
// right or wrong), its response turned into a JSON value that the step's matcher checks. This is how
// the HTTP-level rules (status codes, session ids, protocol-version header, Origin, SSE event ids,
// resumption) are tested; see docs/transports.md.
#include "harness/transport/transport.hpp"
#include "harness/util/clock.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec::scenario {

struct HttpStepOutcome {
  nlohmann::json response;  // {"status", "headers", "body", "json", "events", "event_ids", "messages", ...}
  std::string log;          // one line for the wire log: request and status
};

// Sends the request `spec` (already substituted) over the target's HTTP transport. Throws
// ScenarioBug when the transport is not an HTTP one or the spec is unusable, and
// transport::TransportError when the exchange itself fails (connection refused, timeout).
HttpStepOutcome run_http_step(const nlohmann::json& spec, transport::Transport* t, Deadline deadline);

}  // namespace mcpspec::scenario
