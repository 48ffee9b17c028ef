// The tasks extension (io.modelcontextprotocol/tasks) at protocol 2026-07-28. Four tools run as
// tasks when the tools/call's own _meta declares the extension: slow_report, interview and
// broken_job only as tasks (-32021 naming the extension without it), fail also without (a plain
// isError result then). tasks/get, tasks/update and tasks/cancel serve the tasks of this
// connection; a change of a task's status goes as notifications/tasks to the listen streams that
// follow it (listen.hpp). A task moves on by being polled, never by the clock, so every run sees
// the same states:
//   slow_report  working on the first tasks/get, completed (the result the call would have
//                returned) from the second on;
//   fail         the same, its result an isError tool result (still completed, XTASK-09);
//   broken_job   working, then failed with the JSON-RPC error that broke it (XTASK-09, XTASK-13);
//   interview    when its call declared elicitation: input_required on the first and on the
//                second poll after the first answer, one new key per round (XTASK-17), each
//                answered with tasks/update (XTASK-18); completed on the poll after the second
//                answer. Without elicitation it asks nothing and completes like slow_report;
//   confirm      (input_rounds.cpp) resolves its input round before the task exists (XTASK-11):
//                the retry carrying the answer gets the task, completed on the second poll.
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
  // Whether the request being handled declared the extension in its own _meta.
  static bool declared(const Session& s);
  // -32021 naming the extension in data.requiredCapabilities (XTASK-06, XTASK-21).
  [[noreturn]] static void refuse_undeclared(const Session& s, const std::string& what);
  // Whether `id` is a task of this connection.
  bool known(const std::string& id) const { return tasks_.count(id) > 0; }
  // tools/call of slow_report, interview, broken_job: a task handle, or -32021 when the request
  // did not declare the extension.
  Outcome start_report(Session& s, const json& args);
  Outcome start_interview(Session& s);
  Outcome start_broken_job(Session& s);
  // A task for `tool` whose result (`result`, isError or not) is already known (the caller checked
  // declared()): completed on the second poll.
  Outcome start_with_result(Session& s, const std::string& tool, json result);
  // A task for `tool` that asks `questions` (input requests), one per round, then completes with
  // `done_text` and the answers.
  Outcome start_asking(Session& s, const std::string& tool, json questions, const std::string& done_text);
  // tasks/get, tasks/update, tasks/cancel (-32601 for any other tasks/ method).
  Outcome serve(Session& s, const std::string& method, const Request& req);

 private:
  enum class Kind { report, broken, asking };
  struct Task {
    Kind kind = Kind::report;
    std::string status = "working";
    json result;          // what the call returns once the task completes
    json error;           // the JSON-RPC error of a failed task (broken_job)
    int polls = 0;        // tasks/get requests seen so far
    json questions = json::array();     // asking: input requests still to ask, one per round
    std::string done_text;              // asking: the result's text, before the answers
    int keys_issued = 0;  // input request keys handed out so far (each used once)
    json outstanding = json::object();  // key -> input request not answered yet
    json answers = json::array();       // what the client answered, in order
    std::string created_at;
    std::string updated_at;
  };

  Outcome start(Session& s, const std::string& tool, Task t);
  json handle(const std::string& id, const Task& t) const;
  // The task as tasks/get and notifications/tasks show it (members by status).
  json detailed(Session& s, const std::string& id, const Task& t) const;
  // Tells the listen streams following the task its new state.
  void announce(Session& s, const std::string& id, const Task& t) const;
  void advance(Session& s, Task& t);
  void finish(Session& s, Task& t);
  Outcome get(Session& s, const std::string& id);
  Outcome update(Session& s, const std::string& id, Task& t, const Request& req);

  std::map<std::string, Task> tasks_;
  int serial_ = 0;  // only for the sequential-task-ids fault
};

}  // namespace testserver
