#include "reports/report_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mcpspec::reports {

namespace {

// `in` cleaned (controls visible, invalid UTF-8 replaced, line breaks kept), each character for
// which `entity` gives a text replaced by it.
template <typename Entity>
std::string escaped(std::string_view in, Entity entity) {
  const std::string clean = clean_text(in, true);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    if (const char* e = entity(c)) out += e;
    else out += c;
  }
  return out;
}

const char* xml_entity(char c, bool attribute) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return attribute ? "&quot;" : nullptr;
    case '\'': return attribute ? "&apos;" : nullptr;
    case '\n': return attribute ? "&#10;" : nullptr;
    case '\t': return attribute ? "&#9;" : nullptr;
    default: return nullptr;
  }
}

// HTML text and attribute values alike: quotes too, so one function serves both.
const char* html_entity(char c) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    default: return nullptr;
  }
}

}  // namespace

std::string xml_text(std::string_view in) {
  return escaped(in, [](char c) { return xml_entity(c, false); });
}
std::string xml_attr(std::string_view in) {
  return escaped(in, [](char c) { return xml_entity(c, true); });
}
std::string html_text(std::string_view in) { return escaped(in, html_entity); }

std::string pretty_if_json(const std::string& text) {
  const auto start = text.find_first_not_of(" \t");
  if (start == std::string::npos || (text[start] != '{' && text[start] != '[') ||
      text.find('\n') != std::string::npos)
    return text;
  const auto value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return text;
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string human_ms(double ms) {
  if (!(ms >= 0)) ms = 0;  // also catches NaN
  if (ms < 10) return fmt::format("{:.1f} ms", ms);
  if (ms < 10000) return fmt::format("{:.0f} ms", ms);
  return fmt::format("{:.1f} s", ms / 1000.0);
}

}  // namespace mcpspec::reports
