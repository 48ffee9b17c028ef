// speckit.specify: turns a feature description into spec.md. Statements become numbered
// functional requirements, questions and vague words become open questions; an existing
// spec.md keeps its Clarifications section, so re-specifying never loses answered questions.
#include "agent_errors.hpp"
#include "markdown_text.hpp"
#include "workflows.hpp"

#include <fmt/format.h>

namespace speckit {

namespace {

bool is_open_question(const std::string& sentence) {
  if (!sentence.empty() && sentence.back() == '?') return true;
  for (const char* vague : {"TBD", "unclear", "maybe", "not sure"})
    if (contains_ignoring_case(sentence, vague)) return true;
  return false;
}

std::string as_requirement(std::string sentence) {
  while (!sentence.empty() && (sentence.back() == '.' || sentence.back() == '!')) sentence.pop_back();
  return sentence + ".";
}

}  // namespace

std::string run_specify(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work) {
  const int steps = 4;
  work.step(1, steps, "Reading the feature description");
  std::string existing;
  try {
    existing = dir.read("spec.md").value_or("");
  } catch (const std::exception& e) {
    throw tool_failed(call.tool, call.spec_directory, std::string("cannot read spec.md: ") + e.what());
  }

  work.step(2, steps, "Deriving functional requirements");
  std::vector<std::string> requirements, questions;
  for (const auto& s : sentences(call.feature_description))
    (is_open_question(s) ? questions : requirements).push_back(s);
  if (requirements.empty()) requirements.push_back(trim(call.feature_description));

  work.step(3, steps, "Collecting open questions");
  std::string title = title_from(call.feature_description);
  std::string doc = fmt::format("# Feature Specification: {}\n\n## Summary\n\n{}\n\n## Functional Requirements\n\n",
                                title, trim(call.feature_description));
  for (std::size_t i = 0; i < requirements.size(); ++i)
    doc += fmt::format("- FR-{:03}: {}\n", i + 1, as_requirement(requirements[i]));
  doc += "\n## Open Questions\n\n";
  if (questions.empty()) doc += "None.\n";
  for (const auto& q : questions) doc += "- " + q + "\n";
  std::string kept = trim(section_body(existing, "Clarifications"));
  doc += "\n## Clarifications\n\n" + (kept.empty() ? std::string("No clarifications yet.") : kept) + "\n";

  work.step(4, steps, "Writing spec.md");
  work.before_commit();
  dir.write("spec.md", doc);
  return fmt::format("Specification {} at {}/spec.md: {} functional requirement(s), {} open question(s)",
                     existing.empty() ? "created successfully" : "updated successfully", call.spec_directory,
                     requirements.size(), questions.size());
}

}  // namespace speckit
