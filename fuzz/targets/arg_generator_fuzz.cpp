// Fuzz target: tool arguments generated from an inputSchema. Input: a JSON schema (any value).
// generate_arguments() returns arguments or throws SubstitutionError, in every mode; it is
// deterministic, and "minimal"/"full" arguments are objects.
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
  json schema = json::parse(mcpspec::fuzz::as_text(data, size), nullptr, false);
  if (schema.is_discarded()) return 0;
  for (const char* mode : {"minimal", "full", "wrong-type", "missing-required"}) {
    json args;
    try {
      args = sc::generate_arguments(schema, mode);
    } catch (const sc::SubstitutionError& e) {
      MCPSPEC_FUZZ_CHECK(std::string(e.what()).size() > 0, "a generator error says what is wrong");
      continue;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "generate_arguments(%s) threw: %s\n", mode, e.what());
      MCPSPEC_FUZZ_CHECK(false, "generate_arguments() throws only SubstitutionError");
    }
    MCPSPEC_FUZZ_CHECK(args == sc::generate_arguments(schema, mode), "generation is deterministic");
    if (std::string(mode) == "minimal" || std::string(mode) == "full")
      MCPSPEC_FUZZ_CHECK(args.is_object() || schema.value("type", json()) != "object",
                         "arguments of an object schema are an object");
  }
  return 0;
}
