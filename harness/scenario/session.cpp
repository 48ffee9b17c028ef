#include "harness/scenario/session.hpp"

#include "harness/util/json_text.hpp"

#include <fmt/format.h>

namespace mcpspec::scenario {

using nlohmann::json;
using protocol::Kind;

namespace {

std::optional<double> number_of(const json& j) {
  if (j.is_number()) return j.get<double>();
  return std::nullopt;
}

}  // namespace

Session::Session(const Scenario& scenario, SessionConfig config, ScenarioResult& result, Clock::time_point started)
    : Conversation(scenario, std::move(config), result, started, protocol::Sender::Server) {}

const std::string& Session::validation_version() const {
  return negotiated_.empty() ? config_.proposed_version : negotiated_;
}

void Session::attach(std::unique_ptr<transport::Transport> t) {
  // A restarted server is a new MCP session: nothing of the old one carries over.
  gone_ = false;
  gone_reason_.clear();
  requests_.clear();
  progress_.clear();
  server_request_ids_.clear();
  negotiated_.clear();
  server_caps_ = nullptr;
  initialized_sent_ = false;
  adopt(std::move(t));
}

json Session::next_request_id() {
  while (used_ids().count(protocol::id_key(json(next_id_)))) ++next_id_;
  return json(next_id_++);
}

void Session::note_outbound(const protocol::Classified& c, const json& message, bool deliberately_invalid) {
  if (deliberately_invalid) ++unreadable_sent_;
  if (c.id) used_ids().insert(protocol::id_key(*c.id));
  if (c.kind == Kind::Request && c.id) {
    Outstanding o;
    o.method = c.method;
    const json* params = message.contains("params") ? &message["params"] : nullptr;
    if (params && params->is_object() && params->contains("_meta") && (*params)["_meta"].is_object() &&
        (*params)["_meta"].contains("progressToken")) {
      std::string tk = protocol::id_key((*params)["_meta"]["progressToken"]);
      o.progress_token = tk;
      progress_[tk] = ProgressState{protocol::id_key(*c.id), std::nullopt};
    }
    if (c.method == "initialize" && params && params->is_object() && params->contains("capabilities"))
      client_caps_ = (*params)["capabilities"];
    requests_[protocol::id_key(*c.id)] = o;
  }
  if (c.kind == Kind::Notification && c.method == "notifications/initialized") initialized_sent_ = true;
}

void Session::framing_finding(const std::string& text) {
  std::string trimmed = text;
  trimmed.erase(0, trimmed.find_first_not_of(" \t\r"));
  bool fragment = !trimmed.empty() && std::string("{}[]\"").find(trimmed[0]) != std::string::npos;
  if (trimmed.empty())
    monitor_finding("framing", {"STDIO-02"}, "an empty line on stdout (messages are one per line)", text);
  else if (fragment)
    monitor_finding("framing", {"STDIO-02", "STDIO-03"},
                    "a stdout line is a fragment of JSON: a message spread over several lines (embedded newlines)",
                    text);
  else
    monitor_finding("framing", {"STDIO-03"}, "a stdout line is not a JSON-RPC message (stdout is for protocol only)",
                    text);
}

void Session::on_closed(const std::string& text) {
  event(text);
  gone_ = true;
  gone_reason_ = "the target closed its output";
}

void Session::on_exited(const std::string& text) {
  event("target ended: " + text);
  gone_ = true;
  gone_reason_ = "the target ended (" + text + ")";
}

void Session::monitor_response(const json& msg, const protocol::Classified& c, std::string& answered_method) {
  bool id_missing = !c.id || c.id->is_null();
  if (id_missing) {
    // Only an error answering a frame we made unreadable on purpose may lack an id.
    if (c.kind == Kind::Error && unreadable_sent_ > 0) {
      --unreadable_sent_;
      return;
    }
    monitor_finding("unsolicited_response", {"BASE-12", "BASE-06"},
                    c.kind == Kind::Error ? "an error response without an id, answering nothing the harness sent "
                                            "unreadable (a response to a notification?)"
                                          : "a result response without an id (a response to a notification?)",
                    compact(msg));
    return;
  }
  auto key = protocol::id_key(*c.id);
  auto it = requests_.find(key);
  if (it == requests_.end()) {
    if (c.kind == Kind::Error && unreadable_sent_ > 0 && used_ids().count(key)) {
      --unreadable_sent_;
      return;
    }
    monitor_finding("unsolicited_response", {"BASE-06", "BASE-12"},
                    "a response with id " + compact(*c.id) +
                        ", which matches no request the harness sent (ids must be echoed exactly: type and value)",
                    compact(msg));
    return;
  }
  answered_method = it->second.method;
  if (it->second.answered) {
    monitor_finding("duplicate_response", {"MCPSPEC-RESPONSE"},
                    "a second response to request " + compact(*c.id) + " (" + it->second.method + ")", compact(msg));
    return;
  }
  it->second.answered = true;
  if (it->second.method == "initialize" && c.kind == Kind::Result && msg["result"].is_object()) {
    const auto& r = msg["result"];
    if (r.contains("protocolVersion") && r["protocolVersion"].is_string()) {
      std::string v = r["protocolVersion"];
      // Validate further traffic with the answered version when we know it; otherwise keep ours.
      if (config_.schemas && config_.schemas->has_version(v)) negotiated_ = v;
      else event("the target answered protocolVersion " + v + ", which mcpspec has no schema for");
    }
    if (r.contains("capabilities")) server_caps_ = r["capabilities"];
  }
}

void Session::monitor_notification(const json& msg, const protocol::Classified& c) {
  check_capability(msg, c, server_caps_, client_caps_);
  if (c.method != "notifications/progress") return;
  const json empty = json::object();
  const json& params = msg.contains("params") && msg["params"].is_object() ? msg["params"] : empty;
  if (!params.contains("progressToken")) return;  // the schema monitor reports the missing field
  std::string tk = protocol::id_key(params["progressToken"]);
  auto it = progress_.find(tk);
  if (it == progress_.end()) {
    monitor_finding("progress", {"PROG-06"},
                    "progress for token " + compact(params["progressToken"]) + ", which no request of the harness "
                    "carried", compact(msg));
    return;
  }
  auto req = requests_.find(it->second.request_key);
  if (req != requests_.end() && req->second.answered) {
    monitor_finding("progress", {"PROG-10"},
                    "progress for token " + compact(params["progressToken"]) + " after the response to its request",
                    compact(msg));
  }
  auto p = params.contains("progress") ? number_of(params["progress"]) : std::nullopt;
  if (p) {
    if (it->second.last && *p <= *it->second.last)
      monitor_finding("progress", {"PROG-03"},
                      fmt::format("progress went from {} to {} for token {}: it must strictly increase",
                                  *it->second.last, *p, compact(params["progressToken"])),
                      compact(msg));
    it->second.last = p;
  }
}

void Session::monitor_request(const json& msg, const protocol::Classified& c) {
  if (c.id && !server_request_ids_.insert(protocol::id_key(*c.id)).second)
    monitor_finding("ids", {"BASE-05"}, "the server used request id " + compact(*c.id) + " twice in one session",
                    compact(msg));
  check_capability(msg, c, server_caps_, client_caps_);
  if (c.method != "ping" && !initialized_sent_)
    monitor_finding("capabilities", {"LC-06"},
                    "the server sent a request (" + c.method + ") before the client's initialized notification",
                    compact(msg));
  // The harness is the client here: answer what a client must answer so the session stays healthy.
  json reply = {{"jsonrpc", "2.0"}, {"id", *c.id}};
  if (c.method == "ping") reply["result"] = json::object();
  else reply["error"] = {{"code", -32601}, {"message", "mcpspec does not offer " + c.method}};
  std::string text = compact(reply);
  log(WireEntry::Dir::Out, text);
  try {
    if (transport()) transport()->send(text, Deadline::after_ms(1000));
  } catch (const std::exception& e) {
    event(std::string("could not answer the target's request: ") + e.what());
  }
}

}  // namespace mcpspec::scenario
