#include "spec_document.hpp"

namespace chant {

namespace {

bool is_fence(std::string_view line, std::string_view fence) {
  if (line.substr(0, fence.size()) != fence) return false;
  return line.substr(fence.size()).find_first_not_of(" \t") == std::string_view::npos;
}

}  // namespace

SpecDocument SpecDocument::parse(std::string_view text) {
  SpecDocument doc;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") {
    doc.bom = true;
    text.remove_prefix(3);
  }
  std::string normalized;
  normalized.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      doc.crlf = true;
      continue;
    }
    normalized += text[i];
  }

  std::size_t first_end = normalized.find('\n');
  std::string_view first = std::string_view(normalized).substr(0, first_end);
  if (first_end == std::string::npos || !is_fence(first, "---")) {
    doc.body = std::move(normalized);
    return doc;
  }

  std::vector<std::string> lines;
  std::size_t pos = first_end + 1;
  for (;;) {
    if (pos >= normalized.size()) {
      throw FrontMatterError("line 1: front matter opened with '---' is never closed by a '---' line");
    }
    std::size_t end = normalized.find('\n', pos);
    std::string_view line = std::string_view(normalized).substr(
        pos, end == std::string::npos ? std::string_view::npos : end - pos);
    if (is_fence(line, "---") || is_fence(line, "...")) {
      pos = end == std::string::npos ? normalized.size() : end + 1;
      break;
    }
    lines.emplace_back(line);
    if (end == std::string::npos) {
      throw FrontMatterError("line 1: front matter opened with '---' is never closed by a '---' line");
    }
    pos = end + 1;
  }
  doc.has_front_matter = true;
  doc.front_matter = FrontMatter::parse(lines, 2);
  doc.body = normalized.substr(pos);
  return doc;
}

std::string SpecDocument::render() const {
  std::string out;
  if (has_front_matter || !front_matter.keys().empty()) {
    out += "---\n";
    for (const auto& line : front_matter.render()) {
      out += line;
      out += '\n';
    }
    out += "---\n";
  }
  out += body;
  if (crlf) {
    std::string converted;
    converted.reserve(out.size() + out.size() / 16);
    for (char c : out) {
      if (c == '\n') converted += '\r';
      converted += c;
    }
    out = std::move(converted);
  }
  if (bom) out.insert(0, "\xEF\xBB\xBF");
  return out;
}

}  // namespace chant
