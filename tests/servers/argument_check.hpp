// Checks tool arguments against the inputSchema we publish. Only the keywords our own
// schemas use are understood; the point is one source of truth for list and call.
#pragma once

#include <optional>
#include <string>

#include "json_text.hpp"

namespace testserver {

// The first problem found, worded for a human (and a model) to fix, or nothing.
// Understands: type (object, string, number, integer), properties, required,
// additionalProperties:false, minimum, maximum.
std::optional<std::string> check_arguments(const json& schema, const json& args);

}  // namespace testserver
