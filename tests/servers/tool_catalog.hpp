// The tools this server offers, as published by tools/list for a given protocol revision.
#pragma once

#include <string_view>

#include "json_text.hpp"
#include "options.hpp"
#include "protocol_version.hpp"

namespace testserver {

// tools/list entries for revision `v`, with the listing faults (tool-schema-not-object,
// tool-name-invalid) applied.
json published_tools(const Options& opt, Version v);

// The schema arguments are checked against: always the correct one, whatever was published.
// Null when there is no such tool.
json input_schema_of(const Options& opt, Version v, std::string_view tool);

// add's outputSchema (2025-06-18 and later).
json add_output_schema();

// The name listed by the tool-name-invalid fault.
constexpr std::string_view kBadlyNamedTool = "say hello, world!";

}  // namespace testserver
