// The answer to one input request of 2026-07-28 (an entry of inputRequests, in an input_required
// result or in an input_required task): the test client answers it as it would the same request
// sent on its own, so an MRTR round and a task's input share one trust model (XTASK-16).
#pragma once

#include "faults.hpp"

#include <nlohmann/json.hpp>

#include <optional>

namespace testclient {

// The inputResponses entry for `input_request` ({"method", "params"}); nullopt when the client
// cannot answer it (an undeclared capability, a malformed entry), so the key is left out.
std::optional<nlohmann::json> answer_input_request(const nlohmann::json& input_request, const nlohmann::json& declared,
                                                   Fault fault);

}  // namespace testclient
