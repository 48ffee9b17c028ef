// Turning untrusted text into JSON and JSON into one output line, without ever throwing
// past the caller or recursing without bound.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

namespace testserver {

using json = nlohmann::json;

// Deeper input is refused before parsing: nlohmann's parser is iterative, but destroying and
// dumping a value recurse once per level.
constexpr int kMaxNesting = 512;

struct ParseFailure {
  std::string message;  // says what was wrong and at which byte
};

std::variant<json, ParseFailure> parse_message_text(std::string_view text);

// One line of JSON; invalid UTF-8 (impossible after parsing, but cheap to guard) is replaced
// rather than thrown on.
std::string to_line(const json& value);
std::string to_pretty(const json& value);

// How deeply arrays/objects nest in `text`, stopping early once `limit` is exceeded.
int nesting_depth(std::string_view text, int limit);

}  // namespace testserver
