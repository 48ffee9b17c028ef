// Picks the protocolVersion an initialize reply announces.
#pragma once

#include "mcpref/json.hpp"

#include <string>
#include <vector>

namespace mcpref {

// `supported` is ordered by preference; it must not be empty. The client's requested version
// is echoed when supported; otherwise (absent, not a string, unknown) the first entry is used,
// which is what MCP asks of a server that cannot honour the request.
std::string negotiate_protocol_version(const Json& initialize_params,
                                       const std::vector<std::string>& supported);

}  // namespace mcpref
