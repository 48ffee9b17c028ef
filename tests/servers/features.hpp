// Request handlers of the feature modules (tools.cpp, resources.cpp, prompts.cpp,
// completion.cpp, logging_methods.cpp). Each validates its params and throws RpcFailure to refuse.
#pragma once

#include <functional>
#include <string>

#include "outcome.hpp"

namespace testserver {

class Session;
struct Request;

Outcome tools_list(Session& s, const Request& req);
Outcome tools_call(Session& s, const Request& req);
// The confirm tool's input rounds (protocol 2026-07-28, input_rounds.cpp).
Outcome call_confirm(Session& s, const Request& req, const json& args);
// A stable digest of `text` (16 hex digits) that the input rounds derive their requestState from,
// so a stateless server can tell its own state for a request from another's (input_rounds.cpp).
std::string state_digest(const std::string& text);
// The brainstorm tool's sampling rounds, with one tool round (protocol 2026-07-28, sampling_rounds.cpp).
Outcome call_brainstorm(Session& s, const Request& req, const json& args);
// One confirmation round of any request that may ask for input (tools/call, prompts/get,
// resources/read): input_required (or -32021) until the retry carries the answer, then `finish`
// with whether it was accepted and the elicitation action.
Outcome confirm_round(Session& s, const Request& req, const std::string& method, const json& args,
                      const std::string& target,
                      const std::function<Outcome(bool ok, const std::string& action)>& finish);

Outcome resources_list(Session& s, const Request& req);
Outcome resources_templates_list(Session& s, const Request& req);
Outcome resources_read(Session& s, const Request& req);
Outcome resources_subscribe(Session& s, const Request& req);
Outcome resources_unsubscribe(Session& s, const Request& req);

Outcome prompts_list(Session& s, const Request& req);
Outcome prompts_get(Session& s, const Request& req);

Outcome completion_complete(Session& s, const Request& req);

Outcome logging_set_level(Session& s, const Request& req);

}  // namespace testserver
