// The tasks extension (io.modelcontextprotocol/tasks) at protocol 2026-07-28. The slow_report tool
// runs only as a task: a tools/call whose own _meta declares the extension gets a task handle
// (resultType "task"); one that does not gets -32021 naming the extension. tasks/get, tasks/update
// and tasks/cancel serve the tasks of this connection. A task moves on by being polled, never by
// the clock, so every run sees the same states: working on the first tasks/get, completed (with
// the result the call would have returned) from the second on.
#pragma once

#include <map>
#include <string>

#include "outcome.hpp"

namespace testserver {

class Session;
struct Request;

inline constexpr const char* kTasksExtension = "io.modelcontextprotocol/tasks";

class Tasks {
 public:
  // tools/call of slow_report: a task handle, or -32021 when the request did not declare the extension.
  Outcome start_report(Session& s, const json& args);
  // tasks/get, tasks/update, tasks/cancel (-32601 for any other tasks/ method).
  Outcome serve(Session& s, const std::string& method, const Request& req);

 private:
  struct Task {
    std::string status = "working";
    json result;          // what the call returns once the task completes
    int polls = 0;        // tasks/get requests seen so far
    std::string created_at;
    std::string updated_at;
  };

  json handle(const std::string& id, const Task& t) const;
  Outcome get(Session& s, const std::string& id);

  std::map<std::string, Task> tasks_;
};

}  // namespace testserver
