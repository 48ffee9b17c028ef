#include "harness/util/bounded_regex.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>
#include <unordered_map>

namespace mcpspec {

namespace {

// A pattern libstdc++ refuses is kept too, with what it threw: it gives up on a{1000000} only
// after building its 100 000-state limit (about 10 ms), and a $conformsTo "pattern" under
// $contains met that once per element (0.45 s for 45 strings, over 5 s under the sanitizers).
struct CacheEntry {
  std::shared_ptr<const CompiledRegex> compiled;
  std::exception_ptr refused;  // rethrown as it was (same type, same message)

  std::shared_ptr<const CompiledRegex> get() const {
    if (refused) std::rethrow_exception(refused);
    return compiled;
  }
};

std::mutex cache_mutex;
std::unordered_map<std::string, CacheEntry>& cache() {
  static std::unordered_map<std::string, CacheEntry> entries;
  return entries;
}

std::shared_ptr<const CompiledRegex> remember(const std::string& pattern, CacheEntry entry) {
  std::lock_guard<std::mutex> lock(cache_mutex);
  if (cache().size() >= kMaxCachedRegexes) cache().clear();
  return cache().emplace(pattern, std::move(entry)).first->second.get();
}

// A rough count of the automaton states `pattern` compiles to: atoms count one, a counted
// repetition multiplies what it repeats. Only needs to be right within a small factor.
std::size_t estimate_states(const std::string& p) {
  std::vector<std::size_t> groups{0};  // running size of each open group
  std::size_t last = 0;                // size of the atom or group just closed
  for (std::size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\') {
      ++i;
      last = 1;
      groups.back() += 1;
    } else if (c == '[') {
      // A class is one state; skip to its closing bracket (a leading ']' is literal).
      std::size_t j = i + 1;
      if (j < p.size() && p[j] == '^') ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') j += p[j] == '\\' ? 2 : 1;
      i = j;
      last = 1;
      groups.back() += 1;
    } else if (c == '(') {
      groups.push_back(1);
    } else if (c == ')') {
      if (groups.size() > 1) {
        last = groups.back() + 1;
        groups.pop_back();
        groups.back() += last;
      }
    } else if (c == '{') {
      std::size_t j = i + 1, lo = 0, hi = 0;
      bool digits = false, comma = false;
      for (; j < p.size() && (std::isdigit(static_cast<unsigned char>(p[j])) || p[j] == ','); ++j) {
        if (p[j] == ',') { comma = true; continue; }
        digits = true;
        std::size_t& n = comma ? hi : lo;
        n = std::min<std::size_t>(n * 10 + static_cast<std::size_t>(p[j] - '0'), 1000000);
      }
      if (digits && j < p.size() && p[j] == '}') {
        std::size_t times = std::max(lo, hi) + 1;
        groups.back() += last * times;
        last *= times;
        i = j;
      } else {
        last = 1;
        groups.back() += 1;
      }
    } else if (c == '*' || c == '+' || c == '?') {
      // One more state; `last` stays the repeated piece, because libstdc++ applies a quantifier
      // after another to the quantified piece: "(x|y)+{2001}" repeats the group 2001 times (found
      // by a libFuzzer campaign: counted as 2001 single states, it ran 1 s in a Release build).
      groups.back() += 1;
    } else {
      last = 1;
      groups.back() += 1;
    }
    if (groups.back() > 1000000) return 1000000;
  }
  std::size_t total = 0;
  for (auto g : groups) total += g;
  return total;
}

// A regex_error whose what() says why: the standard one can only name an error_type.
class PatternRefused : public std::regex_error {
 public:
  explicit PatternRefused(std::string why) : std::regex_error(std::regex_constants::error_complexity), text_(std::move(why)) {}
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  std::string text_;
};

// libstdc++ (GCC 12) reads a repetition count or a back-reference number into a long without
// checking for overflow, which is undefined behaviour: "\\22222222222222222222" (a libFuzzer
// campaign, UBSan). Such numbers are refused before compiling: at most 9 digits, which fit an int.
void check_numbers(const std::string& p) {
  constexpr std::size_t kMaxDigits = 9;
  auto digits_at = [&p](std::size_t i) {
    std::size_t j = i;
    while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
    return j - i;
  };
  auto refuse = [](std::size_t at, std::size_t n) {
    throw PatternRefused("the pattern holds a number of " + std::to_string(n) + " digits at offset " +
                         std::to_string(at) + " (a repetition count or a back-reference); at most " +
                         std::to_string(kMaxDigits) + " are supported");
  };
  bool in_class = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\') {
      if (std::size_t n = digits_at(i + 1); n > kMaxDigits) refuse(i + 1, n);
      ++i;
    } else if (in_class) {
      if (c == ']') in_class = false;
    } else if (c == '[') {
      in_class = true;
      if (i + 1 < p.size() && p[i + 1] == '^') ++i;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;  // a leading ']' is literal
    } else if (c == '{') {
      for (std::size_t j = i + 1; j < p.size() && (p[j] == ',' || std::isdigit(static_cast<unsigned char>(p[j])));) {
        if (p[j] == ',') { ++j; continue; }
        if (std::size_t n = digits_at(j); n > kMaxDigits) refuse(j, n); else j += n;
      }
    }
  }
}

}  // namespace

std::shared_ptr<const CompiledRegex> compiled_regex(const std::string& pattern) {
  if (pattern.size() > kMaxRegexPattern)
    throw PatternRefused("the pattern is " + std::to_string(pattern.size()) + " characters long; patterns are limited to " +
                         std::to_string(kMaxRegexPattern));
  check_numbers(pattern);
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto it = cache().find(pattern);
    if (it != cache().end()) return it->second.get();
  }
  // Compiled outside the lock: a slow pattern must not block other threads. Two threads may
  // compile the same pattern once each; the first one stored wins.
  const auto flags = std::regex::ECMAScript | std::regex_constants::__polynomial;
  try {
    std::regex alone(pattern, flags);  // the pattern must compile on its own, not just once wrapped
    (void)alone;
    auto compiled = std::make_shared<const CompiledRegex>(
        CompiledRegex{std::regex("[\\s\\S]*(?:" + pattern + ")[\\s\\S]*", flags), estimate_states(pattern)});
    return remember(pattern, {std::move(compiled), nullptr});
  } catch (const std::regex_error&) {
    return remember(pattern, {nullptr, std::current_exception()});
  }
}

void forget_compiled_regexes() {
  std::lock_guard<std::mutex> lock(cache_mutex);
  cache().clear();
}

std::size_t compiled_regex_count() {
  std::lock_guard<std::mutex> lock(cache_mutex);
  return cache().size();
}

RegexFind find_bounded(const std::string& pattern, const std::string& subject, RegexBudget* budget) {
  auto re = compiled_regex(pattern);
  const std::size_t work = re->states * std::max<std::size_t>(subject.size(), 1);
  if (work > kMaxRegexWork) return RegexFind::TooCostly;
  if (budget && !budget->spend(work)) return RegexFind::BudgetSpent;
  return std::regex_match(subject, re->finder) ? RegexFind::Found : RegexFind::NotFound;
}

}  // namespace mcpspec
