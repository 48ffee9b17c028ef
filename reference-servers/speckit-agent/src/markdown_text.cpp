#include "markdown_text.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace speckit {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> sentences(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  auto flush = [&] {
    std::string t = trim(current);
    if (!t.empty()) out.push_back(t);
    current.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      flush();
      continue;
    }
    current += c;
    bool end_mark = c == '.' || c == '!' || c == '?';
    bool at_break = i + 1 == text.size() || std::isspace(static_cast<unsigned char>(text[i + 1]));
    if (end_mark && at_break) flush();
  }
  flush();
  return out;
}

std::string title_from(const std::string& text, std::size_t max_chars) {
  auto all = sentences(text);
  std::string first = all.empty() ? std::string("Untitled feature") : all.front();
  while (!first.empty() && (first.back() == '.' || first.back() == '!')) first.pop_back();
  if (first.size() <= max_chars) return first;
  auto cut = first.rfind(' ', max_chars);
  return first.substr(0, cut == std::string::npos || cut == 0 ? max_chars : cut) + "...";
}

namespace {

// [begin, end) line range of the body under "## heading"; begin == npos when absent.
std::pair<std::size_t, std::size_t> section_range(const std::string& doc, const std::string& heading) {
  std::string marker = "## " + heading;
  std::size_t pos = 0;
  while (pos < doc.size()) {
    auto eol = doc.find('\n', pos);
    std::string line = doc.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
    if (trim(line) == marker) {
      std::size_t begin = eol == std::string::npos ? doc.size() : eol + 1;
      std::size_t end = begin;
      while (end < doc.size()) {
        if (doc.compare(end, 3, "## ") == 0) break;
        auto next = doc.find('\n', end);
        end = next == std::string::npos ? doc.size() : next + 1;
      }
      return {begin, end};
    }
    pos = eol == std::string::npos ? doc.size() : eol + 1;
  }
  return {std::string::npos, std::string::npos};
}

}  // namespace

std::string section_body(const std::string& doc, const std::string& heading) {
  auto [b, e] = section_range(doc, heading);
  return b == std::string::npos ? std::string() : doc.substr(b, e - b);
}

std::vector<std::string> section_items(const std::string& doc, const std::string& heading) {
  std::vector<std::string> items;
  std::istringstream in(section_body(doc, heading));
  for (std::string line; std::getline(in, line);)
    if (line.rfind("- ", 0) == 0) items.push_back(trim(line.substr(2)));
  return items;
}

std::string document_title(const std::string& doc, const std::string& prefix) {
  std::istringstream in(doc);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("# " + prefix, 0) == 0) return trim(line.substr(2 + prefix.size()));
  return "";
}

bool contains_ignoring_case(const std::string& haystack, const std::string& needle) {
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != haystack.end();
}

}  // namespace speckit
