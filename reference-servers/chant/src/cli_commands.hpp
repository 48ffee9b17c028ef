// The human-facing commands: chant init, chant add, chant list.
#pragma once

#include "init_project.hpp"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace chant {

struct AddCommand {
  std::string description;
  std::optional<std::string> type;
  std::optional<std::string> prompt;
  std::vector<std::string> depends_on;  // full or partial ids, resolved before writing
  std::vector<std::string> labels;
};

// Each returns the process exit status and writes errors to `err` prefixed with "chant: ".
// `project_dir` is the --project directory, or empty to search upwards from the cwd.
int run_init(const std::filesystem::path& dir, std::optional<AgentSetup> agent, bool interactive,
             std::istream& in, std::ostream& out, std::ostream& err);
int run_add(const std::filesystem::path& project_dir, const AddCommand& command, std::ostream& out,
            std::ostream& err);
int run_list(const std::filesystem::path& project_dir, const std::optional<std::string>& status,
             std::ostream& out, std::ostream& err);

}  // namespace chant
