#include "driver.hpp"

#include "awaiting.hpp"
#include "responder.hpp"

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <set>

namespace testclient {

using nlohmann::json;

namespace {

const std::set<std::string> kSupported = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};


void note(const std::string& text) { std::cerr << "mcpspec-testclient: " << text << std::endl; }

}  // namespace

Driver::Driver(ServerProcess& server, json context, Fault fault, long long first_id)
    : server_(server), ctx_(std::move(context)), fault_(fault), next_id_(first_id) {
  declared_ = ctx_.contains("capabilities") && ctx_["capabilities"].is_object() ? ctx_["capabilities"] : json::object();
}

void Driver::send(const json& message) {
  if (!server_.write_line(message.dump())) note("the server no longer reads its stdin");
}

json Driver::send_request(const std::string& method, json params) {
  json id = next_id_++;
  if (initialized_ && fault_ == Fault::null_id) id = nullptr;
  if (initialized_ && fault_ == Fault::reused_id) {
    if (!reused_id_) reused_id_ = id;
    id = *reused_id_;
  }
  json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) msg["params"] = std::move(params);
  send(msg);
  return id;
}

void Driver::pump(int timeout_ms) {
  auto read = read_object(server_, timeout_ms);
  if (!read) return;
  const json& msg = *read;
  bool is_response = msg.contains("id") && !msg.contains("method");
  if (is_response) {
    responses_[msg["id"].dump()] = msg;
    return;
  }
  if (msg.contains("id") && msg.contains("method")) {
    if (auto reply = answer_server_request(msg, declared_, fault_)) send(*reply);
  }
  // Notifications, known or not, need nothing from us.
}

std::optional<json> Driver::await(const json& id, int timeout_ms, int cancel_after_ms) {
  return await_response(responses_, id, timeout_ms, cancel_after_ms, server_, [this](int ms) { pump(ms); }, [&] {
    send({{"jsonrpc", "2.0"},
          {"method", "notifications/cancelled"},
          {"params", {{"requestId", id}, {"reason", "cancelled by mcpspec-testclient"}}}});
  });
}

void Driver::on_error_response(const json& response) {
  note("error response: " + response["error"].dump());
  if (fault_ == Fault::crash_on_error) std::abort();
}

int Driver::shut_down() {
  if (fault_ == Fault::kill_without_closing_stdin) {
    server_.signal(SIGTERM);
    server_.wait_exit(2000);
    server_.shut_down(500);
  } else {
    server_.shut_down(2000);  // close stdin, then escalate
  }
  return 0;
}

bool Driver::run_action(const json& a) {
  std::string what = a.value("do", "");
  bool needs_tools = what == "list_tools" || what == "call_tool";
  if (needs_tools && !(server_caps_.is_object() && server_caps_.contains("tools"))) {
    note("skipping " + what + ": the server did not declare tools");
    return true;
  }
  if (what == "ping" || what == "list_tools") {
    auto id = send_request(what == "ping" ? "ping" : "tools/list", what == "ping" ? json(nullptr) : json::object());
    auto r = await(id, a.value("timeout_ms", 10000));
    if (r && r->contains("error")) on_error_response(*r);
  } else if (what == "call_tool") {
    json params = {{"name", a.value("name", "echo")}, {"arguments", a.value("arguments", json::object())}};
    if (a.value("progress", false)) {
      json token = fault_ == Fault::reused_progress_token ? json("progress") : json("progress-" + std::to_string(next_id_));
      params["_meta"] = {{"progressToken", token}};
    }
    auto id = send_request("tools/call", params);
    if (!a.value("await", true)) {
      pending_.push_back(id);
      return true;
    }
    auto r = await(id, a.value("timeout_ms", 10000), a.value("cancel_after_ms", -1));
    if (r && r->contains("error")) on_error_response(*r);
  } else if (what == "await_all") {
    for (const auto& id : pending_)
      if (auto r = await(id, a.value("timeout_ms", 10000)); r && r->contains("error")) on_error_response(*r);
    pending_.clear();
  } else if (what == "wait_ms") {
    serve_for(a.value("ms", 100), server_, [this](int ms) { pump(ms); });
  } else if (what == "exit") {
    return false;
  } else {
    note("unknown action " + a.dump() + " (ignored)");
  }
  return true;
}

int Driver::run() {
  std::string version = ctx_.value("protocolVersion", "2025-11-25");
  json init_id = send_request("initialize", {{"protocolVersion", version},
                                             {"capabilities", declared_},
                                             {"clientInfo", {{"name", "mcpspec-testclient"}, {"version", "0.1.0"}}}});
  if (fault_ == Fault::request_before_init_response) send_request("tools/list", json::object());
  if (fault_ == Fault::cancel_initialize)
    send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", init_id}}}});
  auto init = await(init_id, ctx_.value("init_timeout_ms", 15000));
  if (!init) {
    note("no initialize response");
    server_.shut_down(500);
    return 1;
  }
  if (init->contains("error")) {
    note("initialize failed: " + (*init)["error"].dump());
    server_.shut_down(500);
    return 1;
  }
  std::string answered = (*init)["result"].value("protocolVersion", "");
  server_caps_ = (*init)["result"].value("capabilities", json::object());
  if (!kSupported.count(answered) && fault_ != Fault::accept_unsupported_version) {
    note("the server answered protocol version \"" + answered + "\", which this client does not implement; disconnecting");
    server_.shut_down(2000);
    return 1;
  }
  if (fault_ != Fault::no_initialized)
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  initialized_ = true;
  // The fault: announce a roots change the client never said it would announce.
  if (fault_ == Fault::roots_list_changed_undeclared && !(declared_.contains("roots") && declared_["roots"].is_object() &&
                                                          declared_["roots"].value("listChanged", false)))
    send({{"jsonrpc", "2.0"}, {"method", "notifications/roots/list_changed"}});
  for (const auto& a : ctx_.value("actions", json::array())) {
    if (!run_action(a)) return shut_down();
    if (server_.stdout_closed()) break;
  }
  // Serve the server until it goes away (or we have waited long enough).
  serve_for(ctx_.value("linger_ms", 60000), server_, [this](int ms) { pump(std::min(ms, 100)); });
  if (server_.stdout_closed()) note("the server closed its stdout; ending the session");
  return shut_down();
}

}  // namespace testclient
