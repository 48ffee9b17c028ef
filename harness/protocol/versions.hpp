#pragma once
// The protocol versions mcpspec knows, and the version-range expressions scenario files use.
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::protocol {

// The versions the harness runs (proposes, negotiates, runs scenarios at), oldest first. The
// latest is the default the harness proposes.
const std::vector<std::string>& known_versions();
const std::string& latest_version();
bool is_known_version(std::string_view v);

// The stateless versions (2026-07-28): no initialize, every request carries its version in
// _meta. Servers are tested at them (a server/discover stands where the handshake stood); the
// live fuzzer does not hold such sessions yet.
const std::vector<std::string>& modern_versions();
bool is_modern_version(std::string_view v);
// What `--protocol` accepts and `--protocol all` runs: the known versions, then the modern ones.
// The default the harness proposes stays latest_version().
const std::vector<std::string>& runnable_versions();
bool is_runnable_version(std::string_view v);

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
