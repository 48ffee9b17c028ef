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

bool terminal(const std::string& status) { return status == "completed" || status == "cancelled" || status == "failed"; }

json text_content(const std::string& text) { return json::array({{{"type", "text"}, {"text", text}}}); }

// One question of the interview tool, as an elicitation form.
json interview_question(int round) {
  const std::string field = round == 1 ? "name" : "topic";
  return {{"method", "elicitation/create"},
          {"params",
           {{"mode", "form"},
            {"message", round == 1 ? "Who is being interviewed?" : "What should the interview be about?"},
            {"requestedSchema",
             {{"type", "object"}, {"properties", {{field, {{"type", "string"}}}}}, {"required", {field}}}}}}};
}

}  // namespace

void Tasks::refuse_undeclared(const Session& s, const std::string& what) {
  json data = {{"requiredCapabilities", {{"extensions", {{kTasksExtension, json::object()}}}}}};
  if (s.faulty(Fault::no_required_capability_error)) data = nullptr;
  fail(kMissingRequiredClientCapability,
       what + " needs the " + std::string(kTasksExtension) + " extension in the request's clientCapabilities",
       std::move(data));
}

bool Tasks::declared(const Session& s) {
  const json* ext = find_member(s.client_capabilities(), "extensions");
  return ext != nullptr && ext->is_object() && ext->contains(kTasksExtension);
}

Outcome Tasks::start(Session& s, const std::string& tool, Task t) {
  if (!declared(s) && !s.faulty(Fault::task_without_declaration)) refuse_undeclared(s, tool);
  if (tasks_.size() >= kMaxTasks) fail(rpc_code::internal_error, "too many tasks on this connection");
  t.created_at = t.updated_at = now_iso8601();
  // The fault hands out a counter anyone can guess the next value of.
  const std::string id = s.faulty(Fault::sequential_task_ids) ? "task-" + std::to_string(++serial_) : new_task_id();
  json r = handle(id, t);
  r["resultType"] = "task";
  tasks_.emplace(id, std::move(t));
  return Outcome::ok(std::move(r));
}

Outcome Tasks::start_report(Session& s, const json& args) {
  const std::string topic = args.value("topic", std::string("nothing"));
  return start_with_result(s, "slow_report", {{"content", text_content("report on " + topic + ": 3 sections")}, {"isError", false}});
}

Outcome Tasks::start_interview(Session& s) {
  // Only a client that can answer forms is asked anything.
  const json* elicitation = find_member(s.client_capabilities(), "elicitation");
  json questions = json::array();
  if (elicitation != nullptr && elicitation->is_object()) questions = {interview_question(1), interview_question(2)};
  return start_asking(s, "interview", std::move(questions), "interview done");
}

Outcome Tasks::start_asking(Session& s, const std::string& tool, json questions, const std::string& done_text) {
  Task t;
  t.kind = Kind::asking;
  t.questions = std::move(questions);
  t.done_text = done_text;
  return start(s, tool, std::move(t));
}

Outcome Tasks::start_broken_job(Session& s) {
  Task t;
  t.kind = Kind::broken;
  t.error = {{"code", rpc_code::internal_error}, {"message", "the job's worker went away"}};
  return start(s, "broken_job", std::move(t));
}

Outcome Tasks::start_with_result(Session& s, const std::string& tool, json result) {
  Task t;
  t.result = std::move(result);
  return start(s, tool, std::move(t));
}

json Tasks::handle(const std::string& id, const Task& t) const {
  return {{"taskId", id},          {"status", t.status},       {"createdAt", t.created_at},
          {"lastUpdatedAt", t.updated_at}, {"ttlMs", kTaskTtlMs}, {"pollIntervalMs", kPollIntervalMs}};
}

// One tasks/get of a working task moves it on: an asking task asks its next question, anything
// else ends after kPollsBeforeCompletion polls.
void Tasks::advance(Session& s, Task& t) {
  if (t.status != "working") return;
  ++t.polls;
  if (!t.questions.empty()) {
    // Keys are never used twice in a task's life (XTASK-17); the fault asks the second question
    // under the key the first one was already answered under.
    const int key = s.faulty(Fault::input_key_reused) ? 1 : ++t.keys_issued;
    t.outstanding["question-" + std::to_string(key)] = t.questions.front();
    t.questions.erase(t.questions.begin());
    t.status = "input_required";
    t.updated_at = now_iso8601();
    return;
  }
  if (t.polls > kPollsBeforeCompletion) finish(s, t);
}

