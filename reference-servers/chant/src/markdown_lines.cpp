#include "markdown_lines.hpp"

#include <string>

namespace chant {

std::optional<Heading> parse_heading(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && indent < 4 && line[indent] == ' ') ++indent;
  if (indent > 3) return std::nullopt;
  std::size_t i = indent;
  int level = 0;
  while (i < line.size() && line[i] == '#') {
    ++level;
    ++i;
  }
  if (level < 1 || level > 6) return std::nullopt;
  if (i < line.size() && line[i] != ' ' && line[i] != '\t') return std::nullopt;
  std::string_view text = line.substr(i);
  std::size_t b = text.find_first_not_of(" \t");
  text = b == std::string_view::npos ? std::string_view{} : text.substr(b);
  // Optional closing sequence: "## Title ##".
  std::size_t e = text.find_last_not_of(" \t");
  text = e == std::string_view::npos ? std::string_view{} : text.substr(0, e + 1);
  std::size_t hashes = text.find_last_not_of('#');
  if (hashes == std::string_view::npos) {
    text = {};
  } else if (hashes + 1 < text.size() && (text[hashes] == ' ' || text[hashes] == '\t')) {
    text = text.substr(0, hashes);
    std::size_t e2 = text.find_last_not_of(" \t");
    text = e2 == std::string_view::npos ? std::string_view{} : text.substr(0, e2 + 1);
  }
  return Heading{level, text};
}

namespace {

// A fence is 3+ backticks or tildes after up to 3 spaces; it closes with the same character,
// at least as long.
bool fence_of(std::string_view line, char& ch, std::size_t& len) {
  std::size_t i = 0;
  while (i < line.size() && i < 4 && line[i] == ' ') ++i;
  if (i > 3 || i >= line.size() || (line[i] != '`' && line[i] != '~')) return false;
  char c = line[i];
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == c) ++n;
  if (n < 3) return false;
  ch = c;
  len = n;
  return true;
}

}  // namespace

void for_each_prose_line_at(std::string_view text,
                            const std::function<void(std::string_view, std::size_t)>& visit) {
  bool in_fence = false;
  char fence_char = 0;
  std::size_t fence_len = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    std::size_t stop = end == std::string_view::npos ? text.size() : end;
    std::string_view line = text.substr(pos, stop - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    char c = 0;
    std::size_t n = 0;
    if (fence_of(line, c, n)) {
      if (!in_fence) {
        in_fence = true;
        fence_char = c;
        fence_len = n;
      } else if (c == fence_char && n >= fence_len &&
                 line.find_first_not_of(std::string(1, c) + " \t") == std::string_view::npos) {
        in_fence = false;
      }
    } else if (!in_fence) {
      visit(line, pos);
    }
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
}

void for_each_prose_line(std::string_view text, const std::function<void(std::string_view)>& visit) {
  for_each_prose_line_at(text, [&](std::string_view line, std::size_t) { visit(line); });
}

}  // namespace chant
