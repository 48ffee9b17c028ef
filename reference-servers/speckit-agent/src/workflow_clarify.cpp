// speckit.clarify: records questions (the caller's, or spec.md's open questions) as a new
// numbered session under spec.md's Clarifications, each marked pending until someone answers it.
#include "agent_errors.hpp"
#include "markdown_text.hpp"
#include "workflows.hpp"

#include <fmt/format.h>

namespace speckit {

std::string run_clarify(const WorkflowCall& call, const SpecDirectory& dir, WorkContext& work) {
  std::string spec = require_document(call, dir, "spec.md", "speckit.specify");
  std::vector<std::string> questions;
  for (const auto& q : call.questions)
    if (!trim(q).empty()) questions.push_back(trim(q));
  bool from_spec = questions.empty();
  if (from_spec) questions = section_items(spec, "Open Questions");
  if (questions.empty()) return "No open questions in " + call.spec_directory + "/spec.md; nothing to clarify";

  const int steps = static_cast<int>(questions.size()) + 1;
  std::string body = trim(section_body(spec, "Clarifications"));
  if (body == "No clarifications yet.") body.clear();
  int session = 1;
  for (std::size_t p = body.find("### Session "); p != std::string::npos; p = body.find("### Session ", p + 1)) ++session;
  std::string added = fmt::format("### Session {}\n\n", session);
  for (std::size_t i = 0; i < questions.size(); ++i) {
    work.step(static_cast<int>(i) + 1, steps, fmt::format("Clarifying question {} of {}", i + 1, questions.size()));
    added += fmt::format("- Q: {}\n  A: Pending decision; plan.md lists it as a risk until answered.\n", questions[i]);
  }
  body = body.empty() ? added : body + "\n\n" + added;

  work.step(steps, steps, "Writing spec.md");
  // Replace only the Clarifications section: sections a person added after it stay.
  auto at = spec.find("## Clarifications");
  auto next = at == std::string::npos ? std::string::npos : spec.find("\n## ", at);
  std::string head = at == std::string::npos ? spec + "\n" : spec.substr(0, at);
  std::string tail = next == std::string::npos ? "" : spec.substr(next);
  std::string updated = head + "## Clarifications\n\n" + body;
  if (updated.back() != '\n') updated += '\n';
  updated += tail;
  work.before_commit();
  dir.write("spec.md", updated);
  return fmt::format("Recorded {} clarification question(s) ({}) as session {} in {}/spec.md", questions.size(),
                     from_spec ? "from the open questions" : "as asked", session, call.spec_directory);
}

}  // namespace speckit
