#include "criteria.hpp"

#include "markdown_lines.hpp"

#include <cctype>
#include <optional>

namespace chant {

namespace {

enum class Box { None, Open, Done };

Box task_box(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos) return Box::None;
  if (line[i] != '-' && line[i] != '*' && line[i] != '+') return Box::None;
  ++i;
  if (i >= line.size() || (line[i] != ' ' && line[i] != '\t')) return Box::None;
  i = line.find_first_not_of(" \t", i);
  if (i == std::string_view::npos || i + 2 >= line.size() || line[i] != '[' || line[i + 2] != ']') {
    return Box::None;
  }
  if (i + 3 < line.size() && line[i + 3] != ' ' && line[i + 3] != '\t') return Box::None;
  char mark = line[i + 1];
  if (mark == ' ') return Box::Open;
  if (mark == 'x' || mark == 'X') return Box::Done;
  return Box::None;
}

bool is_criteria_title(std::string_view text) {
  static constexpr std::string_view want = "acceptance criteria";
  if (text.size() != want.size()) return false;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != want[i]) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

Criteria count_criteria(std::string_view body) {
  bool has_section = false;
  for_each_prose_line(body, [&](std::string_view line) {
    if (auto h = parse_heading(line); h && is_criteria_title(h->text)) has_section = true;
  });

  Criteria c;
  c.from_section = has_section;
  std::optional<int> section_level;  // set while inside an Acceptance Criteria section
  for_each_prose_line(body, [&](std::string_view line) {
    if (auto h = parse_heading(line)) {
      if (is_criteria_title(h->text)) {
        section_level = h->level;
      } else if (section_level && h->level <= *section_level) {
        section_level.reset();
      }
      return;
    }
    if (has_section && !section_level) return;
    switch (task_box(line)) {
      case Box::None: return;
      case Box::Done:
        ++c.total;
        ++c.checked;
        return;
      case Box::Open:
        ++c.total;
        ++c.unchecked;
        c.unchecked_items.emplace_back(trim(line));
        return;
    }
  });
  return c;
}

}  // namespace chant