void Tasks::finish(Session& s, Task& t) {
  t.updated_at = now_iso8601();
  if (t.kind == Kind::broken) {
    t.status = "failed";
    return;
  }
  if (t.kind == Kind::report && t.result.value("isError", false) && s.faulty(Fault::tool_error_as_failed)) {
    // The 2025-11-25 rule (isError => failed), reversed at 2026-07-28 (XTASK-09).
    t.status = "failed";
    t.error = {{"code", rpc_code::internal_error}, {"message", "the tool reported an error"}};
    return;
  }
  if (t.kind == Kind::asking) {
    t.result = {{"content", text_content(t.done_text + ", answers: " + t.answers.dump())}, {"isError", false}};
  }
  t.status = "completed";
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
  const std::string before = t.status;
  advance(s, t);
  if (t.status != before) announce(s, id, t);
  json r = detailed(s, id, t);
  if (s.faulty(Fault::task_result_type_on_get)) r["resultType"] = "task";
  return Outcome::ok(std::move(r));
}

json Tasks::detailed(Session& s, const std::string& id, const Task& t) const {
  json r = handle(id, t);
  if (t.status == "input_required") r["inputRequests"] = t.outstanding;  // all outstanding ones (XTASK-13)
  if (t.status == "completed") {
    // The task's result is what the call itself would have answered (XTASK-13); the fault spreads
    // its members over the task instead, as the older tasks/result flow did.
    if (s.faulty(Fault::completed_result_differs)) r.update(t.result);
    else r["result"] = t.result;
  }
  if (t.status == "failed") {
    r["statusMessage"] = "failed: " + t.error.value("message", std::string("unknown error"));
    if (!s.faulty(Fault::failed_without_error)) r["error"] = t.error;
  }
  return r;
}

void Tasks::announce(Session& s, const std::string& id, const Task& t) const {
  s.listens().task_changed(id, detailed(s, id, t));
}

// tasks/update: answers for outstanding keys are taken, others ignored (XTASK-19); once every
// outstanding request is answered the task works again. Acknowledged with an empty result (XTASK-18).
Outcome Tasks::update(Session& s, const std::string& id, Task& t, const Request& req) {
  const json* responses = find_member(req.params, "inputResponses");
  if (responses == nullptr || !responses->is_object()) fail(rpc_code::invalid_params, "params.inputResponses must be an object");
  bool answered = false;
  for (const auto& [key, response] : responses->items()) {
    if (!t.outstanding.contains(key)) {
      if (s.faulty(Fault::update_unknown_key_refused))
        fail(rpc_code::invalid_params, "task " + id + " has no outstanding input request " + key.substr(0, 100));
      continue;
    }
    t.outstanding.erase(key);
    t.answers.push_back(response);
    answered = true;
  }
  if (answered && t.status == "input_required" && t.outstanding.empty()) {
    t.status = "working";
    t.updated_at = now_iso8601();
    announce(s, id, t);
  }
  if (answered && s.faulty(Fault::update_ack_not_complete)) {
    json r = handle(id, t);
    r["resultType"] = "task";
    return Outcome::ok(std::move(r));
  }
  return Outcome::ok(json::object());
}

Outcome Tasks::serve(Session& s, const std::string& method, const Request& req) {
  if (method != "tasks/get" && method != "tasks/update" && method != "tasks/cancel") {
    fail(rpc_code::method_not_found, "method not found: " + method.substr(0, 100), {{"method", method.substr(0, 100)}});
  }
  if (!declared(s) && !s.faulty(Fault::tasks_served_undeclared)) refuse_undeclared(s, method);
  const std::string& id = require_string(req.params, "taskId", "params");
  if (method == "tasks/get") return get(s, id);
  auto it = tasks_.find(id);
  if (it == tasks_.end()) fail(rpc_code::invalid_params, "task not found: " + id.substr(0, 100));
  Task& t = it->second;
  if (method == "tasks/update") return update(s, id, t, req);
  // tasks/cancel: acknowledged whatever the state; a terminal task stays as it is (XTASK-23).
  if (terminal(t.status)) {
    if (s.faulty(Fault::cancel_not_complete)) fail(rpc_code::invalid_params, "task " + id + " is already " + t.status);
  } else {
    t.status = "cancelled";
    t.updated_at = now_iso8601();
    announce(s, id, t);
  }
  return Outcome::ok(json::object());
}

}  // namespace testserver
