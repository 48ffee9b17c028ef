#pragma once
// Text made safe for one cell of a Markdown table (the fuzz reports): no bar, no line break.
#include <string>

namespace mcpspec::fuzz {

inline std::string md_cell(std::string s) {
  for (auto& c : s)
    if (c == '|' || c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace mcpspec::fuzz
