#include "markdown.hpp"

#include "text_utils.hpp"

namespace clariad {

std::string md_inline(std::string_view text, std::size_t max_bytes) {
  return shorten(collapse_whitespace(text), max_bytes);
}

std::string md_cell(std::string_view text, std::size_t max_bytes) {
  const std::string flat = md_inline(text, max_bytes);
  std::string out;
  out.reserve(flat.size());
  for (char c : flat) {
    if (c == '|') out.push_back('\\');
    out.push_back(c);
  }
  return out.empty() ? "-" : out;
}

std::string md_table(const std::vector<std::string>& header,
                     const std::vector<std::vector<std::string>>& rows) {
  std::string out = "|";
  std::string rule = "|";
  for (const std::string& h : header) {
    out += " " + md_cell(h) + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const auto& row : rows) {
    out += "|";
    for (std::size_t i = 0; i < header.size(); ++i) {
      out += " " + md_cell(i < row.size() ? row[i] : std::string()) + " |";
    }
    out += "\n";
  }
  return out;
}

std::string md_bullets(const std::vector<std::string>& items) {
  if (items.empty()) return "- _none_\n";
  std::string out;
  for (const std::string& item : items) out += "- " + md_inline(item) + "\n";
  return out;
}

}  // namespace clariad
