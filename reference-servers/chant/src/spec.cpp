#include "spec.hpp"

#include "markdown_lines.hpp"
#include "spec_id.hpp"

#include <fmt/format.h>

namespace chant {

std::optional<std::string> first_heading(std::string_view body) {
  std::optional<std::string> found;
  for_each_prose_line(body, [&](std::string_view line) {
    if (found) return;
    auto h = parse_heading(line);
    if (h && h->level == 1 && !h->text.empty()) found = std::string(h->text);
  });
  return found;
}

Spec interpret_spec(std::string id, SpecDocument doc) {
  Spec s;
  s.id = std::move(id);
  const FrontMatter& fm = doc.front_matter;

  s.declared_id = fm.scalar(key::id);
  s.title = fm.scalar(key::title);
  if (s.title && s.title->empty()) s.title.reset();

  if (auto st = fm.scalar(key::status)) {
    auto parsed = parse_stored_status(*st);
    if (!parsed) {
      throw FrontMatterError(fmt::format("line {}: unknown status '{}' (expected one of: {})",
                                         fm.line_of(key::status), printable(*st), kStoredStatuses));
    }
    s.status = *parsed;
  }
  if (auto t = fm.scalar(key::type); t && !t->empty()) s.type = *t;

  const char* dep_key = fm.has(key::depends_on) ? key::depends_on : key::dependencies;
  if (auto deps = fm.list(dep_key)) {
    for (const auto& d : *deps) {
      if (auto why = id_problem(d)) {
        throw FrontMatterError(fmt::format("line {}: dependency '{}' is not a valid spec id: {}",
                                           fm.line_of(dep_key), printable(d), *why));
      }
    }
    s.depends_on = *deps;
  }
  if (auto labels = fm.list(key::labels)) s.labels = *labels;
  if (auto commits = fm.list(key::commits)) s.commits = *commits;
  s.prompt = fm.scalar(key::prompt);
  s.created = fm.scalar(key::created);
  s.updated = fm.scalar(key::updated);
  s.completed_at = fm.scalar(key::completed_at);

  if (!s.title) s.title = first_heading(doc.body);
  s.doc = std::move(doc);
  return s;
}

Spec parse_spec(std::string id, std::string_view text) {
  return interpret_spec(std::move(id), SpecDocument::parse(text));
}

}  // namespace chant
