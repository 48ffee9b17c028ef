// Fuzz target: ${...} substitution. Input: a JSON array [value, vars]. substitute() returns a value
// or throws SubstitutionError naming the path; nothing else escapes, and a value without any "${"
// or $generate comes back unchanged.
#include "fuzz/support/fuzz_target.hpp"

#include "harness/protocol/json_depth.hpp"
#include "harness/scenario/substitute.hpp"

#include <nlohmann/json.hpp>

using nlohmann::json;
namespace sc = mcpspec::scenario;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Values reach this code from frames that passed the session's depth gate or from scenario
  // files (the scenario_loader target covers those); deeper ones would only test nlohmann's
  // recursion in this target's own checks.
  if (mcpspec::protocol::json_nests_deeper_than(mcpspec::fuzz::as_text(data, size))) return 0;
  json pair = json::parse(mcpspec::fuzz::as_text(data, size), nullptr, false);
  if (pair.is_discarded() || !pair.is_array() || pair.size() != 2) return 0;
  const json& value = pair[0];
  const json vars = pair[1].is_object() ? pair[1] : json{{"v", pair[1]}};
  json out;
  try {
    out = sc::substitute(value, vars);
  } catch (const sc::SubstitutionError& e) {
    MCPSPEC_FUZZ_CHECK(std::string(e.what()).size() > 0, "a substitution error says what is wrong");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "substitute() threw: %s\n", e.what());
    MCPSPEC_FUZZ_CHECK(false, "substitute() throws only SubstitutionError");
  }
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.find("${") == std::string::npos && text.find("$generate") == std::string::npos &&
      text.find("$${") == std::string::npos)
    MCPSPEC_FUZZ_CHECK(out == value, "a value without references comes back unchanged");
  return 0;
}
