#include "tasks_client.hpp"

#include "awaiting.hpp"
#include "input_answer.hpp"

#include <algorithm>
#include <iostream>
#include <map>

namespace testclient {

using nlohmann::json;

namespace {

constexpr const char* kTasksExtension = "io.modelcontextprotocol/tasks";
// Without pollIntervalMs the client waits a second between polls; a larger interval than this cap
// is shortened to it, so a test run never sits out a server's minutes.
constexpr long long kDefaultPollMs = 1000;
constexpr long long kMaxPollMs = 5000;
constexpr int kMaxPolls = 100;

void note(const std::string& text) { std::cerr << "mcpspec-testclient: " << text << std::endl; }

bool terminal(const std::string& status) {
  return status == "completed" || status == "failed" || status == "cancelled";
}

// The interval a task asks for (it may change from poll to poll), else the one before.
long long poll_interval(const json& task, long long previous) {
  if (!task.contains("pollIntervalMs") || !task["pollIntervalMs"].is_number_integer()) return previous;
  return std::clamp(task["pollIntervalMs"].get<long long>(), 0LL, kMaxPollMs);
}

// What a task that ended stands for: the original request's result or error.
std::optional<json> outcome(const json& task) {
  const std::string status = task.value("status", "");
  if (status == "completed" && task.contains("result") && task["result"].is_object())
    return json{{"result", task["result"]}};
  if (status == "failed" && task.contains("error")) return json{{"error", task["error"]}};
  note("the task ended " + status + (task.contains("statusMessage") ? ": " + task["statusMessage"].dump() : ""));
  return std::nullopt;
}

// Answers the task's open input requests with one tasks/update. `answered` holds every key this
// client answered before: a key a later poll still lists (the server has not caught up) is not
// answered again (XTASK-16), and an update carries only keys the task lists now (XTASK-18).
void answer_inputs(const json& task_id, const json& task, const json& declared, Fault fault, std::map<std::string, json>& answered,
                   const TaskLink& link) {
  if (!task.contains("inputRequests") || !task["inputRequests"].is_object()) return;
  json responses = json::object();
  for (const auto& [key, request] : task["inputRequests"].items()) {
    if (answered.count(key) && fault != Fault::task_input_answered_twice) continue;
    auto answer = answer_input_request(request, declared, fault);
    if (!answer) continue;  // cannot answer it: the key stays open
    responses[key] = *answer;
    answered[key] = *answer;
  }
  if (responses.empty()) return;
  if (fault == Fault::task_update_stale_keys)
    for (const auto& [key, answer] : answered)
      if (!responses.contains(key)) responses[key] = answer;
  auto ack = link.request("tasks/update", {{"taskId", task_id}, {"inputResponses", responses}});
  if (!ack || !ack->contains("result")) note("tasks/update was not acknowledged: " + (ack ? ack->dump() : "no answer"));
}

}  // namespace

bool declares_tasks(const json& declared) {
  return declared.is_object() && declared.contains("extensions") && declared["extensions"].is_object() &&
         declared["extensions"].contains(kTasksExtension);
}

bool task_capable(const std::string& method) { return method == "tools/call"; }

std::optional<json> follow_task(const json& created, const json& request_id, const json& declared, Fault fault,
                                int cancel_after_ms, const TaskLink& link) {
  if (!created.contains("taskId") || !created["taskId"].is_string()) {
    note("a task handle without a string taskId: the result is invalid");
    return std::nullopt;
  }
  const json task_id = created["taskId"];
  json task = created;
  long long interval = poll_interval(created, kDefaultPollMs);
  const long long start = steady_ms();
  std::map<std::string, json> answered;
  for (int poll = 0; poll < kMaxPolls; ++poll) {
    const std::string status = task.value("status", "");
    if (terminal(status)) {
      if (fault == Fault::task_polls_after_terminal) link.request("tasks/get", {{"taskId", task_id}});
      return outcome(task);
    }
    if (status == "input_required" && fault != Fault::task_input_ignored)
      answer_inputs(task_id, task, declared, fault, answered, link);
    long long wait = fault == Fault::task_polls_too_fast ? 0 : interval;
    if (cancel_after_ms >= 0 && start + cancel_after_ms - steady_ms() <= wait) {
      link.serve(static_cast<int>(std::max(0LL, start + cancel_after_ms - steady_ms())));
      if (fault == Fault::task_cancel_by_notification) {
        link.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", request_id}}}});
      } else {
        auto ack = link.request("tasks/cancel", {{"taskId", task_id}});
        if (!ack || !ack->contains("result")) note("tasks/cancel: " + (ack ? ack->dump() : std::string("no answer")));
      }
      return std::nullopt;  // the client may forget a task it cancelled
    }
    link.serve(static_cast<int>(wait));
    auto r = link.request("tasks/get", {{"taskId", task_id}});
    if (!r) return std::nullopt;
    if (!r->contains("result") || !(*r)["result"].is_object()) return r;  // an error: the task is gone
    task = (*r)["result"];
    interval = poll_interval(task, interval);
  }
  note("the task " + task_id.dump() + " did not end after " + std::to_string(kMaxPolls) + " polls; giving up");
  return std::nullopt;
}

}  // namespace testclient
