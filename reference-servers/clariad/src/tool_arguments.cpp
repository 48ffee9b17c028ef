#include "tool_arguments.hpp"

#include <fmt/format.h>

#include <cmath>

#include "rpc_error.hpp"
#include "text_utils.hpp"

namespace clariad {

namespace {

std::string expected_names(const ToolSpec& tool) {
  std::string out;
  for (const ParamSpec& p : tool.params) {
    if (!out.empty()) out += ", ";
    out += p.name;
  }
  return out;
}

// Numbers in messages without noise: 600 not 600.000000, 0.25 stays 0.25.
std::string format_number(double value) {
  std::string text = fmt::format("{:.6f}", value);
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

bool has_control_character(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

bool is_blank(std::string_view text) {
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  }
  return true;
}

[[noreturn]] void refuse(const ToolSpec& tool, std::string_view param, std::string problem, const std::string& pointer) {
  throw RpcError(ErrorCode::InvalidParams,
                 fmt::format("tool {}: parameter \"{}\" {}", tool.name, param, problem), pointer);
}

}  // namespace

void ToolArguments::set_text(std::string_view name, std::string value) { texts_[std::string(name)] = std::move(value); }
void ToolArguments::set_number(std::string_view name, double value) { numbers_[std::string(name)] = value; }

std::optional<std::string> ToolArguments::text(std::string_view name) const {
  const auto it = texts_.find(name);
  if (it == texts_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> ToolArguments::number(std::string_view name) const {
  const auto it = numbers_.find(name);
  if (it == numbers_.end()) return std::nullopt;
  return it->second;
}

std::string pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

ToolArguments check_arguments(const ToolSpec& tool, const Json& args, const std::string& pointer_base) {
  static const Json kEmpty = Json::object();
  const Json& given = args.is_null() ? kEmpty : args;
  if (!given.is_object()) {
    throw RpcError(ErrorCode::InvalidParams,
                   fmt::format("tool {}: the parameters must be a JSON object, got {}", tool.name, given.type_name()),
                   pointer_base);
  }

  for (const auto& [key, value] : given.items()) {
    bool known = false;
    for (const ParamSpec& p : tool.params) known = known || p.name == key;
    if (!known) {
      throw RpcError(ErrorCode::InvalidParams,
                     fmt::format("tool {}: unknown parameter \"{}\" (accepted: {})", tool.name, shorten(key, 80),
                                 expected_names(tool)),
                     pointer_base + "/" + pointer_token(shorten(key, 80)));
    }
  }

  ToolArguments out;
  for (const ParamSpec& p : tool.params) {
    const std::string pointer = pointer_base + "/" + std::string(p.name);
    const auto it = given.find(std::string(p.name));
    if (it == given.end()) {
      if (p.required) refuse(tool, p.name, "is required but missing", pointer);
      continue;
    }
    const Json& value = *it;
    if (p.kind == ParamSpec::Kind::String) {
      if (!value.is_string()) refuse(tool, p.name, fmt::format("must be a string, got {}", value.type_name()), pointer);
      const auto& text = value.get_ref<const std::string&>();
      if (is_blank(text)) refuse(tool, p.name, "must not be empty or blank", pointer);
      const std::size_t chars = count_code_points(text);
      if (chars > p.max_chars) {
        refuse(tool, p.name, fmt::format("is {} characters long; the limit is {}", chars, p.max_chars), pointer);
      }
      if (p.single_line && has_control_character(text)) {
        refuse(tool, p.name, "must be a single line without control characters", pointer);
      }
      out.set_text(p.name, text);
    } else {
      if (!value.is_number()) refuse(tool, p.name, fmt::format("must be a number, got {}", value.type_name()), pointer);
      const double number = value.get<double>();
      if (!std::isfinite(number) || number < p.minimum || number > p.maximum) {
        refuse(tool, p.name,
               fmt::format("must be between {} and {}, got {}", format_number(p.minimum), format_number(p.maximum),
                           value.dump()),
               pointer);
      }
      out.set_number(p.name, number);
    }
  }
  return out;
}

}  // namespace clariad
