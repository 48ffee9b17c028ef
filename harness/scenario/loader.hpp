#pragma once
// Finds and loads scenario files, validating each against the scenario-format schema and checking
// every matcher, so that a broken file is reported up front as "file: /pointer: what is wrong".
#include "harness/scenario/model.hpp"

#include <string>
#include <vector>

namespace mcpspec::scenario {

struct LoadError {
  std::string file;
  std::string pointer;
  std::string message;
  std::string text() const;  // "file: /pointer: message"
};

struct LoadOutcome {
  std::vector<Scenario> scenarios;  // sorted by id
  std::vector<LoadError> errors;
};

// Paths may be files or folders (searched recursively for *.json). Inside folders, files in
// folders named "fixtures" or "requirements", and files whose names start with "_" or are
// "targets.json"/"baseline*.json"/"profile*.json", are not scenarios. A path given explicitly as a
// file is always loaded as a scenario.
LoadOutcome load_scenarios(const std::vector<std::string>& paths);

// Loads one scenario from text (for tests and the fuzzer). `file` names it in errors.
LoadOutcome load_scenario_text(const std::string& text, const std::string& file);

// Where the matchers of a step are, as JSON pointers relative to the step (used by the loader and
// by tools that rewrite scenarios).
std::vector<std::string> matcher_pointers(const nlohmann::json& step);

}  // namespace mcpspec::scenario
