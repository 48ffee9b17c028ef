#pragma once
// The fuzzer's random source. Our own generator and range reduction (not std::*_distribution,
// whose output differs between standard libraries), so a --seed gives the same messages anywhere.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mcpspec::fuzz {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed ^ 0x9E3779B97F4A7C15ULL) {}

  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n); n == 0 gives 0.
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
  // Uniform in [lo, hi].
  long long between(long long lo, long long hi) {
    return lo + static_cast<long long>(below(static_cast<std::size_t>(hi - lo) + 1));
  }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

 private:
  std::uint64_t state_;
};

}  // namespace mcpspec::fuzz
