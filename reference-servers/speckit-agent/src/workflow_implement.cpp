// speckit.implement: works through the open tasks of tasks.md (those matching task_filter, by
// task id or text, ignoring case), one progress step each, and ticks them off. Without a model
// the "implementation" is the bookkeeping: which tasks are done is what the next call sees.
#include "agent_errors.hpp"
#include "markdown_text.hpp"
#include "workflows.hpp"

#include <fmt/format.h>

#include <sstream>

namespace speckit {

std::string run_implement(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work) {
  std::string tasks = require_document(call, dir, "tasks.md", "speckit.tasks");
  std::vector<std::string> lines;
  std::istringstream in(tasks);
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::vector<std::size_t> chosen;
  std::size_t open = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("- [ ] ", 0) != 0) continue;
    ++open;
    if (!call.task_filter || contains_ignoring_case(lines[i].substr(6), *call.task_filter)) chosen.push_back(i);
  }
  if (chosen.empty()) {
    if (call.task_filter)
      throw tool_failed(call.tool, call.spec_directory,
                        fmt::format("no open task in tasks.md matches the filter '{}'", *call.task_filter));
    return fmt::format("All tasks in {}/tasks.md are already complete", call.spec_directory);
  }

  const int steps = static_cast<int>(chosen.size()) + 1;
  std::string names;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    std::string& line = lines[chosen[k]];
    std::string id = line.substr(6, line.find(' ', 6) - 6);
    work.step(static_cast<int>(k) + 1, steps, "Implementing " + line.substr(6));
    line.replace(3, 1, "x");
    names += (names.empty() ? "" : ", ") + id;
  }
  work.step(steps, steps, "Writing tasks.md");
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  work.before_commit();
  dir.write("tasks.md", out);
  return fmt::format("Implemented {} task(s) in {}: {}; {} open task(s) left", chosen.size(), call.spec_directory, names,
                     open - chosen.size());
}

}  // namespace speckit
