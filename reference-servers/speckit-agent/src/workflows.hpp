// The five workflow tools. Each reads what it needs from the spec directory, reports its steps as
// progress, pauses between steps where a cancel or the deadline can stop it, and writes its
// documents only at the end, so a stopped call leaves the directory as it was.
#pragma once

#include "cancellation.hpp"
#include "spec_directory.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace speckit {

// The checked arguments of one tools/call (see tool_catalog.hpp).
struct WorkflowCall {
  std::string tool;  // "speckit.specify" ...
  std::string spec_directory;
  std::string feature_description;     // specify
  std::vector<std::string> questions;  // clarify (may be empty)
  std::optional<std::string> task_filter;  // implement
};

class WorkContext {
 public:
  using Reporter = std::function<void(int done, int total, const std::string& message)>;
  WorkContext(const CancelToken& token, Reporter report, std::chrono::milliseconds step_pause)
      : token_(token), report_(std::move(report)), step_pause_(step_pause) {}

  // Reports step `done` of `total`, then pauses; throws when the call must stop.
  void step(int done, int total, const std::string& message);
  // Last chance to stop before documents are written.
  void before_commit() const { token_.check(); }

 private:
  const CancelToken& token_;
  Reporter report_;
  std::chrono::milliseconds step_pause_;
};

// Each returns the text of the tool result; failures throw tool_failed() (-32000).
std::string run_specify(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work);
std::string run_clarify(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work);
std::string run_plan(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work);
std::string run_tasks(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work);
std::string run_implement(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work);

// Runs the workflow `call.tool` names.
std::string run_workflow(const WorkflowCall& call, WorkContext& work);

// Reads a document another step must have written first; -32000 naming the step otherwise.
std::string require_document(const WorkflowCall& call, const SpecDirectory& dir, const std::string& name,
                             const std::string& made_by);

}  // namespace speckit
