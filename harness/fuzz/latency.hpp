#pragma once
// Response latencies in fixed logarithmic buckets: constant memory however long the campaign runs,
// percentiles accurate to a few percent.
#include <array>
#include <cmath>
#include <cstdint>

namespace mcpspec::fuzz {

class LatencyHistogram {
 public:
  void add(double us) {
    ++buckets_[index(us)];
    ++count_;
  }
  void merge(const LatencyHistogram& o) {
    for (std::size_t i = 0; i < kBuckets; ++i) buckets_[i] += o.buckets_[i];
    count_ += o.count_;
  }
  std::uint64_t count() const { return count_; }
  // Upper edge of the bucket holding the q-quantile (0 <= q <= 1), in microseconds; 0 when empty.
  double quantile_us(double q) const {
    if (count_ == 0) return 0;
    auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
    if (rank == 0) rank = 1;
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < kBuckets; ++i) {
      seen += buckets_[i];
      if (seen >= rank) return upper(i);
    }
    return upper(kBuckets - 1);
  }

 private:
  // 1 us .. ~100 s in steps of 2^(1/8) (about 9 %).
  static constexpr std::size_t kBuckets = 220;
  static std::size_t index(double us) {
    if (!(us > 1)) return 0;
    auto i = static_cast<std::size_t>(std::log2(us) * 8) + 1;
    return i < kBuckets ? i : kBuckets - 1;
  }
  static double upper(std::size_t i) { return i == 0 ? 1 : std::exp2(static_cast<double>(i) / 8); }
  std::array<std::uint64_t, kBuckets> buckets_{};
  std::uint64_t count_ = 0;
};

}  // namespace mcpspec::fuzz
