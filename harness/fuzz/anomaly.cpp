#include "harness/fuzz/anomaly.hpp"

namespace mcpspec::fuzz {

const std::vector<std::string>& oracle_names() {
  static const std::vector<std::string> names = {
      oracle::crash,  oracle::hang,           oracle::not_json_rpc,     oracle::wrong_id,   oracle::response_to_notification,
      oracle::schema, oracle::internal_error, oracle::wrong_error_code, oracle::no_response, oracle::monitor};
  return names;
}

std::vector<std::string> oracle_requirements(const std::string& o) {
  if (o == oracle::crash) return {"MCPSPEC-ALIVE"};
  if (o == oracle::hang) return {"MCPSPEC-ALIVE", "PING-01"};
  if (o == oracle::not_json_rpc) return {"STDIO-03", "BASE-01"};
  if (o == oracle::wrong_id) return {"BASE-06", "MCPSPEC-RESPONSE"};
  if (o == oracle::response_to_notification) return {"BASE-12"};
  if (o == oracle::schema) return {"MCPSPEC-SCHEMA"};
  if (o == oracle::internal_error || o == oracle::wrong_error_code) return {"BASE-01"};
  if (o == oracle::no_response) return {"MCPSPEC-RESPONSE"};
  if (o == oracle::monitor) return {};  // each monitor anomaly carries its own ids
  return {"MCPSPEC-RESPONSE"};
}

std::vector<std::string> requirements_of(const Anomaly& a) {
  return a.requirements.empty() ? oracle_requirements(a.oracle) : a.requirements;
}

}  // namespace mcpspec::fuzz
