// The five workflow commands a user picks, and how one command plus the text typed for it
// becomes the arguments of its speckit.* tool, following the document's input schemas.
#pragma once

#include "mcpref/json.hpp"

#include <array>
#include <filesystem>
#include <optional>
#include <string>

namespace spectui {

struct WorkflowCommand {
  const char* name;         // "specify"
  const char* tool;         // "speckit.specify"
  const char* summary;      // one line for the menu
  const char* input_label;  // what the input field asks for ("" when the command takes none)
  bool input_required;
};

const std::array<WorkflowCommand, 5>& workflow_commands();
// nullopt for a name that is no command.
std::optional<WorkflowCommand> find_command(const std::string& name);

// The tools/call arguments: spec_directory always (made absolute against the current
// directory); specify: feature_description = input; clarify: questions = the input split at
// newlines or ';' (none when empty); implement: task_filter = input when not empty.
// Throws std::invalid_argument when a required input is empty.
mcpref::Json build_arguments(const WorkflowCommand& command, const std::string& input,
                             const std::filesystem::path& spec_directory);

}  // namespace spectui
