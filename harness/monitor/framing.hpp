#pragma once
// The framing monitor: a frame that is not a JSON-RPC message at all. On a line-framed carrier
// (stdio, a Unix socket) who wrote it decides the rule: a server's stdout is for protocol only
// (STDIO-03), a client must write only messages to the server's stdin (STDIO-04), one message per
// line (STDIO-02). A message-framed carrier (an HTTP body, an SSE event, a WebSocket message) names
// its own rules (an HTTP answer that is no JSON object breaks HTTP-15).
#include "harness/monitor/finding.hpp"
#include "harness/protocol/schema_registry.hpp"

#include <string_view>

namespace mcpspec::monitor {

// True when a frame that is not JSON looks like part of a message spread over several lines
// (pretty-printed JSON): then the messages around it cannot be read either.
bool is_message_fragment(std::string_view text);

// A frame from `writer` that is not JSON: an empty line, a line that is not UTF-8, a fragment of
// a message spread over several lines, or any other text. `parse_error` is the JSON reader's
// message (PeerJson::detail): a message with bytes that are not UTF-8 reads as a fragment
// otherwise, which sent readers looking for embedded newlines that are not there.
Finding unparsable_frame(std::string_view text, protocol::Sender writer, std::string_view parse_error = {});

// A frame of a message-framed carrier that is not JSON: `place` names where it came from ("the 200
// answer to POST tools/call (Content-Type text/plain)"), `rules` what that carrier requires there.
Finding unparsable_message(std::string_view place, std::vector<std::string> rules, std::string_view parse_error = {});

// A frame from `writer` longer than the transport's size limit.
std::vector<std::string> oversize_requirements(protocol::Sender writer);

}  // namespace mcpspec::monitor
