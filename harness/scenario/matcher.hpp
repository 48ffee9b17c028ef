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
  // The message shows control characters as \u00XX: what() is read as a C string, and a key such
  // as "$\u0000" used to cut it short (found by fuzz/targets/matcher_fuzz.cpp).
  MatcherError(std::string pointer, const std::string& what)
      : std::runtime_error(visible(pointer + ": " + what)), pointer_(std::move(pointer)) {}
  const std::string& pointer() const { return pointer_; }

 private:
  static std::string visible(const std::string& s) {
    static const char* const kHex = "0123456789abcdef";
    std::string out;
    for (char c : s) {
      auto u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u != 0x7f) {
        out += c;
      } else {
        out += "\\u00";
        out += kHex[u >> 4];
        out += kHex[u & 15];
      }
    }
    return out;
  }
  std::string pointer_;
};

struct MatchResult {
  // True only when the value matches: no mismatch and nothing left undecided.
  bool ok = true;
  // One line per mismatch, "<pointer into the value>: <what was expected>, got <what was there>".
  std::vector<std::string> mismatches;
  // Set only when there is no mismatch: the checks mcpspec could not make, one line each with the
  // reason ("/result/text: $regex \"x\" is too costly on a string of ..."). The value may or may
  // not match; a runner reports ERROR ("cannot check"), never PASS or FAIL.
  std::vector<std::string> undecided;
  // Values captured with {"$capture": "name"} (object: name -> value); only meaningful when ok.
  nlohmann::json captured = nlohmann::json::object();
};

MatchResult match(const nlohmann::json& matcher, const nlohmann::json& value);

// Validates a matcher without a value (operators known, arguments of the right type, regexes
// compile). Throws MatcherError. The loader calls it for every matcher in every scenario.
void check_matcher(const nlohmann::json& matcher);

}  // namespace mcpspec::scenario
