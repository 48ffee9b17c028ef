#pragma once
// The part of a received value that a mismatch is about. A failing expectation's diff names JSON
// pointers into the value ("/result/tools/3/name: expected a string, got 7"); when the received
// value is long (a whole tool list), the console shows the subtree the first pointer reaches
// instead of the whole value, so the differing part is on screen and the rest is in the wire log.
#include <cstddef>
#include <string>

namespace mcpspec::reports {

struct Excerpt {
  std::string text;  // what to show (laid out over lines, at most the caller's line limit + a "more lines" note)
  std::string at;    // the JSON pointer the excerpt starts at; empty when it is the whole value
  bool cut = false;  // true when something of the value is not shown
};

// `received`: the value as the finding holds it (JSON or other text); `diff`: the finding's diff,
// one "<pointer>: <what differs>" per line (may be empty); `message`: the finding's message, whose
// first word starting with '/' is the pointer when the diff has none (schema findings). The whole
// value when it fits in `max_lines`; otherwise the subtree at the deepest node of that pointer
// that exists in the value (its parent when that node is a scalar, so the neighbours show), cut
// to `max_lines`.
Excerpt received_excerpt(const std::string& received, const std::string& diff, const std::string& message,
                         std::size_t max_lines, std::size_t line_bytes);

}  // namespace mcpspec::reports
