#pragma once
// The schema monitor (MCPSPEC-SCHEMA): a message that does not validate against its version's
// schema (a response by the method it answers, when known).
#include "harness/monitor/finding.hpp"
#include "harness/protocol/schema_registry.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::monitor {

struct SchemaJudgement {
  std::optional<Finding> finding;      // set when the message is invalid
  std::string definition;              // the definition it was checked against
  std::vector<std::string> unchecked;  // parts a user's schema file could not check (not failures)
};

SchemaJudgement judge_schema(const protocol::SchemaRegistry& schemas, const nlohmann::json& message,
                             const std::string& version, protocol::Sender sender,
                             std::string_view answered_method = {});

}  // namespace mcpspec::monitor
