// Input rounds (protocol 2026-07-28): the confirm tool, the confirm_prompt prompt and the
// test://confirm/gated resource are multi-round-trip requests. The first request answers with an
// input-required result (one elicitation input request, keyed "confirm", and a requestState); the
// client retries the same request under a new id with inputResponses and the requestState. The
// server keeps nothing between the two: requestState is derived from the method and arguments, so a
// retry whose state does not belong to its request (or has none) is refused. The round asks in
// form mode, or in url mode when the request declared url mode and not form mode; a cancelled or
// declined answer completes the request as "not confirmed".
#include "features.hpp"
#include "session.hpp"

#include <cstdint>
#include <cstdio>
#include <functional>

namespace testserver {

namespace {

constexpr int kMissingRequiredClientCapability = -32021;

// The state names the request it belongs to: a digest of its method and arguments.
std::string request_state_for(const std::string& method, const json& args) {
  return "confirm-v1-" + state_digest(method + " " + args.dump());
}

json done(std::string text) {
  return {{"content", json::array({{{"type", "text"}, {"text", std::move(text)}}})}, {"isError", false}};
}

// Whether this request's elicitation capability lets the round ask in url mode only.
bool url_mode(const Session& s) {
  const json& caps = s.client_capabilities();
  if (s.faulty(Fault::elicitation_url_undeclared)) return true;
  if (!caps.contains("elicitation") || !caps["elicitation"].is_object()) return false;
  const json& modes = caps["elicitation"];
  return modes.contains("url") && !modes.contains("form");
}

json elicitation_params(const Session& s, const std::string& target) {
  json params;
  if (url_mode(s)) {
    // A fixed address: a url carries no end-user data (ELI-20).
    params = {{"mode", "url"}, {"message", "Approve " + target + " on the confirmation page"},
              {"url", "https://confirm.example/approve"}};
    if (s.faulty(Fault::elicitation_url_with_id)) params["elicitationId"] = "confirm-1";
    if (s.faulty(Fault::elicitation_url_not_absolute)) params["url"] = "confirm/approve";
  } else {
    json fields = {{"ok", {{"type", "boolean"}}}};
    if (s.faulty(Fault::elicitation_nested_form))
      fields["details"] = {{"type", "object"}, {"properties", {{"note", {{"type", "string"}}}}}};
    params = {{"mode", "form"},
              {"message", "Proceed with " + target + "?"},
              {"requestedSchema", {{"type", "object"}, {"properties", std::move(fields)}, {"required", {"ok"}}}}};
  }
  if (s.faulty(Fault::elicitation_without_message)) params.erase("message");
  return params;
}

json confirm_question(const Session& s, const std::string& target) {
  return {{"method", "elicitation/create"}, {"params", elicitation_params(s, target)}};
}

Outcome ask(const Session& s, const std::string& method, const std::string& target, const json& args) {
  return Outcome::ok({{"resultType", "input_required"},
                      {"inputRequests", {{"confirm", confirm_question(s, target)}}},
                      {"requestState", request_state_for(method, args)}});
}

}  // namespace

std::string state_digest(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: stable across runs and builds
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

Outcome confirm_round(Session& s, const Request& req, const std::string& method, const json& args,
                      const std::string& target,
                      const std::function<Outcome(bool ok, const std::string& action)>& finish) {
  const json* responses = find_member(req.params, "inputResponses");
  if (responses == nullptr) {
    if (s.faulty(Fault::input_state_carried) && s.remembered_confirmation()) return finish(true, "remembered");
    // Elicitation may only be asked for when this very request declared it.
    const json& caps = s.client_capabilities();
    const bool can_elicit = caps.contains("elicitation") && caps["elicitation"].is_object();
    if (!can_elicit && !s.faulty(Fault::input_without_capability)) {
      fail(kMissingRequiredClientCapability, "confirming " + target + " needs the elicitation capability on the request",
           {{"requiredCapabilities", {{"elicitation", {{"form", json::object()}}}}}});
    }
    return ask(s, method, target, args);
  }
  if ((method == "prompts/get" && s.faulty(Fault::prompt_round_refused)) ||
      (method == "resources/read" && s.faulty(Fault::resource_round_refused)))
    fail(rpc_code::invalid_params, method + " takes no inputResponses");
  if (!responses->is_object()) fail(rpc_code::invalid_params, "params.inputResponses must be an object");
  const std::string* state = optional_string(req.params, "requestState", "params");
  if (!s.faulty(Fault::request_state_ignored) && (state == nullptr || *state != request_state_for(method, args))) {
    fail(rpc_code::invalid_params, "params.requestState is missing or does not belong to this request");
  }
  const json* answer = find_member(*responses, "confirm");
  // Still no usable answer: ask again rather than fail (the client may retry).
  if (answer == nullptr || !answer->is_object() || !answer->contains("action")) return ask(s, method, target, args);
  const json& action = (*answer)["action"];
  const json* content = find_member(*answer, "content");
  // A url-mode accept is consent given on the page; it carries no content.
  const bool ok = action == "accept" && (url_mode(s) || (content != nullptr && content->is_object() &&
                                                          content->value("ok", false) == true));
  if (action == "cancel" && s.faulty(Fault::elicitation_cancel_refused))
    fail(rpc_code::internal_error, "the confirmation of " + target + " was cancelled");
  s.remember_confirmation();  // only the input-state-carried fault ever reads it back
  return finish(ok, action.is_string() ? action.get<std::string>() : std::string("?"));
}

Outcome call_confirm(Session& s, const Request& req, const json& args) {
  const std::string target = args.value("target", std::string());
  // With the tasks extension on the request the confirmed work runs as a task, created only once
  // the input round is resolved (XTASK-11). The fault creates the task first and asks inside it.
  const bool as_task = s.modern() && Tasks::declared(s);
  const json* elicitation = find_member(s.client_capabilities(), "elicitation");
  if (as_task && s.faulty(Fault::task_before_input) && elicitation != nullptr && elicitation->is_object() &&
      find_member(req.params, "inputResponses") == nullptr)
    return s.tasks().start_asking(s, "confirm", json::array({confirm_question(s, target)}), "confirmed in the task: " + target);
  return confirm_round(s, req, "tools/call", args, target, [&](bool ok, const std::string& action) {
    json result = action == "remembered" ? done("answered from an earlier call's round: " + target)
                                         : done(ok ? "confirmed: " + target : "not confirmed (" + action + "): " + target);
    if (as_task) return s.tasks().start_with_result(s, "confirm", std::move(result));
    return Outcome::ok(std::move(result));
  });
}

}  // namespace testserver
