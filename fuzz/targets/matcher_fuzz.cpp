// Fuzz target: the matcher language over fuzzed (matcher, value) pairs. Input: a JSON array
// [matcher, value]. check_matcher() accepts or throws MatcherError; a checked matcher matches or
// mismatches (or is undecided on) any value without throwing (unless it still holds a ${...}
// placeholder), and $regex stays bounded in time (kMaxRegexWork; watched here).
#include "fuzz/support/fuzz_target.hpp"

#include "harness/protocol/json_depth.hpp"
#include "harness/scenario/matcher.hpp"

#include <nlohmann/json.hpp>

#include <ctime>

using nlohmann::json;
namespace sc = mcpspec::scenario;

namespace {
// A matcher evaluation far slower than this is a hang. The $regex work bound (kMaxRegexWork) lets
// one evaluation cost what takes ~35 ms in an optimized build ({"$regex":"a{1000}"} on 2 400
// characters) but over a second in the sanitizer build (1 s here failed that case in a campaign);
// the exponential cases this catches take minutes. CPU time of this thread, not wall time: on a
// loaded machine (campaigns beside a build) that case took 7.7 s of wall time for 2 s of CPU.
constexpr double kMatchBudgetSeconds = 5.0;

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mcpspec::fuzz::forget_earlier_inputs();
  // Values reach this code from frames that passed the session's depth gate or from scenario
  // files (the scenario_loader target covers those); deeper ones would only test nlohmann's
  // recursion in this target's own checks.
  if (mcpspec::protocol::json_nests_deeper_than(mcpspec::fuzz::as_text(data, size))) return 0;
  json pair = json::parse(mcpspec::fuzz::as_text(data, size), nullptr, false);
  if (pair.is_discarded() || !pair.is_array() || pair.size() != 2) return 0;
  const json& matcher = pair[0];
  const json& value = pair[1];
  try {
    sc::check_matcher(matcher);
  } catch (const sc::MatcherError& e) {
    MCPSPEC_FUZZ_CHECK(std::string(e.what()).size() > e.pointer().size(), "a matcher error says what is wrong");
    return 0;
  }
  const double t0 = thread_cpu_seconds();
  sc::MatchResult r;
  try {
    r = sc::match(matcher, value);
  } catch (const sc::MatcherError& e) {
    // check_matcher() accepts ${...} placeholders in operator arguments (the loader checks before
    // substitution); match() refuses one that was never substituted. Nothing else may throw.
    MCPSPEC_FUZZ_CHECK(matcher.dump(-1, ' ', false, json::error_handler_t::replace).find("${") != std::string::npos,
                       "match() throws MatcherError only for an unsubstituted placeholder");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "match() threw: %s\n", e.what());
    MCPSPEC_FUZZ_CHECK(false, "a checked matcher never throws while matching");
  }
  const double secs = thread_cpu_seconds() - t0;
  MCPSPEC_FUZZ_CHECK(secs < kMatchBudgetSeconds, "matching stays bounded in time");
  MCPSPEC_FUZZ_CHECK(r.ok == (r.mismatches.empty() && r.undecided.empty()),
                     "ok exactly when nothing mismatched and nothing is undecided");
  MCPSPEC_FUZZ_CHECK(r.mismatches.empty() || r.undecided.empty(), "a mismatch decides: nothing is left undecided");
  MCPSPEC_FUZZ_CHECK(r.mismatches.size() <= 64 && r.undecided.size() <= 64, "mismatch and undecided lists are capped");
  MCPSPEC_FUZZ_CHECK(r.captured.is_object(), "captures are an object");
  // A plain value (no operators anywhere) matches itself.
  if (matcher.dump().find("\"$") == std::string::npos) {
    auto self = sc::match(matcher, matcher);
    MCPSPEC_FUZZ_CHECK(self.ok, "a plain value matches itself");
  }
  return 0;
}
