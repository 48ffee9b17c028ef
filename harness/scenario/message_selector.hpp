#pragma once
// Which inbound message an `expect` step takes: the part of its matcher that decides it
// (docs/scenario-format.md, "Which message an expect takes"). Shared by both roles' executors.
#include "harness/scenario/conversation.hpp"

#include <nlohmann/json.hpp>

#include <functional>

namespace mcpspec::scenario {

// A plain "id" selects the response with that id, equal in type and value (1 and "1" are different
// ids); else a "method" selects by method; else the oldest message is taken.
std::function<bool(const InboundMessage&)> selector_for(const nlohmann::json& matcher);

}  // namespace mcpspec::scenario
