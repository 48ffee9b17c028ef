#pragma once
// The requirement catalog (scenarios/requirements/<version>.json, embedded in the binary): level,
// summary and spec section of every requirement id, per protocol version.
#include "harness/results/result.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpspec::scenario {

struct Requirement {
  std::string id, area, keyword, summary, section, testable;
  Level level = Level::Must;
  bool heuristic = false;
};

class RequirementCatalog {
 public:
  // The catalog compiled into this build (all versions present). Thread-safe.
  static const RequirementCatalog& builtin();
  // Load from a folder of <version>.json files (tests use this). Throws std::runtime_error.
  static RequirementCatalog from_directory(const std::string& dir);

  std::optional<Requirement> find(std::string_view version, std::string_view id) const;
  std::vector<Requirement> all(std::string_view version) const;
  std::vector<std::string> versions() const;
  std::string area_title(std::string_view version, std::string_view area) const;
  // Level to use for a requirement in a version; MUST when the id is unknown to the catalog.
  Level level_of(std::string_view version, std::string_view id) const;
  // The strictest level among `ids` (a finding breaking a MUST and a SHOULD is a MUST finding);
  // Info for none.
  Level strictest_level(std::string_view version, const std::vector<std::string>& ids) const;

 private:
  void add_version(const std::string& text, const std::string& origin);
  struct Version {
    std::string protocol;
    std::vector<Requirement> rows;
    std::vector<std::pair<std::string, std::string>> areas;
  };
  std::vector<Version> versions_;
};

}  // namespace mcpspec::scenario
