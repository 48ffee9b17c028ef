// The brainstorm tool (protocol 2026-07-28): asks the client's model for ideas on a topic through
// a sampling input round. When the request declared sampling.tools, the round offers the model a
// lookup tool; a model answer that uses it (stopReason toolUse) gets one tool round: the server
// answers every tool use with a tool result and asks again with the whole exchange. A second tool
// use is not followed: the loop is capped at one tool round (SMP-15). Like the confirm round, the
// server keeps nothing: the requestState names the request and the round.
#include "features.hpp"
#include "session.hpp"

#include <string>

namespace testserver {

namespace {

constexpr int kMissingRequiredClientCapability = -32021;
constexpr const char* kKey = "draft";

std::string round_state(const json& args, int round) {
  return "brainstorm-v1-" + state_digest(args.dump()) + "-r" + std::to_string(round);
}

bool declared(const json& caps, const char* capability, const char* sub = nullptr) {
  if (!caps.contains(capability) || !caps[capability].is_object()) return false;
  return sub == nullptr || caps[capability].contains(sub);
}

json text_block(std::string text) { return {{"type", "text"}, {"text", std::move(text)}}; }

json opening(const Session& s, const std::string& topic) {
  return {{"role", s.faulty(Fault::sampling_bad_role) ? "system" : "user"},
          {"content", text_block("Give three short ideas about " + topic + ".")}};
}

// The input_required result of a round: the sampling request (and, under a fault, roots too).
Outcome ask(const Session& s, const json& args, int round, json messages) {
  const json& caps = s.client_capabilities();
  json params = {{"messages", std::move(messages)}, {"maxTokens", 200}};
  if (declared(caps, "sampling", "tools") || s.faulty(Fault::sampling_tools_undeclared)) {
    params["tools"] = json::array({{{"name", "lookup"},
                                    {"description", "Looks a word up in the test server's glossary."},
                                    {"inputSchema", {{"type", "object"}, {"properties", {{"q", {{"type", "string"}}}}}}}}});
    params["toolChoice"] = {{"mode", "auto"}};
  }
  if (s.faulty(Fault::sampling_context_undeclared)) params["includeContext"] = "thisServer";
  json requests = {{kKey, {{"method", "sampling/createMessage"}, {"params", std::move(params)}}}};
  if (s.faulty(Fault::roots_undeclared) && !declared(caps, "roots")) requests["where"] = {{"method", "roots/list"}};
  return Outcome::ok({{"resultType", "input_required"}, {"inputRequests", std::move(requests)},
                      {"requestState", round_state(args, round)}});
}

json blocks_of(const json& content) { return content.is_array() ? content : json::array({content}); }

// The tool results answering `uses`, with the tool-round faults applied.
json tool_results(const Session& s, const json& uses) {
  json results = json::array();
  for (const auto& use : uses) {
    const std::string id = use.value("id", std::string());
    const json input = use.contains("input") ? use["input"] : json::object();
    results.push_back({{"type", "tool_result"},
                       {"toolUseId", s.faulty(Fault::sampling_tool_result_unmatched) ? "r-" + id : id},
                       {"content", json::array({text_block("no glossary entry for " + input.dump())})}});
  }
  if (s.faulty(Fault::sampling_tool_use_unanswered)) results.erase(results.end() - 1);
  if (s.faulty(Fault::sampling_tool_result_mixed)) results.push_back(text_block("(looked up by the test server)"));
  return results;
}

std::string answer_text(const json& answer) {
  std::string text;
  for (const auto& b : blocks_of(answer.contains("content") ? answer["content"] : json()))
    if (b.is_object() && b.value("type", std::string()) == "text" && b.contains("text") && b["text"].is_string())
      text += b["text"].get<std::string>();
  return text.empty() ? "(no text)" : text;
}

json done(std::string text) {
  return {{"content", json::array({text_block(std::move(text))})}, {"isError", false}};
}

}  // namespace

Outcome call_brainstorm(Session& s, const Request& req, const json& args) {
  const std::string topic = args.value("topic", std::string("anything"));
  const json& caps = s.client_capabilities();
  if (!declared(caps, "sampling"))
    fail(kMissingRequiredClientCapability, "brainstorming needs the sampling capability on the request",
         {{"requiredCapabilities", {{"sampling", json::object()}}}});
  const json* responses = find_member(req.params, "inputResponses");
  if (responses == nullptr) return ask(s, args, 1, json::array({opening(s, topic)}));
  if (!responses->is_object()) fail(rpc_code::invalid_params, "params.inputResponses must be an object");
  const std::string* state = optional_string(req.params, "requestState", "params");
  int round = 0;
  if (state != nullptr && *state == round_state(args, 1)) round = 1;
  if (state != nullptr && *state == round_state(args, 2)) round = 2;
  if (round == 0) fail(rpc_code::invalid_params, "params.requestState is missing or does not belong to this request");
  const json* answer = find_member(*responses, kKey);
  // No usable answer: ask again rather than fail (the client may retry).
  if (answer == nullptr || !answer->is_object() || !answer->contains("content"))
    return ask(s, args, 1, json::array({opening(s, topic)}));
  json uses = json::array();
  for (const auto& b : blocks_of((*answer)["content"]))
    if (b.is_object() && b.value("type", std::string()) == "tool_use" && b.contains("id") && b["id"].is_string())
      uses.push_back(b);
  const bool tool_round = round == 1 && answer->value("stopReason", json()) == "toolUse" && !uses.empty() &&
                          declared(caps, "sampling", "tools");
  if (!tool_round) {
    if (!uses.empty()) return Outcome::ok(done("stopped: the model asked for more than one tool round"));
    return Outcome::ok(done("ideas about " + topic + ": " + answer_text(*answer)));
  }
  json messages = json::array({opening(s, topic), {{"role", "assistant"}, {"content", uses}},
                               {{"role", "user"}, {"content", tool_results(s, uses)}}});
  return ask(s, args, 2, std::move(messages));
}

}  // namespace testserver
