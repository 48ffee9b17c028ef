#include "listen.hpp"

#include <algorithm>

#include "capabilities.hpp"
#include "session.hpp"

namespace testserver {

namespace {

constexpr const char* kSubscriptionIdKey = "io.modelcontextprotocol/subscriptionId";
// Each open subscription is a little state: a client cannot make the server hold unbounded many.
constexpr std::size_t kMaxListens = 64;

// The part of the requested filter this server can deliver.
json accepted_filter(Session& s, const json& wanted) {
  json out = json::object();
  auto flag = [&](const char* key, Capability cap) {
    const json* v = find_member(wanted, key);
    if (v == nullptr) return;
    if (!v->is_boolean()) fail(rpc_code::invalid_params, std::string("params.notifications.") + key + " must be a boolean");
    if (v->get<bool>() && serves(s.options(), cap)) out[key] = true;
  };
  flag("toolsListChanged", Capability::tools);
  flag("promptsListChanged", Capability::prompts);
  flag("resourcesListChanged", Capability::resources);
  if (const json* ids = find_member(wanted, "taskIds")) {
    // Task notifications belong to the tasks extension: a request that does not declare it is
    // refused (XTASK-21); of the ids asked for, those of this connection's tasks are agreed to.
    if (!Tasks::declared(s) && !s.faulty(Fault::task_listen_undeclared)) Tasks::refuse_undeclared(s, "subscriptions/listen with notifications.taskIds");
    if (!ids->is_array()) fail(rpc_code::invalid_params, "params.notifications.taskIds must be an array");
    json agreed = json::array();
    for (const auto& id : *ids) {
      if (!id.is_string()) fail(rpc_code::invalid_params, "params.notifications.taskIds must hold strings");
      if (s.tasks().known(id.get<std::string>())) agreed.push_back(id);
    }
    out["taskIds"] = std::move(agreed);
  }
  if (const json* uris = find_member(wanted, "resourceSubscriptions")) {
    if (!uris->is_array()) fail(rpc_code::invalid_params, "params.notifications.resourceSubscriptions must be an array");
    if (serves(s.options(), Capability::resources)) out["resourceSubscriptions"] = *uris;
  }
  return out;
}

}  // namespace

Outcome Listens::open(Session& s, const Request& req) {
  const json& wanted = require_object(req.params, "notifications", "params");
  json accepted = accepted_filter(s, wanted);
  {
    std::lock_guard lock(mu_);
    if (open_.size() >= kMaxListens) {
      fail(rpc_code::internal_error, "too many open subscriptions (limit " + std::to_string(kMaxListens) + ")");
    }
    if (!open_.emplace(req.id.dump(), Listen{req.id, accepted}).second) {
      fail(rpc_code::invalid_request, "a subscription with this id is already open");
    }
  }
  if (fault_ != Fault::listen_no_ack) {
    wire_.send(Wire::notification("notifications/subscriptions/acknowledged",
                                  {{"_meta", {{kSubscriptionIdKey, req.id}}}, {"notifications", accepted}}));
  }
  return Outcome::deferred();
}

bool Listens::close(const json& request_id) {
  std::lock_guard lock(mu_);
  return open_.erase(request_id.dump()) > 0;
}

int Listens::tools_changed(const json& cause) {
  std::lock_guard lock(mu_);
  int sent = 0;
  for (const auto& [key, l] : open_) {
    const bool asked = l.accepted.value("toolsListChanged", false);
    if (!asked && fault_ != Fault::listen_unrequested_kind) continue;
    json params = json::object();
    if (fault_ == Fault::listen_wrong_tag) params["_meta"][kSubscriptionIdKey] = cause;
    else if (fault_ != Fault::listen_untagged) params["_meta"][kSubscriptionIdKey] = l.id;
    wire_.send(Wire::notification("notifications/tools/list_changed", std::move(params)));
    ++sent;
  }
  return sent;
}

void Listens::task_changed(const std::string& task_id, const json& task) {
  std::lock_guard lock(mu_);
  for (const auto& [key, l] : open_) {
    const json* ids = find_member(l.accepted, "taskIds");
    if (ids == nullptr || std::find(ids->begin(), ids->end(), json(task_id)) == ids->end()) continue;
    json params = task;
    params["_meta"][kSubscriptionIdKey] = l.id;
    wire_.send(Wire::notification("notifications/tasks", std::move(params)));
    if (fault_ == Fault::progress_on_task_stream) {
      // What a task's stream must never carry (XTASK-25): a log message about the task.
      wire_.send(Wire::notification("notifications/message",
                                    {{"_meta", {{kSubscriptionIdKey, l.id}}},
                                     {"level", "info"},
                                     {"logger", "tasks"},
                                     {"data", "task " + task_id + " is now " + task.value("status", std::string())}}));
    }
  }
}

}  // namespace testserver
