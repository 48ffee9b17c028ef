// The client's behaviour at 2026-07-28 (stateless MCP), as a dual-era client: probe with
// server/discover; a discover result keeps it modern, a modern error (-32022) makes it retry with a
// version both sides speak (or give up: no fallback), any other error or silence means a legacy
// server and it falls back to the initialize handshake (the legacy Driver). In the modern era
// every request carries the version and capabilities in _meta, input_required results are
// answered by retrying with a new id, subscriptions/listen streams are followed by their
// subscriptionId, and a task handle (the tasks extension, when declared) is polled to its end.
#pragma once

#include "faults.hpp"
#include "result_cache.hpp"
#include "server_process.hpp"
#include "tasks_client.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>

namespace testclient {

class ModernDriver {
 public:
  ModernDriver(ServerProcess& server, nlohmann::json context, Fault fault, std::string version);
  // Runs the whole session; returns the process exit code.
  int run();

 private:
  // The era probe; returns the version to use, "" to fall back to initialize, nullopt to give up.
  std::optional<std::string> probe();
  nlohmann::json meta() const;
  nlohmann::json send_request(const std::string& method, nlohmann::json params);
  std::optional<nlohmann::json> await(const nlohmann::json& id, int timeout_ms, int cancel_after_ms = -1);
  void pump(int timeout_ms);
  void on_notification(const nlohmann::json& msg);
  // One request followed through its input_required rounds (several may be in flight at once).
  struct PendingCall {
    PendingCall(std::string m, nlohmann::json p, nlohmann::json i)
        : method(std::move(m)), params(std::move(p)), id(std::move(i)) {}
    std::string method;
    nlohmann::json params;  // the original params, repeated by every retry
    nlohmann::json id;      // the id of the request now in flight
    int rounds = 0;
    int cancel_after_ms = -1;  // a task it becomes is cancelled after this long (< 0: never)
    bool over = false;
    std::optional<nlohmann::json> answer;  // the final answer (nullopt: none, or an invalid one)
  };
  nlohmann::json retry_params(const PendingCall& call, const nlohmann::json& result);
  // Takes the answer `r` to `call` (nullopt: none came): a final one ends the call (true), an
  // input_required one sends the retry (false).
  bool advance(PendingCall& call, std::optional<nlohmann::json> r);
  void call_tools_parallel(const nlohmann::json& action);
  // Sends `method` with `params` and follows input_required rounds to the final answer.
  std::optional<nlohmann::json> call_with_rounds(const std::string& method, nlohmann::json params, int timeout_ms,
                                                 int cancel_after_ms);
  // How a task handle is followed over this driver's connection (tasks_client.hpp).
  TaskLink task_link();
  void listen(const nlohmann::json& action);
  void list_tools(const nlohmann::json& action);
  void judge_tool_schemas(const nlohmann::json& tool);
  bool run_action(const nlohmann::json& action);  // false: the session is over
  void send(const nlohmann::json& message);
  int fall_back();

  ServerProcess& server_;
  nlohmann::json ctx_, declared_;
  Fault fault_;
  std::string version_;                       // the version this client asks for in _meta
  std::set<std::string> modern_versions_;     // the modern versions it speaks
  nlohmann::json server_caps_ = nullptr;      // from the discover result (null: unknown)
  long long next_id_ = 1;
  std::map<std::string, nlohmann::json> responses_;  // id dump -> response
  std::optional<nlohmann::json> listen_id_;          // the open subscription
  std::set<std::string> cancelled_;                  // id dumps of requests it cancelled
  std::set<std::string> dropped_tools_;              // listed tools whose schemas it cannot use
  bool discovered_ = false;
  ResultCache cache_{fault_};                        // list results still fresh by their ttlMs
  nlohmann::json shared_answers_ = nlohmann::json::object(), shared_state_;  // fault mrtr-shared-input-slot only
};

}  // namespace testclient
