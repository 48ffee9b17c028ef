#pragma once
// The protocol versions mcpspec knows, and the version-range expressions scenario files use.
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::protocol {

// The versions the harness runs (proposes, negotiates, runs scenarios at), oldest first.
// latest_version() is the default the harness proposes: the newest legacy (initialize-based)
// version, 2025-11-25; 2026-07-28 runs when --protocol names it (or all).
const std::vector<std::string>& known_versions();
const std::string& latest_version();
bool is_known_version(std::string_view v);

// Versions whose message schemas and requirement catalog mcpspec carries but cannot run yet
// (none at present: 2026-07-28 runs since the client role serves it). Their messages can be
// validated; `--protocol` names them with a clear refusal.
const std::vector<std::string>& described_only_versions();
bool is_described_only_version(std::string_view v);

// A range: "all", "2025-06-18", ">=2025-03-26", "<=2025-03-26", ">2024-11-05", "<2025-11-25",
// "2024-11-05..2025-06-18", or a JSON array of those (any of). Versions compare as dates, so a
// range also answers for versions mcpspec does not know.
class VersionRange {
 public:
  VersionRange() = default;  // "all"
  // Throws std::invalid_argument with a readable message for a malformed expression.
  static VersionRange parse(const nlohmann::json& expr);
  bool contains(std::string_view version) const;
  const std::string& text() const { return text_; }

 private:
  struct Part { std::string lo, hi; bool lo_open = false, hi_open = false; };
  std::vector<Part> parts_;  // empty = all
  std::string text_ = "all";
};

}  // namespace mcpspec::protocol
