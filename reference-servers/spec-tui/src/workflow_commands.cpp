#include "workflow_commands.hpp"

#include <stdexcept>

namespace spectui {

const std::array<WorkflowCommand, 5>& workflow_commands() {
  static const std::array<WorkflowCommand, 5> commands{{
      {"specify", "speckit.specify", "Create or update the feature specification", "Feature description", true},
      {"clarify", "speckit.clarify", "Record clarification questions", "Questions (separate with ';', optional)", false},
      {"plan", "speckit.plan", "Generate the implementation plan", "", false},
      {"tasks", "speckit.tasks", "Generate the task checklist", "", false},
      {"implement", "speckit.implement", "Work through open tasks", "Task filter (optional)", false},
  }};
  return commands;
}

std::optional<WorkflowCommand> find_command(const std::string& name) {
  for (const auto& c : workflow_commands())
    if (name == c.name || name == c.tool) return c;
  return std::nullopt;
}

namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

mcpref::Json build_arguments(const WorkflowCommand& command, const std::string& input,
                             const std::filesystem::path& spec_directory) {
  std::string text = trim(input);
  if (command.input_required && text.empty())
    throw std::invalid_argument(std::string(command.name) + " needs input: " + command.input_label);
  mcpref::Json args = mcpref::Json::object();
  std::string cmd = command.name;
  if (cmd == "specify") args["feature_description"] = text;
  args["spec_directory"] = std::filesystem::absolute(spec_directory).lexically_normal().string();
  if (cmd == "clarify" && !text.empty()) {
    mcpref::Json questions = mcpref::Json::array();
    std::string current;
    for (char c : text + ";") {
      if (c == ';' || c == '\n') {
        if (!trim(current).empty()) questions.push_back(trim(current));
        current.clear();
      } else {
        current += c;
      }
    }
    args["questions"] = questions;
  }
  if (cmd == "implement" && !text.empty()) args["task_filter"] = text;
  return args;
}

}  // namespace spectui
