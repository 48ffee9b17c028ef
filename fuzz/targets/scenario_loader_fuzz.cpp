// Fuzz target: a scenario document as a user (or a generator) might write it. It must load or be
// rejected with clean errors ("file: /pointer: what"); nothing may throw out of the loader, and
// the matchers it accepted must then evaluate without throwing.
#include "fuzz/support/fuzz_target.hpp"

#include "harness/scenario/loader.hpp"
#include "harness/scenario/matcher.hpp"

#include <nlohmann/json.hpp>

#include <string>

using mcpspec::scenario::LoadOutcome;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(mcpspec::fuzz::as_text(data, size));
  mcpspec::fuzz::forget_earlier_inputs();
  LoadOutcome out;
  try {
    out = mcpspec::scenario::load_scenario_text(text, "fuzz.json");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "load_scenario_text threw: %s\n", e.what());
    MCPSPEC_FUZZ_CHECK(false, "the loader reports errors, it does not throw");
  }
  for (const auto& err : out.errors) {
    MCPSPEC_FUZZ_CHECK(!err.message.empty(), "every load error says what is wrong");
    MCPSPEC_FUZZ_CHECK(err.file == "fuzz.json", "every load error names the file");
    MCPSPEC_FUZZ_CHECK(err.text().find(err.message) != std::string::npos, "the error text carries the message");
  }
  MCPSPEC_FUZZ_CHECK(out.errors.empty() != out.scenarios.empty(), "a document either loads or is rejected");
  if (!out.errors.empty()) return 0;
  // The matchers of an accepted scenario passed check_matcher; matching them against the raw
  // document (any JSON value will do) must only produce a match, mismatches or an undecided answer.
  auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("steps") || !doc["steps"].is_array()) return 0;
  for (const auto& step : doc["steps"]) {
    for (const auto& ptr : mcpspec::scenario::matcher_pointers(step)) {
      const auto& matcher = step.at(nlohmann::json::json_pointer(ptr));
      try {
        auto r = mcpspec::scenario::match(matcher, doc);
        MCPSPEC_FUZZ_CHECK(r.ok == (r.mismatches.empty() && r.undecided.empty()),
                           "ok exactly when nothing mismatched and nothing is undecided");
        MCPSPEC_FUZZ_CHECK(r.mismatches.empty() || r.undecided.empty(), "a mismatch decides");
      } catch (const mcpspec::scenario::MatcherError&) {
        // A matcher holding ${...} placeholders passes the loader and is only complete after
        // substitution; evaluating it raw may be refused, cleanly.
      }
    }
  }
  return 0;
}
