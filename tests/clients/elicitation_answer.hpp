// What the test client answers to a 2026-07-28 elicitation input request, as a user who agrees to
// everything would: a form (mode "form", or no mode at all, ELI-05) is accepted with a value for
// every property of requestedSchema, a URL request (mode "url") is accepted without content (the
// user consented to open it). A mode the client did not declare is declined; an elicitation
// capability of {} means form mode only (ELI-02).
#pragma once

#include "faults.hpp"

#include <nlohmann/json.hpp>

namespace testclient {

nlohmann::json elicitation_answer(const nlohmann::json& params, const nlohmann::json& declared, Fault fault);

}  // namespace testclient
