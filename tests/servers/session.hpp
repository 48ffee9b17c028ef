// One client connection: the JSON-RPC envelope rules, the lifecycle state, batches, and the
// routing of each method to the feature module that answers it.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "capabilities.hpp"
#include "listen.hpp"
#include "logging.hpp"
#include "options.hpp"
#include "outcome.hpp"
#include "pagination.hpp"
#include "protocol_version.hpp"
#include "slow_calls.hpp"
#include "tasks.hpp"
#include "wire.hpp"

namespace testserver {

struct Request {
  const json& id;
  const json& params;  // always an object
  bool in_batch;
};

class Session {
 public:
  Session(const Options& opt, Wire& wire);

  void on_line(std::string_view line);
  void on_oversized(std::size_t bytes);
  void on_end_of_input();

  // For the feature modules.
  const Options& options() const { return opt_; }
  bool faulty(Fault f) const { return opt_.fault == f; }
  // The revision of the request being handled: 2026-07-28 for a modern request (modern.cpp),
  // else the one initialize negotiated.
  Version version() const { return modern_ ? Version::v2026_07_28 : version_; }
  bool modern() const { return modern_; }
  // The capabilities the modern request being handled declared in its _meta ({} otherwise).
  const json& client_capabilities() const { return client_caps_; }
  Listens& listens() { return listens_; }
  Tasks& tasks() { return tasks_; }
  // The input-state-carried fault: an answered round the confirm tool should not remember.
  bool remembered_confirmation() const { return remembered_confirmation_; }
  void remember_confirmation() { remembered_confirmation_ = true; }
  // The feature method `method` (tools/list ... completion/complete), or -32601.
  Outcome serve_method(const std::string& method, const Request& req);
  Wire& wire() { return wire_; }
  LogSink& logs() { return logs_; }
  SlowCalls& slow_calls() { return slow_; }
  const CursorCodec& cursors() const { return cursors_; }
  std::set<std::string>& subscriptions() { return subscriptions_; }

 private:
  struct Reply {
    std::optional<json> message;
    std::string method;          // of the request answered, for the output-shape faults
    std::vector<json> trailing;  // written after the reply
  };

  Reply handle_message(const json& msg, bool in_batch);
  Reply handle_request(const std::string& method, const json& id, const json& params,
                       bool in_batch);
  Outcome route(const std::string& method, const Request& req);
  void handle_notification(const std::string& method, const json& params);
  void handle_batch(const json& batch);
  Outcome initialize(const Request& req);
  void write_reply(const Reply& reply);

  Options opt_;
  Wire& wire_;
  LogSink logs_;
  SlowCalls slow_;
  CursorCodec cursors_;
  std::set<std::string> subscriptions_;
  Listens listens_;
  Tasks tasks_;  // the tasks extension's tasks of this connection (2026-07-28)
  bool modern_ = false;        // a modern request is being handled
  json client_caps_ = json::object();
  bool remembered_confirmation_ = false;
  bool initialized_ = false;   // initialize answered
  bool second_ping_due_ = false;  // reused-request-id: the repeat waits for the next request
  Version version_ = kLatestVersion;
};

}  // namespace testserver
