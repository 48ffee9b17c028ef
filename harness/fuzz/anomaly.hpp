#pragma once
// What an oracle reports: one observed misbehaviour of the target, keyed for deduplication.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcpspec::fuzz {

// Oracle names, as they appear in reports, finding files and scenario ids.
namespace oracle {
inline constexpr const char* crash = "crash";                        // the target exited or closed its output
inline constexpr const char* hang = "hang";                          // no answer to a ping within the deadline
inline constexpr const char* not_json_rpc = "not-json-rpc";          // output that is not a JSON-RPC message
inline constexpr const char* wrong_id = "wrong-id";                  // a response whose id we never sent (or sent once, answered twice)
inline constexpr const char* response_to_notification = "response-to-notification";
inline constexpr const char* schema = "schema";                      // invalid for the negotiated version
inline constexpr const char* internal_error = "internal-error";      // -32603 where JSON-RPC fixes another code
inline constexpr const char* wrong_error_code = "wrong-error-code";  // an unknown method not answered -32601
inline constexpr const char* no_response = "no-response";            // a request never answered by a live target
// A rule of the scenario conversations' monitors (harness/monitor/) on the target's own requests
// and notifications: ids, lifecycle, capabilities, progress, cancellation.
inline constexpr const char* monitor = "monitor";
}  // namespace oracle

// All oracle names, in report order.
const std::vector<std::string>& oracle_names();
// Requirement ids (scenarios/requirements) that an oracle's finding breaks.
std::vector<std::string> oracle_requirements(const std::string& oracle);
struct Anomaly;
// The requirement ids one anomaly breaks: its monitor's, else its oracle's.
std::vector<std::string> requirements_of(const Anomaly& a);

struct Anomaly {
  std::string oracle;
  std::string method;     // the method the misbehaviour concerns; "?" when not known yet
  std::string signature;  // what exactly: exit status, schema definition, error code
  std::string detail;     // one readable sentence
  std::string received;   // the offending output (shortened), or the exit status
  std::optional<std::size_t> trigger;       // history index of the message answered, when known
  std::optional<nlohmann::json> trigger_id; // the id of that message, when it had one
  int demanded_code = 0;                     // for internal-error / wrong-error-code
  std::vector<std::string> requirements;     // a monitor's own ids; empty: the oracle's (oracle_requirements)

  std::string key() const { return oracle + " | " + method + " | " + signature; }
  // True when `other` is the same misbehaviour (an unknown method matches any).
  bool same_as(const Anomaly& other) const {
    return oracle == other.oracle && signature == other.signature &&
           (method == "?" || other.method == "?" || method == other.method);
  }
};

}  // namespace mcpspec::fuzz
