// Latency histogram with bounded relative error: exact 1-cycle buckets below 1024 cycles,
// then 64 buckets per power of two (bucket width <= 1/64 of its value, 1.6%). Counts are
// integers, so histograms from different ranks merge exactly and deterministically.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace wormnet {

class LatencyHistogram {
 public:
  static constexpr int kExact = 1024;
  static constexpr int kSubBuckets = 64;
  static constexpr int kBuckets = kExact + (40 - 10) * kSubBuckets;  // values < 2^40

  LatencyHistogram() : counts_(kBuckets, 0) {}

  static int bucket(std::uint64_t v) {
    if (v < kExact) return static_cast<int>(v);
    const int e = 63 - std::countl_zero(v);  // floor(log2 v) >= 10
    if (e >= 40) return kBuckets - 1;
    const auto sub = static_cast<int>((v >> (e - 6)) & (kSubBuckets - 1));
    return kExact + (e - 10) * kSubBuckets + sub;
  }
  /// Smallest value that falls in bucket b.
  static std::uint64_t lower_bound(int b) {
    if (b < kExact) return static_cast<std::uint64_t>(b);
    const int e = 10 + (b - kExact) / kSubBuckets;
    const auto sub = static_cast<std::uint64_t>((b - kExact) % kSubBuckets);
    return (kSubBuckets + sub) << (e - 6);
  }

  void add(std::uint64_t v) {
    ++counts_[static_cast<std::size_t>(bucket(v))];
    ++count_;
    sum_ += v;
    if (v > max_) max_ = v;
  }
  void merge(const LatencyHistogram& o) {
    for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
    count_ += o.count_;
    sum_ += o.sum_;
    if (o.max_ > max_) max_ = o.max_;
  }
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] std::uint64_t sum() const { return sum_; }
  [[nodiscard]] std::uint64_t max() const { return max_; }
  [[nodiscard]] double mean() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0;
  }
  /// Value at quantile q in [0, 1]: the lower bound of the bucket holding the ceil(q*count)-th
  /// smallest sample (exact below 1024 cycles).
  [[nodiscard]] std::uint64_t quantile(double q) const;
  [[nodiscard]] const std::vector<std::uint64_t>& counts() const { return counts_; }
  std::vector<std::uint64_t>& mutable_counts() { return counts_; }
  /// Restores the scalar fields (after counts were summed across ranks, or loaded).
  void set_totals(std::uint64_t count, std::uint64_t sum, std::uint64_t max) {
    count_ = count;
    sum_ = sum;
    max_ = max;
  }

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  std::uint64_t sum_ = 0;
  std::uint64_t max_ = 0;
};

}  // namespace wormnet
