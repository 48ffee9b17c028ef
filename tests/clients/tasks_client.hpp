// The client side of the tasks extension (io.modelcontextprotocol/tasks) at 2026-07-28. A client
// that declares the extension in a request's clientCapabilities may get a task handle
// (CreateTaskResult, resultType "task") instead of the result; only tools/call can become a task.
// The handle is followed with tasks/get, waiting pollIntervalMs between polls, until a terminal
// status; an input_required task is answered with tasks/update, each key once; a task is cancelled
// with tasks/cancel, never with notifications/cancelled.
#pragma once

#include "faults.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace testclient {

// Whether the capabilities the client declares (the scenario's client_context) include the extension.
bool declares_tasks(const nlohmann::json& declared);

// Whether a request of `method` may be answered with a task handle (tools/call; XTASK-05).
bool task_capable(const std::string& method);

// What following a task needs from the driver that received its handle.
struct TaskLink {
  // Sends a request (the driver adds _meta) and waits for its response; nullopt when none came.
  std::function<std::optional<nlohmann::json>(const std::string& method, nlohmann::json params)> request;
  // Sends a message exactly as given.
  std::function<void(const nlohmann::json& message)> send;
  // Keeps reading and handling the server's messages for `ms`.
  std::function<void(int ms)> serve;
};

// Follows the task `created` (the handle answering request `request_id`) until it ends. Returns the
// response the request would have had without a task: {"result": ...} for a completed task,
// {"error": ...} for a failed one or an error of tasks/get; nullopt when it was cancelled (by this
// client after `cancel_after_ms`, when that is >= 0, or by the server), the handle was invalid, or
// the server stopped answering.
std::optional<nlohmann::json> follow_task(const nlohmann::json& created, const nlohmann::json& request_id,
                                          const nlohmann::json& declared, Fault fault, int cancel_after_ms,
                                          const TaskLink& link);

}  // namespace testclient
