#include "agent_errors.hpp"
#include "workflows.hpp"

#include "mcpref/atomic_file.hpp"

namespace speckit {

void WorkContext::step(int done, int total, const std::string& message) {
  token_.check();
  if (report_) report_(done, total, message);
  token_.pause(step_pause_);
}

std::string require_document(const WorkflowCall& call, const SpecDirectory& dir, const std::string& name,
                             const std::string& made_by) {
  std::optional<std::string> text;
  try {
    text = dir.read(name);
  } catch (const mcpref::FileError& e) {
    throw tool_failed(call.tool, call.spec_directory, std::string("cannot read ") + name + ": " + e.what());
  }
  if (!text)
    throw tool_failed(call.tool, call.spec_directory,
                      name + " not found in " + call.spec_directory + ": run " + made_by + " first");
  return *text;
}

std::string run_workflow(const WorkflowCall& call, WorkContext& work) {
  SpecDirectory dir{call.spec_directory};
  try {
    if (call.tool == "speckit.specify") return run_specify(call, dir, work);
    if (call.tool == "speckit.clarify") return run_clarify(call, dir, work);
    if (call.tool == "speckit.plan") return run_plan(call, dir, work);
    if (call.tool == "speckit.tasks") return run_tasks(call, dir, work);
    if (call.tool == "speckit.implement") return run_implement(call, dir, work);
  } catch (const mcpref::FileError& e) {
    throw tool_failed(call.tool, call.spec_directory, e.what());
  }
  throw tool_failed(call.tool, call.spec_directory, "no workflow named " + call.tool);
}

}  // namespace speckit
