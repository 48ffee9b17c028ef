#pragma once
// How deeply arrays/objects nest in JSON text, found by a linear scan before anything parses it.
// nlohmann's parser is iterative, but serializing, copying and comparing a value recurse once per
// level: a peer that sends a line of 100000 '[' (200 KB, far under the frame limit) would exhaust
// the harness's stack the first time the message is shown in a report. Found by
// fuzz/targets/message_parser_fuzz.cpp; such frames are refused before parsing.
#include <cstddef>
#include <string_view>

namespace mcpspec::protocol {

// Deeper than any real MCP message (schemas of tools nest a few dozen levels at most).
inline constexpr std::size_t kMaxJsonDepth = 512;

// True when `text` opens more than `limit` arrays/objects at once (brackets inside strings do not
// count). Malformed text is not judged here: the parser reports it.
inline bool json_nests_deeper_than(std::string_view text, std::size_t limit = kMaxJsonDepth) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace mcpspec::protocol
