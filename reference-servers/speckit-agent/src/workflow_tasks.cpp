// speckit.tasks: plan.md -> tasks.md, a checklist with one setup task, an implement and a test
// task per design item, and one task per research item. Regenerating keeps the [x] of tasks
// whose text is unchanged, so finished work is not forgotten.
#include "markdown_text.hpp"
#include "workflows.hpp"

#include <fmt/format.h>

#include <set>

namespace speckit {

namespace {

// "- [x] T003 text" -> "text" (the part that identifies a task across regenerations).
std::string task_text(const std::string& item) {
  auto t = item.find(" T");
  if (t == std::string::npos) return item;
  auto space = item.find(' ', t + 1);
  return space == std::string::npos ? "" : item.substr(space + 1);
}

}  // namespace

std::string run_tasks(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work) {
  const int steps = 3;
  std::string plan = require_document(call, dir, "plan.md", "speckit.plan");
  std::string previous = dir.read("tasks.md").value_or("");
  work.step(1, steps, "Reading plan.md");
  std::set<std::string> done;
  for (const auto& item : section_items(previous, "Checklist"))
    if (item.rfind("[x]", 0) == 0) done.insert(task_text(item));

  work.step(2, steps, "Breaking design items into tasks");
  std::vector<std::string> texts{"Set up the feature's structure and test harness"};
  for (const auto& d : section_items(plan, "Phase 1: Design")) {
    auto bracket = d.find("] ");
    if (d.rfind("D-", 0) != 0 || bracket == std::string::npos) continue;
    std::string fr = d.substr(d.find('[') + 1, bracket - d.find('[') - 1);
    texts.push_back(fmt::format("[{}] Implement: {}", fr, d.substr(bracket + 2)));
    texts.push_back(fmt::format("[{}] Test: {}", fr, d.substr(bracket + 2)));
  }
  for (const auto& r : section_items(plan, "Phase 0: Research"))
    if (r.rfind("R-", 0) == 0) texts.push_back("Resolve: " + r.substr(r.find(' ') + 1));

  std::string title = document_title(plan, "Implementation Plan: ");
  std::string doc = fmt::format("# Tasks: {}\n\n## Checklist\n\n", title.empty() ? "Untitled feature" : title);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    bool checked = done.count(texts[i]) > 0;
    kept += checked;
    doc += fmt::format("- [{}] T{:03} {}\n", checked ? 'x' : ' ', i + 1, texts[i]);
  }

  work.step(3, steps, "Writing tasks.md");
  work.before_commit();
  dir.write("tasks.md", doc);
  return fmt::format("Tasks created at {}/tasks.md: {} task(s), {} already complete", call.spec_directory, texts.size(),
                     kept);
}

}  // namespace speckit
