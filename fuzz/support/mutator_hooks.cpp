// libFuzzer's custom mutator hooks for the JSON targets: structure-aware changes most of the time,
// libFuzzer's own byte mutation for the rest (and whenever the input is not JSON), so the fuzzer
// still explores the parser's error paths.
#include "fuzz/support/json_mutator.hpp"

#include <cstdint>
#include <cstring>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {
size_t store(const std::string& out, uint8_t* data, size_t max_size) {
  size_t n = out.size() < max_size ? out.size() : max_size;
  std::memcpy(data, out.data(), n);
  return n;
}
}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  // One call in four is plain byte mutation even for JSON: broken JSON is an input too.
  if (seed % 4 != 0) {
    mcpspec::fuzz::JsonMutator mutator(seed);
    auto out = mutator.mutate(std::string_view(reinterpret_cast<const char*>(data), size), max_size);
    if (out && !out->empty()) return store(*out, data, max_size);
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
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
