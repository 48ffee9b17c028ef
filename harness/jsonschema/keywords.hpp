#pragma once
// JSON Schema keyword groups shared by the code that walks schemas (the dialect rewrite of
// --schema files and the guard in front of valijson), so both agree on what a keyword holds.
#include <algorithm>
#include <array>
#include <string_view>

namespace mcpspec::schema_keywords {

// Keywords whose value maps names to schemas (a property may be *named* like a keyword).
inline constexpr std::array kSchemaMaps = {"properties", "patternProperties", "definitions", "$defs", "dependencies"};

// Formats valijson checks with std::regex (stack-hungry on long input).
inline constexpr std::array kRegexFormats = {"date", "time", "date-time"};

template <typename Array>
bool contains(const Array& names, std::string_view key) {
  return std::find(names.begin(), names.end(), key) != names.end();
}

}  // namespace mcpspec::schema_keywords
