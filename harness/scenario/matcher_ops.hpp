#pragma once
// Private to the matcher: what makes a matcher object an operator object, shared by the
// checker (matcher_check.cpp) and the evaluator (matcher.cpp).
#include <nlohmann/json.hpp>

#include <string>

namespace mcpspec::scenario::detail {

// Matchers nest at most this deep; deeper ones are rejected before anything recurses further.
inline constexpr int kMaxMatcherDepth = 256;

// Mismatch lines kept per match() call; a huge value that is wrong everywhere reports this many
// and a note that more were left out.
inline constexpr std::size_t kMaxMismatches = 20;

// Every operator the language knows, for the "unknown operator" message.
extern const char* const kKnownOperators;

inline bool is_operator_key(const std::string& key) { return !key.empty() && key[0] == '$'; }

// A non-empty object whose keys all start with '$'. Only meaningful after check_matcher() has
// rejected objects that mix both kinds of key.
bool is_operator_object(const nlohmann::json& m);

// check_matcher() with a choice: allow_placeholders accepts operator arguments that still hold a
// ${...} reference (the loader checks before substitution); match() checks without it.
void check_matcher_tree(const nlohmann::json& matcher, bool allow_placeholders);

// The JSON Pointer of `parent` extended by one member name or index.
std::string child_pointer(const std::string& parent, const std::string& token);
std::string child_pointer(const std::string& parent, std::size_t index);

}  // namespace mcpspec::scenario::detail
