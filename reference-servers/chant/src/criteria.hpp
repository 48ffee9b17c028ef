// Acceptance criteria: Markdown task-list items ("- [ ] ..." / "- [x] ...").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace chant {

struct Criteria {
  int total = 0;
  int checked = 0;
  int unchecked = 0;
  std::vector<std::string> unchecked_items;  // each item's line, trimmed ("- [ ] Tests added")
  bool from_section = false;  // counted within "Acceptance Criteria" section(s) only
};

// When the body has a heading titled "Acceptance Criteria" (any level, any case), only items
// inside such sections count: a checklist elsewhere (notes, output) is not a criterion.
// Otherwise every task item in the body counts. Items in fenced code blocks never count.
// Bullets may be '-', '*' or '+', indented or not; "[x]" and "[X]" are checked.
Criteria count_criteria(std::string_view body);

}  // namespace chant
