#pragma once
// Regexes from outside (scenario $regex patterns, JSON Schema "pattern" keywords from servers) run in
// bounded time and stack: compiled once, shared by every thread.
#include <memory>
#include <regex>
#include <string>

namespace mcpspec {

// A $regex pattern ready to run in bounded time. libstdc++'s default (backtracking) executor takes
// exponential time on patterns like (a+)+$: 28 characters kept it busy for over a minute (found
// by fuzz/targets/matcher_fuzz.cpp). So patterns run on its breadth-first executor
// (regex_constants::__polynomial, which refuses back-references), and as one pass of
// regex_match over "[\s\S]*(?:pattern)[\s\S]*" rather than regex_search, which would restart at
// every position. The cost is then about states x subject length, checked before each match.
struct CompiledRegex {
  std::regex finder;       // use with std::regex_match: true when `pattern` occurs anywhere
  std::size_t states = 0;  // rough size of the automaton (counted repetitions multiply)
};

// Upper bound of states x subject length for one $regex evaluation; the cost is linear in it.
// {"$regex": "a{1000}"} on 8 300 characters (8.3 million) takes 0.12 s of CPU in a Release build,
// so 2^24 costs about 0.25 s. 2^20 refused real suite checks such as a {50} repetition over a
// 60-spec listing, and 2^22 still refused that one at about 5 million.
// The ASan + UBSan + coverage fuzz build (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, the OSS-Fuzz
// convention) runs the same check 55 to 150 times slower (0.8 to 2 us per unit of work, more
// when the machine's cores are shared): 6.6 s for that case, over the 5 s of CPU the matcher
// target allows one input and close to libFuzzer's 10 s timeout. There 2^19 is allowed, per
// evaluation and per check (about 1 s at 2 us a unit, room for noise under the 5 s); the logic
// fuzzed is the same. 2^22 let {"$contains": {"$regex": "a{1000}"}} over strings of 1 769 and
// 2 399 characters (4.17 million) take 5.1 s (a libFuzzer campaign, round 10).
// kMaxRegexWorkShared bounds the sum over the evaluations of one check (a matcher with $each over
// ten thousand strings, a schema "pattern" under "items"): each may stay under kMaxRegexWork, and
// the server chooses how many there are.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr std::size_t kMaxRegexWork = std::size_t{1} << 19;
inline constexpr std::size_t kMaxRegexWorkShared = std::size_t{1} << 19;
#else
inline constexpr std::size_t kMaxRegexWork = std::size_t{1} << 24;
inline constexpr std::size_t kMaxRegexWorkShared = std::size_t{1} << 26;
#endif

// Regex work left to one check (one match(), one schema validation); not shared across threads.
class RegexBudget {
 public:
  explicit RegexBudget(std::size_t work = kMaxRegexWorkShared) : left_(work) {}
  // Takes `work` from what is left; false (and nothing taken) when not enough is left.
  bool spend(std::size_t work) {
    if (work > left_) return false;
    left_ -= work;
    return true;
  }

 private:
  std::size_t left_;
};

// Longest pattern compiled. libstdc++'s regex compiler recurses once per term, so a long enough
// pattern overflows the stack: 17 390 plain characters did under the sanitizers (found by a
// libFuzzer campaign), 100 000 in an optimized build.
inline constexpr std::size_t kMaxRegexPattern = 2000;

// Patterns come from scenario files and server schemas, so a handful are in use at once; the cap
// only guards against substituted patterns that differ on every run. A full cache is emptied.
inline constexpr std::size_t kMaxCachedRegexes = 1024;

// The compiled form of `pattern`, compiled on first use and kept for later calls.
// Throws std::regex_error, with a what() that says why, when the pattern does not compile, uses a
// back-reference, is longer than kMaxRegexPattern or holds a repetition count or back-reference
// number of more than 9 digits (libstdc++ overflows reading it). A pattern libstdc++ refuses is
// kept with its exception and refused the same way again; the length and digit checks are redone.
// Safe to call from several threads; the returned value is immutable and stays valid even if the
// cache is later emptied.
std::shared_ptr<const CompiledRegex> compiled_regex(const std::string& pattern);

// Empties the cache of compiled patterns (and refusals); values already returned stay valid.
// For fuzz targets: with the cache kept from one input to the next, whether a pattern is compiled
// or found, and when the full cache is emptied, depends on the inputs run before, so an input's
// coverage would not be its own (a long campaign kept finding "new" edges in the emptying).
void forget_compiled_regexes();

// How many patterns (compiled or refused) the cache holds now.
std::size_t compiled_regex_count();

// TooCostly: this one evaluation would pass kMaxRegexWork. BudgetSpent: it would pass what the
// budget has left.
enum class RegexFind { Found, NotFound, TooCostly, BudgetSpent };

// Whether `pattern` occurs anywhere in `subject`, unless states x length exceeds kMaxRegexWork or
// what `budget` (when given) has left; the work is then taken from `budget`.
// Throws std::regex_error as compiled_regex does, and when libstdc++ gives up (error_complexity).
RegexFind find_bounded(const std::string& pattern, const std::string& subject, RegexBudget* budget = nullptr);

}  // namespace mcpspec
