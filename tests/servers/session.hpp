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
#include "logging.hpp"
#include "options.hpp"
#include "outcome.hpp"
#include "pagination.hpp"
#include "protocol_version.hpp"
#include "slow_calls.hpp"
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
  Version version() const { return version_; }
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
  bool initialized_ = false;   // initialize answered
  bool second_ping_due_ = false;  // reused-request-id: the repeat waits for the next request
  Version version_ = kLatestVersion;
};

}  // namespace testserver
