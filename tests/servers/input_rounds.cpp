// Input rounds (protocol 2026-07-28): the confirm tool, the confirm_prompt prompt and the
// test://confirm/gated resource are multi-round-trip requests. The first request answers with an
// input-required result (one elicitation input request, keyed "confirm", and a requestState); the
// client retries the same request under a new id with inputResponses and the requestState. The
// server keeps nothing between the two: requestState is derived from the method and arguments, so a
// retry whose state does not belong to its request (or has none) is refused.
#include "features.hpp"
#include "session.hpp"

#include <cstdint>
#include <cstdio>
#include <functional>

namespace testserver {

namespace {

constexpr int kMissingRequiredClientCapability = -32021;

// FNV-1a: a stable digest of the method and arguments, so the state names the request it belongs to.
std::string request_state_for(const std::string& method, const json& args) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : method + " " + args.dump()) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "confirm-v1-%016llx", static_cast<unsigned long long>(h));
  return buf;
}

json done(std::string text) {
  return {{"content", json::array({{{"type", "text"}, {"text", std::move(text)}}})}, {"isError", false}};
}

json confirm_question(const std::string& target) {
  return {{"method", "elicitation/create"},
          {"params",
           {{"mode", "form"},
            {"message", "Proceed with " + target + "?"},
            {"requestedSchema",
             {{"type", "object"}, {"properties", {{"ok", {{"type", "boolean"}}}}}, {"required", {"ok"}}}}}}};
}

Outcome ask(const std::string& method, const std::string& target, const json& args) {
  return Outcome::ok({{"resultType", "input_required"},
                      {"inputRequests", {{"confirm", confirm_question(target)}}},
                      {"requestState", request_state_for(method, args)}});
}

}  // namespace

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
    return ask(method, target, args);
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
  if (answer == nullptr || !answer->is_object() || !answer->contains("action")) return ask(method, target, args);
  const json& action = (*answer)["action"];
  const json* content = find_member(*answer, "content");
  const bool ok = action == "accept" && content != nullptr && content->is_object() && content->value("ok", false) == true;
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
    return s.tasks().start_asking(s, "confirm", json::array({confirm_question(target)}), "confirmed in the task: " + target);
  return confirm_round(s, req, "tools/call", args, target, [&](bool ok, const std::string& action) {
    json result = action == "remembered" ? done("answered from an earlier call's round: " + target)
                                         : done(ok ? "confirmed: " + target : "not confirmed (" + action + "): " + target);
    if (as_task) return s.tasks().start_with_result(s, "confirm", std::move(result));
    return Outcome::ok(std::move(result));
  });
}

}  // namespace testserver
