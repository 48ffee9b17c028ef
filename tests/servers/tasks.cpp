#include "tasks.hpp"

#include <cstdio>
#include <ctime>
#include <random>

#include "session.hpp"

namespace testserver {

namespace {

constexpr int kMissingRequiredClientCapability = -32021;
constexpr long long kTaskTtlMs = 600000;     // how long a task is kept after creation
constexpr long long kPollIntervalMs = 100;   // what the server suggests between polls
constexpr int kPollsBeforeCompletion = 1;    // tasks/get answers "working" this often first
constexpr std::size_t kMaxTasks = 1000;      // one connection cannot grow the store without bound

// 128 random bits: a task id must not be guessable (XTASK-27).
std::string new_task_id() {
  std::random_device rd;
  char buf[48];
  std::snprintf(buf, sizeof buf, "task-%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return buf;
}

std::string now_iso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool declared_tasks(const Session& s) {
  const json& caps = s.client_capabilities();
  const json* ext = find_member(caps, "extensions");
  return ext != nullptr && ext->is_object() && ext->contains(kTasksExtension);
}

// -32021 naming the extension (XTASK-06, XTASK-21).
[[noreturn]] void refuse_undeclared(const Session& s, const std::string& what) {
  json data = {{"requiredCapabilities", {{"extensions", {{kTasksExtension, json::object()}}}}}};
  if (s.faulty(Fault::no_required_capability_error)) data = nullptr;
  fail(kMissingRequiredClientCapability,
       what + " needs the " + std::string(kTasksExtension) + " extension in the request's clientCapabilities",
       std::move(data));
}

bool terminal(const std::string& status) { return status == "completed" || status == "cancelled" || status == "failed"; }

}  // namespace

json Tasks::handle(const std::string& id, const Task& t) const {
  return {{"taskId", id},          {"status", t.status},       {"createdAt", t.created_at},
          {"lastUpdatedAt", t.updated_at}, {"ttlMs", kTaskTtlMs}, {"pollIntervalMs", kPollIntervalMs}};
}

Outcome Tasks::start_report(Session& s, const json& args) {
  if (!declared_tasks(s) && !s.faulty(Fault::task_without_declaration)) refuse_undeclared(s, "slow_report");
  if (tasks_.size() >= kMaxTasks) fail(rpc_code::internal_error, "too many tasks on this connection");
  const std::string topic = args.value("topic", std::string("nothing"));
  Task t;
  t.result = {{"content", json::array({{{"type", "text"}, {"text", "report on " + topic + ": 3 sections"}}})},
              {"isError", false}};
  t.created_at = t.updated_at = now_iso8601();
  const std::string id = new_task_id();
  json r = handle(id, t);
  r["resultType"] = "task";
  tasks_.emplace(id, std::move(t));
  return Outcome::ok(std::move(r));
}

Outcome Tasks::get(Session& s, const std::string& id) {
  auto it = tasks_.find(id);
  if (it == tasks_.end()) {
    if (s.faulty(Fault::unknown_task_not_32602)) {
      Task made_up;
      made_up.created_at = made_up.updated_at = now_iso8601();
      return Outcome::ok(handle(id, made_up));
    }
    fail(rpc_code::invalid_params, "task not found: " + id.substr(0, 100));
  }
  Task& t = it->second;
  if (t.status == "working" && ++t.polls > kPollsBeforeCompletion) {
    t.status = "completed";
    t.updated_at = now_iso8601();
  }
  json r = handle(id, t);
  if (t.status == "completed") {
    // The task's result is what the call itself would have answered (XTASK-13); the fault spreads
    // its members over the task instead, as the older tasks/result flow did.
    if (s.faulty(Fault::completed_result_differs)) r.update(t.result);
    else r["result"] = t.result;
  }
  if (s.faulty(Fault::task_result_type_on_get)) r["resultType"] = "task";
  return Outcome::ok(std::move(r));
}

Outcome Tasks::serve(Session& s, const std::string& method, const Request& req) {
  if (method != "tasks/get" && method != "tasks/update" && method != "tasks/cancel") {
    fail(rpc_code::method_not_found, "method not found: " + method.substr(0, 100), {{"method", method.substr(0, 100)}});
  }
  if (!declared_tasks(s) && !s.faulty(Fault::tasks_served_undeclared)) refuse_undeclared(s, method);
  const std::string& id = require_string(req.params, "taskId", "params");
  if (method == "tasks/get") return get(s, id);
  auto it = tasks_.find(id);
  if (it == tasks_.end()) fail(rpc_code::invalid_params, "task not found: " + id.substr(0, 100));
  Task& t = it->second;
  if (method == "tasks/update") {
    // slow_report never asks for input: responses to keys that are not outstanding are ignored (XTASK-19).
    const json* responses = find_member(req.params, "inputResponses");
    if (responses == nullptr || !responses->is_object()) fail(rpc_code::invalid_params, "params.inputResponses must be an object");
    if (s.faulty(Fault::update_unknown_key_refused) && !responses->empty())
      fail(rpc_code::invalid_params, "task " + id + " has no outstanding input request " + responses->begin().key());
    return Outcome::ok(json::object());
  }
  // tasks/cancel: acknowledged whatever the state; a terminal task stays as it is (XTASK-23).
  if (terminal(t.status)) {
    if (s.faulty(Fault::cancel_not_complete)) fail(rpc_code::invalid_params, "task " + id + " is already " + t.status);
  } else {
    t.status = "cancelled";
    t.updated_at = now_iso8601();
  }
  return Outcome::ok(json::object());
}

}  // namespace testserver
