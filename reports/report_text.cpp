#include "reports/report_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mcpspec::reports {

namespace {
std::string xml_escape(std::string_view in, bool attribute) {
  const std::string clean = clean_text(in, true);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\'': out += attribute ? "&apos;" : "'"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default: out += c;
    }
  }
  return out;
}
}  // namespace

std::string xml_text(std::string_view in) { return xml_escape(in, false); }
std::string xml_attr(std::string_view in) { return xml_escape(in, true); }

std::string html_text(std::string_view in) {
  const std::string clean = clean_text(in, true);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

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
