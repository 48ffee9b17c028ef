#include "modern_driver.hpp"

#include "awaiting.hpp"
#include "driver.hpp"
#include "input_answer.hpp"
#include "network_refs.hpp"
#include "schema_budget.hpp"
#include "tasks_client.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

namespace testclient {

using nlohmann::json;

namespace {

constexpr const char* kVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kCapsKey = "io.modelcontextprotocol/clientCapabilities";
constexpr const char* kInfoKey = "io.modelcontextprotocol/clientInfo";
constexpr const char* kSubscriptionKey = "io.modelcontextprotocol/subscriptionId";

// The error codes only a modern server sends (header mismatch, missing capability, unsupported version).
bool is_modern_error(const json& error) {
  if (!error.is_object() || !error.contains("code") || !error["code"].is_number_integer()) return false;
  int code = error["code"].get<int>();
  return code == -32020 || code == -32021 || code == -32022;
}


void note(const std::string& text) { std::cerr << "mcpspec-testclient: " << text << std::endl; }

}  // namespace

ModernDriver::ModernDriver(ServerProcess& server, json context, Fault fault, std::string version)
    : server_(server), ctx_(std::move(context)), fault_(fault), version_(std::move(version)) {
  declared_ = ctx_.contains("capabilities") && ctx_["capabilities"].is_object() ? ctx_["capabilities"] : json::object();
  modern_versions_ = {"2026-07-28", version_};
}

void ModernDriver::send(const json& message) {
  if (!server_.write_line(message.dump())) note("the server no longer reads its stdin");
}

json ModernDriver::meta() const {
  // A vendor key and a trace context on every request, so the receiver's _meta rules get exercised.
  json caps = declared_;
  if (fault_ == Fault::modern_sampling_undeclared) caps.erase("sampling");
  if (fault_ == Fault::modern_elicitation_undeclared) caps.erase("elicitation");
  if (fault_ == Fault::modern_roots_list_changed && caps.contains("roots")) caps["roots"]["listChanged"] = true;
  json m = {{kVersionKey, version_},
            {kCapsKey, caps},
            {kInfoKey, {{"name", "mcpspec-testclient"}, {"version", "0.1.0"}}},
            {"dev.mcpspec/testclient-run", next_id_},
            {"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}};
  if (fault_ == Fault::modern_bad_meta_prefix) m["1dev.mcpspec/run"] = true;
  if (fault_ == Fault::modern_bad_meta_name) m["dev.mcpspec/-run"] = true;
  if (fault_ == Fault::modern_bad_traceparent) m["traceparent"] = "not-a-trace";
  if (discovered_ && fault_ == Fault::modern_no_meta_version) m.erase(kVersionKey);
  if (discovered_ && fault_ == Fault::modern_no_meta_capabilities) m.erase(kCapsKey);
  return m;
}

json ModernDriver::send_request(const std::string& method, json params) {
  json id = next_id_++;
  if (!params.is_object()) params = json::object();
  json m = meta();
  if (params.contains("_meta")) m.update(params["_meta"]);
  params["_meta"] = m;
  send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
  return id;
}

void ModernDriver::on_notification(const json& msg) {
  const std::string method = msg.value("method", "");
  if (!listen_id_ || method.rfind("notifications/", 0) != 0 || method == "notifications/subscriptions/acknowledged")
    return;
  bool list_changed = method == "notifications/tools/list_changed";
  if (!list_changed) return;
  json tag;
  if (msg.contains("params") && msg["params"].is_object() && msg["params"].contains("_meta") &&
      msg["params"]["_meta"].is_object() && msg["params"]["_meta"].contains(kSubscriptionKey))
    tag = msg["params"]["_meta"][kSubscriptionKey];
  // Only a notification of this client's own subscription says something about its server view.
  if (tag != *listen_id_ && fault_ != Fault::untagged_subscription) {
    note("ignoring " + method + " tagged " + tag.dump() + ", not with this client's subscription");
    return;
  }
  send_request("tools/list", json::object());  // refresh the tool list; the answer is not awaited
}

void ModernDriver::pump(int timeout_ms) {
  auto read = read_object(server_, timeout_ms);
  if (!read) return;
  const json& msg = *read;
  if (msg.contains("id") && !msg.contains("method")) {
    if (fault_ == Fault::crash_on_late_response && cancelled_.count(msg["id"].dump())) std::abort();
    responses_[msg["id"].dump()] = msg;
  } else if (msg.contains("id")) {
    note("the server sent a request (" + msg.value("method", "?") + "), which 2026-07-28 servers never do; not answered");
  } else {
    on_notification(msg);
  }
}

std::optional<json> ModernDriver::await(const json& id, int timeout_ms, int cancel_after_ms) {
  return await_response(responses_, id, timeout_ms, cancel_after_ms, server_, [this](int ms) { pump(ms); }, [&] {
    cancelled_.insert(id.dump());
    send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", id}}}});
  });
}

std::optional<std::string> ModernDriver::probe() {
  for (int attempt = 0; attempt < 2; ++attempt) {
    json id = send_request("server/discover", json::object());
    auto r = await(id, ctx_.value("probe_timeout_ms", 2000));
    if (!r) return std::string();  // silence: a legacy server
    if (r->contains("result")) {
      discovered_ = true;
      server_caps_ = (*r)["result"].value("capabilities", json::object());
      return version_;
    }
    const json& error = (*r)["error"];
    bool fall_back_anyway = fault_ == Fault::fallback_on_modern_error;
    if (!is_modern_error(error) || fall_back_anyway) {
      bool method_not_found = error.is_object() && error.value("code", 0) == -32601;
      if (fault_ == Fault::fallback_only_on_method_not_found && !method_not_found) {
        note("the probe failed with " + error.dump() + "; not falling back (fault)");
        return std::nullopt;
      }
      return std::string();
    }
    // A modern server: use a version it listed that this client speaks, never initialize.
    std::string chosen;
    if (error.contains("data") && error["data"].is_object() && error["data"].contains("supported") &&
        error["data"]["supported"].is_array())
      for (const auto& v : error["data"]["supported"])
        if (v.is_string() && modern_versions_.count(v.get<std::string>()) && v != version_) chosen = v;
    if (chosen.empty()) {
      note("the server speaks no protocol version this client implements: " + error.dump());
      return std::nullopt;
    }
    version_ = chosen;
  }
  return std::nullopt;
}

// The params of the retry answering `result` (an input_required result for `call`): the original
// params with an answer under every input request's key and the requestState echoed.
json ModernDriver::retry_params(const PendingCall& call, const json& result) {
  json retry = call.params;
  json answers = json::object();
  if (result.contains("inputRequests") && result["inputRequests"].is_object())
    for (const auto& [key, request] : result["inputRequests"].items()) {
      if (fault_ == Fault::mrtr_missing_response) break;
      auto answer = answer_input_request(request, declared_, fault_);
      if (!answer) continue;  // cannot answer: leave the key out
      answers[key] = *answer;
      if (fault_ == Fault::modern_sends_response) send({{"jsonrpc", "2.0"}, {"id", key}, {"result", answers[key]}});
    }
  json state = result.contains("requestState") ? result["requestState"] : json();
  if (fault_ == Fault::mrtr_shared_input_slot) {
    // One slot for every call in flight: answers pile up, a state stays until another replaces it.
    shared_answers_.update(answers);
    answers = shared_answers_;
    if (!state.is_null()) shared_state_ = state;
    state = shared_state_;
  }
  if (!answers.empty() || fault_ == Fault::mrtr_missing_response) retry["inputResponses"] = answers;
  if (!state.is_null() && fault_ != Fault::mrtr_state_not_echoed) retry["requestState"] = state;
  if (fault_ == Fault::mrtr_arguments_changed && retry.contains("arguments") && retry["arguments"].is_object())
    retry["arguments"]["changed_by_fault"] = true;
  return retry;
}

namespace {
// Whether `retry` accepts a URL-mode elicitation that `result` asked for (the fault above).
bool accepts_url_elicitation(const json& result, const json& retry) {
  if (!result.contains("inputRequests") || !result["inputRequests"].is_object() || !retry.contains("inputResponses"))
    return false;
  for (const auto& [key, request] : result["inputRequests"].items()) {
    const json params = request.is_object() ? request.value("params", json::object()) : json::object();
    const json answer = retry["inputResponses"].value(key, json::object());
    if (params.is_object() && params.value("mode", "") == "url" && answer.is_object() &&
        answer.value("action", "") == "accept")
      return true;
  }
  return false;
}
}  // namespace

bool ModernDriver::advance(PendingCall& call, std::optional<json> r) {
  auto finish = [&call](std::optional<json> answer) {
    call.answer = std::move(answer);
    call.over = true;
    return true;
  };
  if (!r || !r->contains("result") || !(*r)["result"].is_object()) return finish(std::move(r));
  const json& result = (*r)["result"];
  if (fault_ == Fault::result_type_absent_not_complete && !result.contains("resultType") && call.rounds++ == 0) {
    note("no resultType: sending the request again (fault)");
    call.id = send_request(call.method, call.params);
    return false;
  }
  std::string type = result.value("resultType", "complete");
  if (type == "complete") return finish(std::move(r));
  if (type == "task") {
    // A task handle only for a request that can become a task, and only after declaring the
    // extension on it: anything else is an invalid response (XTASK-05).
    if (!task_capable(call.method) || !declares_tasks(declared_)) {
      note("a task handle answered " + call.method + ", which cannot become a task here: the result is invalid");
      return finish(std::nullopt);
    }
    if (fault_ == Fault::task_result_ignored) return finish(std::move(r));
    return finish(follow_task(result, call.id, declared_, fault_, call.cancel_after_ms, task_link()));
  }
  if (type != "input_required") {
    note("unknown resultType \"" + type + "\": the result is invalid");
    return finish(std::nullopt);
  }
  if (++call.rounds > 4) {
    note("the server kept asking for input; giving up");
    return finish(std::nullopt);
  }
  json retry = retry_params(call, result);
  if (fault_ == Fault::url_accept_awaits_completion && accepts_url_elicitation(result, retry)) {
    note("a URL elicitation was accepted: waiting for its completion notice instead of retrying (fault)");
    return finish(std::nullopt);
  }
  if (fault_ == Fault::mrtr_old_id) {
    retry["_meta"] = meta();
    send({{"jsonrpc", "2.0"}, {"id", call.id}, {"method", call.method}, {"params", retry}});
  } else {
    call.id = send_request(call.method, retry);
  }
  return false;
}

std::optional<json> ModernDriver::call_with_rounds(const std::string& method, json params, int timeout_ms,
                                                   int cancel_after_ms) {
  PendingCall call(method, params, send_request(method, params));
  call.cancel_after_ms = cancel_after_ms;
  while (!advance(call, await(call.id, timeout_ms, cancel_after_ms))) {
  }
  return call.answer;
}

// Several tools/call requests in flight at once, as a host runs independent tool calls: all are
// sent first, then each answer, input rounds included, is followed for its own call.
void ModernDriver::call_tools_parallel(const json& a) {
  std::vector<PendingCall> calls;
  for (const auto& c : a.value("calls", json::array())) {
    if (!c.is_object()) continue;
    json params = {{"name", c.value("name", "echo")}, {"arguments", c.value("arguments", json::object())}};
    calls.emplace_back("tools/call", params, send_request("tools/call", params));
  }
  const long long until = steady_ms() + a.value("timeout_ms", 10000);
  auto open = [&calls] { return std::any_of(calls.begin(), calls.end(), [](const PendingCall& c) { return !c.over; }); };
  while (open() && steady_ms() < until && !server_.stdout_closed()) {
    pump(20);
    for (auto& c : calls) {
      auto it = c.over ? responses_.end() : responses_.find(c.id.dump());
      if (it == responses_.end()) continue;
      json r = std::move(it->second);
      responses_.erase(it);
      advance(c, std::move(r));
      if (c.over && c.answer && c.answer->contains("error")) note("error response: " + (*c.answer)["error"].dump());
    }
  }
  if (open()) note("a parallel tools/call got no final answer in time");
}

// A listed tool whose schemas this client cannot use is dropped: the host never calls it.
void ModernDriver::judge_tool_schemas(const json& tool) {
  if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) return;
  const std::string name = tool["name"];
  // A network $ref is never fetched (JSD-06), so it stays unresolved and the schema is rejected,
  // not read as allowing anything (JSD-08).
  const auto refs = network_refs(json::array({tool}));
  for (const auto& ref : refs) {
    if (fault_ == Fault::fetch_network_ref)
      note("fetching the network $ref " + ref + " (fault): HTTP " + std::to_string(fetch_url(ref)));
    else
      note("not fetching the network $ref " + ref);
  }
  if (!refs.empty() && fault_ != Fault::permissive_unresolved_ref) {
    note("tool " + name + " dropped: its schema has an unresolved network $ref");
    dropped_tools_.insert(name);
    return;
  }
  // Composition keywords cost a bounded amount of work (JSD-09): a schema past the budget is dropped.
  const long long budget = fault_ == Fault::unbounded_schema_walk ? -1 : 10000;
  for (const char* key : {"inputSchema", "outputSchema"})
    if (tool.contains(key) && !schema_within_budget(tool[key], budget)) {
      note("tool " + name + " dropped: its " + key + " takes more than " + std::to_string(budget) +
           " subschemas to validate");
      dropped_tools_.insert(name);
      return;
    }
}

TaskLink ModernDriver::task_link() {
  return {[this](const std::string& method, json params) { return await(send_request(method, std::move(params)), 10000); },
          [this](const json& message) { send(message); },
          [this](int ms) { serve_for(ms, server_, [this](int t) { pump(t); }); }};
}

// Lists tools page by page: any string nextCursor, the empty one included, names another page.
void ModernDriver::list_tools(const json& a) {
  json params = json::object();
  for (int page = 0; page < 20; ++page) {
    // A page still fresh by its ttlMs comes from the cache, without a request.
    std::optional<json> r;
    if (auto hit = cache_.fresh("tools/list", params)) {
      note("tools/list " + params.dump() + " answered from the cache");
      r = json{{"result", *hit}};
    } else {
      r = await(send_request("tools/list", params), a.value("timeout_ms", 10000));
      if (r && r->contains("result")) cache_.keep("tools/list", params, (*r)["result"]);
    }
    if (!r || !r->contains("result") || !(*r)["result"].is_object()) {
      if (r && r->contains("error")) note("error response: " + (*r)["error"].dump());
      return;
    }
    const json& result = (*r)["result"];
    // A resultType this client does not know makes the result invalid, never a success (RT-03);
    // a listing has no input round, so anything but "complete" is unknown here.
    const json type = result.value("resultType", json("complete"));
    if (type == "task" && fault_ == Fault::task_for_list_followed) {
      follow_task(result, json(), declared_, fault_, -1, task_link());
      return;
    }
    if (type != "complete" && fault_ != Fault::accepts_unknown_result_type) {
      note("tools/list answered with resultType " + type.dump() + ", unknown to this client: the result is invalid");
      return;
    }
    if (result.contains("tools") && result["tools"].is_array())
      for (const auto& tool : result["tools"]) judge_tool_schemas(tool);
    if (!result.contains("nextCursor") || !result["nextCursor"].is_string()) return;
    if (fault_ == Fault::stops_on_empty_cursor && result["nextCursor"] == "") return;
    params = {{"cursor", result["nextCursor"]}};
  }
}

void ModernDriver::listen(const json& a) {
  const json params = {{"notifications", a.value("notifications", json{{"toolsListChanged", true}})}};
  listen_id_ = send_request("subscriptions/listen", params);
  const long long until = steady_ms() + a.value("ms", 2000);
  for (int restarts = 0; steady_ms() < until;) {
    serve_for(until - steady_ms(), server_, [this](int ms) { pump(ms); });
    if (!server_.stdout_closed()) break;  // the subscription's time is up
    // The server ended while the subscription was open. A host that still wants the changes
    // starts it again; the new server knows no subscription, so the listen is sent anew (SUB-12).
    if (restarts++ == 3) {
      note("the server keeps ending; not starting it again");
      break;
    }
    note("the server ended during the subscription; starting it again");
    server_.restart(2000);
    if (fault_ == Fault::no_relisten_after_restart) {
      note("not opening the subscription again (fault)");
      listen_id_.reset();
      continue;
    }
    listen_id_ = send_request("subscriptions/listen", params);
  }
  // Ending the subscription on stdio: cancel the listen request.
  if (listen_id_ && !server_.stdout_closed())
    send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", *listen_id_}}}});
  listen_id_.reset();
}

bool ModernDriver::run_action(const json& a) {
  std::string what = a.value("do", "");
  if (what == "ping") {
    note("ping does not exist at 2026-07-28 (skipped)");
  } else if (what == "list_tools") {
    list_tools(a);
  } else if (what == "call_tool" && dropped_tools_.count(a.value("name", "echo"))) {
    note("tools/call " + a.value("name", "echo") + " declined: the tool was dropped from the list");
  } else if (what == "call_tool") {
    json params = {{"name", a.value("name", "echo")}, {"arguments", a.value("arguments", json::object())}};
    if (a.value("progress", false)) params["_meta"] = {{"progressToken", "progress-" + std::to_string(next_id_)}};
    auto r = call_with_rounds("tools/call", params, a.value("timeout_ms", 10000), a.value("cancel_after_ms", -1));
    if (r && r->contains("error")) note("error response: " + (*r)["error"].dump());
  } else if (what == "call_tools_parallel") {
    call_tools_parallel(a);
  } else if (what == "listen") {
    listen(a);
  } else if (what == "wait_ms") {
    serve_for(a.value("ms", 100), server_, [this](int ms) { pump(ms); });
  } else if (what == "exit") {
    return false;
  } else {
    note("unknown action " + a.dump() + " (ignored)");
  }
  return true;
}

int ModernDriver::fall_back() {
  note("the server is not modern; falling back to initialize");
  json legacy = ctx_;
  legacy["protocolVersion"] = "2025-11-25";
  Driver driver(server_, legacy, Fault::none, next_id_);
  return driver.run();
}

int ModernDriver::run() {
  auto chosen = probe();
  if (!chosen) {
    server_.shut_down(2000);
    return 1;
  }
  if (chosen->empty()) return fall_back();
  if (fault_ == Fault::modern_initialize_after_discover)
    send({{"jsonrpc", "2.0"}, {"id", next_id_++}, {"method", "initialize"},
          {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()},
                      {"clientInfo", {{"name", "mcpspec-testclient"}, {"version", "0.1.0"}}}}}});
  if (fault_ == Fault::modern_ping) send({{"jsonrpc", "2.0"}, {"id", next_id_++}, {"method", "ping"}});
  for (const auto& a : ctx_.value("actions", json::array())) {
    if (!run_action(a)) {
      server_.shut_down(2000);
      return 0;
    }
    if (server_.stdout_closed()) break;
  }
  serve_for(ctx_.value("linger_ms", 60000), server_, [this](int ms) { pump(std::min(ms, 100)); });
  server_.shut_down(2000);
  return 0;
}

}  // namespace testclient
