#pragma once
// What the input requests of an input_required result (protocol 2026-07-28) ask of the client,
// judged against the rules of the feature each one belongs to and against the client capabilities
// the request being answered declared in its _meta. Part of the modern monitor (same name, so
// "monitors": {"modern": false} switches it off too). Whether a capability was declared at all is
// MRTR-05 (modern_results.cpp); here, what is asked within a declared one:
//  - elicitation/create: a message (ELI-04); only a mode the client declared, "elicitation": {}
//    meaning form (ELI-03); form mode with a requestedSchema that is a flat object of primitive
//    properties (string with format email, uri, date or date-time; number; integer; boolean;
//    single- or multi-select enums) (ELI-06) and valid 2020-12 (JSD-05); URL mode with a url that
//    is an absolute URL and no elicitationId (ELI-07);
//  - sampling/createMessage: tools or toolChoice only when sampling.tools was declared (SMP-04);
//    includeContext thisServer/allServers only when sampling.context was (SMP-06, a SHOULD); each
//    message a user or assistant turn with content (SMP-19); a user message holding tool results
//    holds nothing else (SMP-07); every assistant tool_use is followed at once by a user message of
//    tool results answering exactly its tool uses (SMP-08, SMP-09); every tool result answers an
//    earlier tool use (SMP-10).
#include "harness/monitor/finding.hpp"

#include <nlohmann/json.hpp>

namespace mcpspec::monitor {

// `input_requests`: the result's inputRequests object; `capabilities`: the clientCapabilities the
// answered request declared ({} when none).
Findings judge_input_requests(const nlohmann::json& input_requests, const nlohmann::json& capabilities);

}  // namespace mcpspec::monitor
