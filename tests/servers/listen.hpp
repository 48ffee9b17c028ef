// subscriptions/listen (protocol 2026-07-28): a long-lived request that carries the change
// notifications the client asked for. The acknowledgment comes first; every notification on the
// stream is tagged with the listen request's id (_meta subscriptionId); notifications/cancelled
// for that id ends it, after which nothing more is sent for it. Nothing here changes on its own:
// the touch_catalog tool announces a tools/list_changed so that a client can see one, and a task
// of the tasks extension that changes status (tasks.cpp) sends notifications/tasks to the
// subscriptions whose notifications.taskIds named it (only progress and log messages never go
// there, XTASK-25).
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "faults.hpp"
#include "outcome.hpp"
#include "wire.hpp"

namespace testserver {

class Session;
struct Request;

class Listens {
 public:
  Listens(Wire& wire, Fault fault) : wire_(wire), fault_(fault) {}

  // Opens a subscription for req (no response now: the stream stays open).
  Outcome open(Session& s, const Request& req);
  // notifications/cancelled: true when `request_id` was an open subscription (now ended).
  bool close(const json& request_id);
  // Sends notifications/tools/list_changed on every subscription that asked for it; `cause` is
  // the id of the request that made the change. Returns how many streams got it.
  int tools_changed(const json& cause);
  // Sends notifications/tasks (the task as tasks/get shows it) on every subscription that agreed
  // to follow task `task_id`.
  void task_changed(const std::string& task_id, const json& task);

 private:
  struct Listen {
    json id;
    json accepted;  // the acknowledged filter
  };
  Wire& wire_;
  Fault fault_;
  std::mutex mu_;
  std::map<std::string, Listen> open_;  // by the listen request id's JSON text
};

}  // namespace testserver
