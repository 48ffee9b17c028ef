#pragma once
// Private to the matcher: how JSON values are compared and printed in mismatch lines.
// JSON has one number type, so every comparison here treats 1, 1u and 1.0 as the same value.
#include <nlohmann/json.hpp>

#include <compare>
#include <cstddef>
#include <string>

namespace mcpspec::scenario::detail {

// Deepest value the recursive helpers below descend into; deeper input is reported, never
// walked (a hostile peer can nest arrays far enough to exhaust the stack).
inline constexpr int kMaxValueDepth = 256;

// Numeric order of two JSON numbers (integers compared exactly, floats through long double).
// Unordered when either is NaN or not a number.
std::partial_ordering compare_numbers(const nlohmann::json& a, const nlohmann::json& b);

// Deep equality with numbers compared by value and object key order ignored.
// Values nested deeper than kMaxValueDepth compare unequal.
bool json_equal(const nlohmann::json& a, const nlohmann::json& b);

// Compact JSON for a mismatch line, cut after about `limit` characters (marked with "...").
// Never serialises more than it prints, so a multi-megabyte value costs nothing extra.
std::string show(const nlohmann::json& v, std::size_t limit = 200);

// One JSON Pointer reference token ("a/b" -> "a~1b", "x~y" -> "x~0y").
std::string escape_pointer_token(const std::string& token);

// How a pointer is printed at the start of a mismatch line: the root "" reads "(root)".
std::string pointer_label(const std::string& pointer);

// A string that is equal for exactly the values json_equal() calls equal (used to find
// duplicates in linear time). Throws std::length_error for values deeper than kMaxValueDepth.
std::string canonical_key(const nlohmann::json& v);

// "string", "integer", "number", ... as the $type operator names them (integral floats are
// reported as "number" here; $type "integer" accepts them separately).
const char* json_type_name(const nlohmann::json& v);

}  // namespace mcpspec::scenario::detail
