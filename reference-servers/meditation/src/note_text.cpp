#include "note_text.hpp"

#include <cctype>
#include <vector>

namespace meditation {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::string_view unquote(std::string_view v) {
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) return v.substr(1, v.size() - 2);
  return v;
}

// Cuts at most `max` bytes without splitting a UTF-8 sequence.
std::string cut_utf8(std::string_view s, std::size_t max) {
  if (s.size() <= max) return std::string(s);
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end)) + "...";
}

// "## Heading ##" -> level 2, text "Heading"; 0 when the line is not an ATX heading.
int heading(std::string_view line, std::string_view& text) {
  std::size_t level = 0;
  while (level < line.size() && line[level] == '#') ++level;
  if (level == 0 || level > 6 || (level < line.size() && line[level] != ' ' && line[level] != '\t')) return 0;
  text = trim(line.substr(level));
  while (!text.empty() && text.back() == '#') text.remove_suffix(1);
  text = trim(text);
  return static_cast<int>(level);
}

}  // namespace

std::string fold_case(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

NoteSummary summarize_note(std::string_view markdown, const std::string& fallback_title) {
  auto lines = split_lines(markdown);
  std::size_t i = 0;
  std::string front_title;
  // YAML-style front matter: only `title:` is read; the rest is the note's own business.
  if (!lines.empty() && trim(lines[0]) == "---") {
    for (std::size_t j = 1; j < lines.size(); ++j) {
      std::string_view l = trim(lines[j]);
      if (l == "---" || l == "...") {
        i = j + 1;
        break;
      }
      if (l.substr(0, 6) == "title:") front_title = std::string(unquote(trim(l.substr(6))));
    }
    if (i == 0) front_title.clear();  // no closing line: it was not front matter after all
  }
  std::string first_heading, top_heading, prose;
  bool in_fence = false;
  for (; i < lines.size(); ++i) {
    std::string_view l = trim(lines[i]);
    if (l.substr(0, 3) == "```" || l.substr(0, 3) == "~~~") {
      in_fence = !in_fence;
      continue;
    }
    if (in_fence || l.empty()) continue;
    std::string_view text;
    if (int level = heading(l, text)) {
      if (first_heading.empty() && !text.empty()) first_heading = text;
      if (level == 1 && top_heading.empty() && !text.empty()) top_heading = text;
      continue;
    }
    if (prose.empty()) {
      // Leading list and quote markers say nothing about the note.
      while (!l.empty() && (l.front() == '>' || l.front() == '-' || l.front() == '*' || l.front() == '+'))
        l = trim(l.substr(1));
      if (!l.empty()) prose = cut_utf8(l, kMaxDescription);
    }
    if (!top_heading.empty() && !prose.empty()) break;
  }
  NoteSummary s;
  s.title = !front_title.empty() ? front_title : !top_heading.empty() ? top_heading
                                             : !first_heading.empty() ? first_heading : fallback_title;
  s.title = cut_utf8(s.title, 200);
  s.description = prose.empty() ? kDefaultDescription : prose;
  return s;
}

}  // namespace meditation
