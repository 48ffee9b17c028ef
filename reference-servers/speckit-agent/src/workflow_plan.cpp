// speckit.plan: spec.md -> plan.md. Open questions that no clarification session recorded become
// research items (phase 0); each functional requirement becomes one design item (phase 1) that
// keeps its FR number, which speckit.tasks reads back.
#include "markdown_text.hpp"
#include "workflows.hpp"

#include <fmt/format.h>

namespace speckit {

std::string run_plan(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work) {
  const int steps = 4;
  std::string spec = require_document(call, dir, "spec.md", "speckit.specify");
  work.step(1, steps, "Reading spec.md");
  std::string title = document_title(spec, "Feature Specification: ");
  auto requirements = section_items(spec, "Functional Requirements");
  auto questions = section_items(spec, "Open Questions");
  std::string clarifications = section_body(spec, "Clarifications");

  work.step(2, steps, "Listing research for open questions");
  std::string doc = fmt::format("# Implementation Plan: {}\n\nSource: spec.md ({} functional requirement(s), {} open "
                                "question(s))\n\n## Phase 0: Research\n\n",
                                title.empty() ? "Untitled feature" : title, requirements.size(), questions.size());
  int research = 0;
  for (const auto& q : questions) {
    bool pending = clarifications.find("- Q: " + q) != std::string::npos;
    doc += fmt::format("- R-{:03} {}{}\n", ++research, q, pending ? " (clarification pending)" : "");
  }
  if (research == 0) doc += "Nothing to research: the specification has no open questions.\n";

  work.step(3, steps, "Designing one item per requirement");
  doc += "\n## Phase 1: Design\n\n";
  int design = 0;
  for (const auto& r : requirements) {
    auto colon = r.find(": ");
    std::string fr = colon == std::string::npos ? fmt::format("FR-{:03}", design + 1) : r.substr(0, colon);
    std::string text = colon == std::string::npos ? r : r.substr(colon + 2);
    doc += fmt::format("- D-{:03} [{}] {}\n", ++design, fr, text);
  }
  if (design == 0) doc += "No functional requirements in spec.md yet.\n";
  doc += "\n## Phase 2: Build and Verify\n\nImplement and test each design item in order; speckit.tasks lists the "
         "steps.\n";

  work.step(4, steps, "Writing plan.md");
  work.before_commit();
  dir.write("plan.md", doc);
  return fmt::format("Plan created at {}/plan.md: {} design item(s), {} research item(s)", call.spec_directory, design,
                     research);
}

}  // namespace speckit
