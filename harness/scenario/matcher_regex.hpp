#pragma once
// Private to the matcher: compiled $regex patterns, shared by every thread that runs matchers.
#include <memory>
#include <regex>
#include <string>

namespace mcpspec::scenario::detail {

// The ECMAScript regex for `pattern`, compiled on first use and kept for later calls.
// Throws std::regex_error when the pattern does not compile (failures are not cached).
// Safe to call from several threads; the returned regex is immutable and stays valid even if
// the cache is later emptied.
std::shared_ptr<const std::regex> compiled_regex(const std::string& pattern);

}  // namespace mcpspec::scenario::detail
