#include "tool_args.hpp"

#include "tool_error.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace chant {

namespace {

[[noreturn]] void wrong_type(const char* name, const char* expected, const mcpref::Json& got) {
  throw ToolError(fmt::format("Invalid parameter '{}': expected {}, got {}", name, expected,
                              got.type_name()));
}

}  // namespace

const mcpref::Json* ToolArgs::find(const char* name) const {
  if (!args_.is_object()) return nullptr;
  auto it = args_.find(name);
  if (it == args_.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string ToolArgs::required_string(const char* name) const {
  const mcpref::Json* v = find(name);
  if (!v) throw ToolError(fmt::format("Missing required parameter: {}", name));
  if (!v->is_string()) wrong_type(name, "a string", *v);
  return v->get<std::string>();
}

std::optional<std::string> ToolArgs::optional_string(const char* name) const {
  const mcpref::Json* v = find(name);
  if (!v) return std::nullopt;
  if (!v->is_string()) wrong_type(name, "a string", *v);
  return v->get<std::string>();
}

bool ToolArgs::optional_bool(const char* name, bool fallback) const {
  const mcpref::Json* v = find(name);
  if (!v) return fallback;
  if (!v->is_boolean()) wrong_type(name, "a boolean", *v);
  return v->get<bool>();
}

std::size_t ToolArgs::optional_count(const char* name, std::size_t fallback) const {
  const mcpref::Json* v = find(name);
  if (!v) return fallback;
  if (v->is_number_unsigned()) return v->get<std::size_t>();
  if (v->is_number_integer()) {
    long long n = v->get<long long>();
    if (n >= 0) return static_cast<std::size_t>(n);
    throw ToolError(fmt::format("Invalid parameter '{}': must be 0 or more, got {}", name, n));
  }
  if (v->is_number_float()) {
    double d = v->get<double>();
    if (std::isfinite(d) && d >= 0 && std::floor(d) == d &&
        d <= static_cast<double>(std::numeric_limits<std::size_t>::max() / 2)) {
      return static_cast<std::size_t>(d);
    }
    throw ToolError(fmt::format("Invalid parameter '{}': expected a non-negative integer, got {}",
                                name, v->dump()));
  }
  wrong_type(name, "a non-negative integer", *v);
}

}  // namespace chant
