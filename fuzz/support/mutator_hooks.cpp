// libFuzzer's custom mutator hooks for the JSON targets: structure-aware changes most of the time,
// libFuzzer's own byte mutation for the rest (and whenever the input is not JSON), so the fuzzer
// still explores the parser's error paths.
// Built with MCPSPEC_FUZZ_SELECTOR_BYTE=1 for a target whose first byte is a choice
// (selector_byte.hpp): the byte is kept apart from the JSON after it, so the JSON mutator sees
// plain frames; one mutation in eight changes the byte instead.
#include "fuzz/support/json_mutator.hpp"
#include "fuzz/support/selector_byte.hpp"

#include <cstdint>
#include <cstring>

#ifndef MCPSPEC_FUZZ_SELECTOR_BYTE
#define MCPSPEC_FUZZ_SELECTOR_BYTE 0
#endif

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {
size_t store(const std::string& out, uint8_t* data, size_t max_size) {
  size_t n = out.size() < max_size ? out.size() : max_size;
  std::memcpy(data, out.data(), n);
  return n;
}

size_t mutate_json(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  // One call in four is plain byte mutation even for JSON: broken JSON is an input too.
  if (seed % 4 != 0) {
    mcpspec::fuzz::JsonMutator mutator(seed);
    auto out = mutator.mutate(std::string_view(reinterpret_cast<const char*>(data), size), max_size);
    if (out && !out->empty()) return store(*out, data, max_size);
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

size_t cross_over(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2, uint8_t* out,
                  size_t max_out_size, unsigned int seed) {
  mcpspec::fuzz::JsonMutator mutator(seed);
  auto merged = mutator.cross_over(std::string_view(reinterpret_cast<const char*>(data1), size1),
                                   std::string_view(reinterpret_cast<const char*>(data2), size2), max_out_size);
  if (merged && !merged->empty()) return store(*merged, out, max_out_size);
  // Not both JSON: splice the first half of one onto the second half of the other.
  size_t a = size1 / 2, b = size2 - size2 / 2;
  if (a > max_out_size) a = max_out_size;
  if (a + b > max_out_size) b = max_out_size - a;
  std::memcpy(out, data1, a);
  std::memcpy(out + a, data2 + size2 / 2, b);
  return a + b;
}
}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  if (!MCPSPEC_FUZZ_SELECTOR_BYTE) return mutate_json(data, size, max_size, seed);
  if (size == 0 || max_size < 2) return LLVMFuzzerMutate(data, size, max_size);
  if (seed % 8 == 7) {
    data[0] = static_cast<uint8_t>(seed >> 8);  // another choice, the same input
    return size;
  }
  return 1 + mutate_json(data + 1, size - 1, max_size - 1, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
  if (!MCPSPEC_FUZZ_SELECTOR_BYTE || size1 == 0 || size2 == 0 || max_out_size < 2)
    return cross_over(data1, size1, data2, size2, out, max_out_size, seed);
  out[0] = data1[0];  // the first parent's choice
  return 1 + cross_over(data1 + 1, size1 - 1, data2 + 1, size2 - 1, out + 1, max_out_size - 1, seed);
}
