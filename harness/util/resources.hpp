#pragma once
// Data files compiled into the binary (schemas, the scenario-format schema, the requirement
// catalog), looked up by their path relative to the repository root.
#include <optional>
#include <string_view>
#include <vector>

namespace mcpspec::resources {
std::optional<std::string_view> find(std::string_view path);
std::vector<std::string_view> list(std::string_view prefix);
}  // namespace mcpspec::resources
