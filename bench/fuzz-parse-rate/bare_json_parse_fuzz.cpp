// The yardstick for message_parser_fuzz: nothing but nlohmann's parse of the input, built with the
// same instrumentation and engine, so that run.sh can say what share of a bare parse's speed the
// real target keeps.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto value = nlohmann::json::parse(data, data + size, nullptr, false);
  return value.is_discarded() ? 0 : 0;
}
