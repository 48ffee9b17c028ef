// How the client answers requests the server sends (ping, sampling, roots, elicitation): only what
// it declared, -32601 for the rest.
#pragma once

#include "faults.hpp"

#include <nlohmann/json.hpp>

#include <optional>

namespace testclient {

// The response to one server request, or nullopt when the client (deliberately, by fault) stays silent.
std::optional<nlohmann::json> answer_server_request(const nlohmann::json& request, const nlohmann::json& declared,
                                                    Fault fault);

}  // namespace testclient
