#include "responder.hpp"

namespace testclient {

using nlohmann::json;

namespace {

json error_reply(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

bool has(const json& caps, const char* name) {
  return caps.is_object() && caps.contains(name) && caps[name].is_object();
}

}  // namespace

std::optional<json> answer_server_request(const json& req, const json& declared, Fault fault) {
  const json id = req["id"];
  const std::string method = req.value("method", "");
  json reply = {{"jsonrpc", "2.0"}, {"id", id}};
  if (method == "ping") {
    if (fault == Fault::no_ping_answer) return std::nullopt;
    reply["result"] = json::object();
    return reply;
  }
  if (method == "sampling/createMessage") {
    if (!has(declared, "sampling") && fault != Fault::answer_undeclared_sampling)
      return error_reply(id, -32601, "sampling is not supported by this client");
    reply["result"] = {{"role", "assistant"},
                       {"content", {{"type", "text"}, {"text", "canned answer from mcpspec-testclient"}}},
                       {"model", "mcpspec-testclient"},
                       {"stopReason", "endTurn"}};
    return reply;
  }
  if (method == "roots/list") {
    if (!has(declared, "roots")) return error_reply(id, -32601, "roots are not supported by this client");
    const char* uri = fault == Fault::roots_not_file_uri ? "https://example.com/mcpspec-testclient" : "file:///tmp/mcpspec-testclient";
    reply["result"] = {{"roots", json::array({{{"uri", uri}, {"name", "scratch"}}})}};
    return reply;
  }
  if (method == "elicitation/create") {
    if (!has(declared, "elicitation")) return error_reply(id, -32601, "elicitation is not supported by this client");
    reply["result"] = {{"action", "decline"}};
    return reply;
  }
  return error_reply(id, -32601, "method not found: " + method);
}

}  // namespace testclient
