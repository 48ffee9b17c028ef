// The client's behaviour: the handshake, then the actions MCPSPEC_CONTEXT asks for (the client
// driver protocol of docs/testing-clients.md), answering the server's requests all along.
#pragma once

#include "faults.hpp"
#include "server_process.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace testclient {

class Driver {
 public:
  // `first_id`: the id of its first request (a dual-era client that falls back keeps counting, so
  // its initialize never reuses the id of its unanswered probe).
  Driver(ServerProcess& server, nlohmann::json context, Fault fault, long long first_id = 1);
  // Runs the whole session; returns the process exit code.
  int run();

 private:
  nlohmann::json send_request(const std::string& method, nlohmann::json params);
  // Waits for the response to `id`, cancelling the request after cancel_after_ms (if >= 0).
  std::optional<nlohmann::json> await(const nlohmann::json& id, int timeout_ms, int cancel_after_ms = -1);
  // Reads and handles at most one message, waiting up to timeout_ms.
  void pump(int timeout_ms);
  bool run_action(const nlohmann::json& action);  // false: the session is over
  void on_error_response(const nlohmann::json& response);
  int shut_down();
  void send(const nlohmann::json& message);

  ServerProcess& server_;
  nlohmann::json ctx_, declared_;
  nlohmann::json server_caps_ = nlohmann::json::object();  // from the initialize result
  Fault fault_;
  long long next_id_ = 1;
  bool initialized_ = false;
  std::optional<nlohmann::json> reused_id_;
  std::map<std::string, nlohmann::json> responses_;  // id dump -> response
  std::vector<nlohmann::json> pending_;              // requests sent without waiting
};

}  // namespace testclient
