#pragma once
// What every fuzz target shares: the libFuzzer entry point and the invariant check. A violated
// invariant aborts with a message on stderr, which libFuzzer reports as a crash and saves the input
// for; the regression runner fails the same way.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "harness/util/bounded_regex.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define MCPSPEC_FUZZ_CHECK(cond, what)                                                            \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      std::fprintf(stderr, "fuzz invariant violated at %s:%d: %s (%s)\n", __FILE__, __LINE__, what, \
                   #cond);                                                                        \
      std::abort();                                                                               \
    }                                                                                             \
  } while (0)

namespace mcpspec::fuzz {
inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}
// Called first by a target whose code keeps state between calls: empties that state (the
// compiled-regex cache), so what an input covers depends on that input alone, as libFuzzer
// assumes, and not on which inputs ran before (see forget_compiled_regexes).
inline void forget_earlier_inputs() { mcpspec::forget_compiled_regexes(); }
// A cheap deterministic hash of the input, for choices that must not consume input bytes (so the
// corpus stays plain JSON that the custom mutator can parse).
inline std::uint64_t input_hash(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}
}  // namespace mcpspec::fuzz
