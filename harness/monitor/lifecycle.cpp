#include "harness/monitor/lifecycle.hpp"

namespace mcpspec::monitor {

Findings judge_lifecycle(const Ledger& ledger, const protocol::Classified& c) {
  using protocol::Kind;
  Findings out;
  if (ledger.peer == protocol::Sender::Server) {
    if (c.kind == Kind::Request && c.method != "ping" && !ledger.initialized)
      out.push_back({"lifecycle", {"LC-06"},
                     "the server sent a request (" + c.method + ") before the client's initialized notification"});
    return out;
  }
  if (c.kind == Kind::Request) {
    if (ledger.their_requests == 0 && c.method != "initialize" && c.method != "ping")
      out.push_back({"lifecycle", {"LC-02", "LC-01"}, "the client's first request is " + c.method + ", not initialize"});
    if (c.method == "initialize" || c.method == "ping") return out;
    if (!ledger.initialize_answered)
      out.push_back({"lifecycle", {"LC-05", "LC-01"},
                     "the client sent " + c.method + " before the initialize response (only ping is allowed then)"});
    else if (!ledger.initialized)
      out.push_back({"lifecycle", {"LC-04"}, "the client sent " + c.method + " before its notifications/initialized"});
  } else if (c.kind == Kind::Notification && c.method == "notifications/initialized" && !ledger.initialize_answered) {
    out.push_back({"lifecycle", {"LC-04", "LC-01"}, "notifications/initialized arrived before the initialize response"});
  }
  return out;
}

}  // namespace mcpspec::monitor
