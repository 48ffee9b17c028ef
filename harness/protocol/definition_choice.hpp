#pragma once
// Which definitions of a version's schema one message is checked against: its envelope, the
// definition of its method (requests and notifications), the result of the method it answers
// (responses), each member of a batch. docs/schemas.md describes the choice.
#include "harness/protocol/schema_version.hpp"

#include <nlohmann/json.hpp>

#include <string_view>

namespace mcpspec::protocol::detail {

ValidationOutcome check_message(const VersionData& vd, const nlohmann::json& message, Sender sender,
                                std::string_view answered_method);
ValidationOutcome check_definition(const VersionData& vd, const nlohmann::json& value, std::string_view definition);

}  // namespace mcpspec::protocol::detail
