#include "reports/mismatch_excerpt.hpp"

#include "reports/report_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <vector>

namespace mcpspec::reports {

namespace {

using nlohmann::json;

std::size_t line_count(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')) + (s.empty() || s.back() == '\n' ? 0 : 1);
}

// The pointer of the diff's first line that starts with '/': the text up to the first ": ".
std::optional<std::string> first_pointer(const std::string& diff) {
  std::size_t pos = 0;
  while (pos < diff.size()) {
    std::size_t end = diff.find('\n', pos);
    if (end == std::string::npos) end = diff.size();
    const std::string line = diff.substr(pos, end - pos);
    if (!line.empty() && line.front() == '/') {
      const auto colon = line.find(": ");
      return line.substr(0, colon);
    }
    pos = end + 1;
  }
  return std::nullopt;
}

// The first word of a message that is a JSON pointer into the value ("... ListToolsResult):
// /result/tools/0/inputSchema/type does not ..."), as schema findings name the place in text.
std::optional<std::string> pointer_in_text(const std::string& text) {
  for (std::size_t pos = text.find('/'); pos != std::string::npos; pos = text.find('/', pos + 1)) {
    if (pos > 0 && text[pos - 1] != ' ' && text[pos - 1] != '(' && text[pos - 1] != '\'') continue;
    const auto end = text.find_first_of(" ,;:)'\n", pos);
    std::string word = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (word.size() > 1) return word;
  }
  return std::nullopt;
}

// The reference tokens of a JSON pointer, unescaped (~1 is '/', ~0 is '~').
std::vector<std::string> tokens_of(const std::string& pointer) {
  std::vector<std::string> out;
  std::size_t pos = 1;
  while (pos <= pointer.size()) {
    std::size_t end = pointer.find('/', pos);
    if (end == std::string::npos) end = pointer.size();
    std::string token;
    for (std::size_t i = pos; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
        token += pointer[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        token += pointer[i];
      }
    }
    out.push_back(std::move(token));
    pos = end + 1;
  }
  return out;
}

std::string escape_token(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string pretty(const json& v) { return v.dump(2, ' ', false, json::error_handler_t::replace); }

}  // namespace

Excerpt received_excerpt(const std::string& received, const std::string& diff, const std::string& message,
                         std::size_t max_lines, std::size_t line_bytes) {
  const std::string laid_out = pretty_if_json(received);
  if (line_count(laid_out) <= max_lines) return {limit_lines(laid_out, max_lines, line_bytes), "", false};

  const auto value = json::parse(received, nullptr, /*allow_exceptions=*/false);
  auto pointer = first_pointer(diff);
  if (!pointer) pointer = pointer_in_text(message);
  if (value.is_discarded() || !pointer) return {limit_lines(laid_out, max_lines, line_bytes), "", true};

  // Walk down as far as the value goes; keep the parent too, for a scalar end point.
  const json* node = &value;
  const json* parent = nullptr;
  std::string at, parent_at;
  for (const auto& token : tokens_of(*pointer)) {
    const json* next = nullptr;
    if (node->is_object()) {
      auto it = node->find(token);
      if (it != node->end()) next = &*it;
    } else if (node->is_array() && !token.empty() &&
               token.find_first_not_of("0123456789") == std::string::npos && token.size() < 10) {
      const auto index = std::stoul(token);
      if (index < node->size()) next = &(*node)[index];
    }
    if (!next) break;
    parent = node;
    parent_at = at;
    node = next;
    at += "/" + escape_token(token);
  }
  if (!node->is_structured() && parent) {
    node = parent;
    at = parent_at;
  }
  return {limit_lines(pretty(*node), max_lines, line_bytes), at, true};
}

}  // namespace mcpspec::reports
