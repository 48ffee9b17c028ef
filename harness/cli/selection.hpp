#pragma once
// Loading and selecting scenarios, shared by run, list and coverage.
#include "harness/scenario/model.hpp"

#include <string>
#include <vector>

namespace mcpspec::cli {

struct Selection {
  std::vector<std::string> paths;    // files/folders; empty = the bundled generic suite
  std::vector<std::string> filters;  // id globs (any)
  std::vector<std::string> tags;     // any
};

// Loads and filters. Load errors are printed to stderr and raise UsageError (exit 2): a suite with
// a broken file must not run half-checked.
std::vector<scenario::Scenario> select_scenarios(const Selection& sel);

// "all" -> every known version; otherwise a known version. Throws UsageError.
std::vector<std::string> protocols_from(const std::string& arg);

}  // namespace mcpspec::cli
