#pragma once
// The matcher language of scenario files: a JSON value that describes the JSON values it accepts.
// Plain values match by subset (objects: every expected key must match, extra keys are allowed;
// arrays: same length, element by element; numbers: 1 == 1.0). Operators are objects whose only
// keys start with '$' (documented in docs/scenario-format.md).
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace mcpspec::scenario {

// A malformed matcher: a scenario bug, never a target failure. `pointer` locates it in the matcher.
class MatcherError : public std::runtime_error {
 public:
  MatcherError(std::string pointer, const std::string& what)
      : std::runtime_error(pointer + ": " + what), pointer_(std::move(pointer)) {}
  const std::string& pointer() const { return pointer_; }

 private:
  std::string pointer_;
};

struct MatchResult {
  bool ok = true;
  // One line per mismatch, "<pointer into the value>: <what was expected>, got <what was there>".
  std::vector<std::string> mismatches;
  // Values captured with {"$capture": "name"} (object: name -> value); only meaningful when ok.
  nlohmann::json captured = nlohmann::json::object();
};

// Longest string $regex looks at; longer input fails the match with a clear message instead of
// risking std::regex's recursion on the stack.
inline constexpr std::size_t kMaxRegexInput = 8192;

MatchResult match(const nlohmann::json& matcher, const nlohmann::json& value);

// Validates a matcher without a value (operators known, arguments of the right type, regexes
// compile). Throws MatcherError. The loader calls it for every matcher in every scenario.
void check_matcher(const nlohmann::json& matcher);

}  // namespace mcpspec::scenario
