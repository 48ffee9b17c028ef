// Waiting for the response to one request, shared by both drivers (driver.cpp, modern_driver.cpp):
// responses arrive through `pump` into `responses` (id dump -> message); after cancel_after_ms (if
// >= 0) the request is given up with `cancel` and at most 300 ms more are spent on a late answer.
#pragma once

#include "server_process.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <string>

namespace testclient {

inline long long steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <class Pump, class Cancel>
std::optional<nlohmann::json> await_response(std::map<std::string, nlohmann::json>& responses, const nlohmann::json& id,
                                             int timeout_ms, int cancel_after_ms, const ServerProcess& server,
                                             Pump pump, Cancel cancel) {
  long long start = steady_ms();
  bool cancelled = false;
  while (steady_ms() - start < timeout_ms) {
    auto it = responses.find(id.dump());
    if (it != responses.end()) {
      nlohmann::json r = it->second;
      responses.erase(it);
      return r;
    }
    if (server.stdout_closed()) return std::nullopt;
    if (cancel_after_ms >= 0 && !cancelled && steady_ms() - start >= cancel_after_ms) {
      cancelled = true;
      cancel();
      timeout_ms = static_cast<int>(std::min<long long>(timeout_ms, steady_ms() - start + 300));
    }
    pump(20);
  }
  return std::nullopt;
}

// The next message from the server as a JSON object, waiting at most timeout_ms; nullopt on a
// timeout, at EOF, or for a line that is not a JSON object (noted on stderr and skipped).
inline std::optional<nlohmann::json> read_object(ServerProcess& server, int timeout_ms) {
  auto line = server.read_line(timeout_ms);
  if (!line) return std::nullopt;
  nlohmann::json msg = nlohmann::json::parse(*line, nullptr, false);
  if (msg.is_discarded()) {
    std::cerr << "mcpspec-testclient: ignoring a line that is not JSON: " << line->substr(0, 200) << std::endl;
    return std::nullopt;
  }
  if (!msg.is_object()) return std::nullopt;
  return msg;
}

// Keeps reading (and answering, through `pump`) for `ms`, or until the server closes its stdout.
template <class Pump>
void serve_for(long long ms, const ServerProcess& server, Pump pump) {
  long long until = steady_ms() + ms;
  while (steady_ms() < until && !server.stdout_closed()) pump(static_cast<int>(std::max(1LL, until - steady_ms())));
}

}  // namespace testclient
