// JSON type and serialisation helpers shared by the reference systems.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace mcpref {

// Insertion-ordered objects: tool outputs are read by people and the contract documents show
// keys in a meaningful order ("id" before "title" ...), which a sorted map would scramble.
using Json = nlohmann::ordered_json;

// One-line form for the wire. Invalid UTF-8 (possible in files we echo back) is replaced
// rather than thrown on, so a bad byte in a spec can never take the server down.
std::string to_line(const Json& value);

// Two-space indented form used for JSON carried inside tool result text.
std::string to_pretty(const Json& value);

}  // namespace mcpref
