// LatencyHistogram against its definition (latency_histogram.hpp): buckets exact below 1024
// cycles and at most 1/64 of their value wide above; quantiles against a sorted list of the
// samples (brute force); merging equals adding every sample to one histogram.
#include "wormnet/stats/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace wormnet {
namespace {

TEST(LatencyHistogram, BucketsAreExactBelow1024AndNarrowAbove) {
  for (std::uint64_t v = 0; v < 1024; ++v) {
    EXPECT_EQ(LatencyHistogram::bucket(v), static_cast<int>(v));
    EXPECT_EQ(LatencyHistogram::lower_bound(static_cast<int>(v)), v);
  }
  // Every bucket above: its values are [lower_bound(b), lower_bound(b + 1)), a width of at
  // most 1/64 of its smallest value, and consecutive buckets leave no gap.
  for (int b = 1024; b + 1 < LatencyHistogram::kBuckets; ++b) {
    const std::uint64_t lo = LatencyHistogram::lower_bound(b);
    const std::uint64_t hi = LatencyHistogram::lower_bound(b + 1);
    ASSERT_LT(lo, hi) << b;
    EXPECT_LE(hi - lo, lo / 64) << b;
    EXPECT_EQ(LatencyHistogram::bucket(lo), b);
    EXPECT_EQ(LatencyHistogram::bucket(hi - 1), b);
  }
  // 2^40 and beyond share the last bucket.
  EXPECT_EQ(LatencyHistogram::bucket(std::uint64_t{1} << 40), LatencyHistogram::kBuckets - 1);
  EXPECT_EQ(LatencyHistogram::bucket(~std::uint64_t{0}), LatencyHistogram::kBuckets - 1);
}

TEST(LatencyHistogram, QuantilesMatchTheSortedSamples) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> latency(5.0, 1.5);  // a long tail across both ranges
  std::vector<std::uint64_t> samples;
  LatencyHistogram h;
  for (int i = 0; i < 5000; ++i) {
    const auto v = static_cast<std::uint64_t>(latency(rng));
    samples.push_back(v);
    h.add(v);
  }
  std::sort(samples.begin(), samples.end());
  for (double q : {0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(samples.size())));
    const std::uint64_t exact = samples[rank - 1];
    const std::uint64_t got = h.quantile(q);
    // The lower bound of the exact sample's bucket: the sample itself below 1024.
    EXPECT_EQ(got, LatencyHistogram::lower_bound(LatencyHistogram::bucket(exact))) << q;
    EXPECT_LE(got, exact);
    EXPECT_LE(exact - got, exact / 64) << q;
  }
  EXPECT_EQ(h.count(), samples.size());
  EXPECT_EQ(h.max(), samples.back());
  std::uint64_t sum = 0;
  for (std::uint64_t v : samples) sum += v;
  EXPECT_EQ(h.sum(), sum);
  EXPECT_DOUBLE_EQ(h.mean(), static_cast<double>(sum) / static_cast<double>(samples.size()));
}

TEST(LatencyHistogram, MergeEqualsOneHistogramOfEverySample) {
  LatencyHistogram a;
  LatencyHistogram b;
  LatencyHistogram all;
  for (std::uint64_t v : {3ULL, 900ULL, 1500ULL, 70000ULL}) {
    a.add(v);
    all.add(v);
  }
  for (std::uint64_t v : {3ULL, 2000ULL, 1ULL << 41}) {
    b.add(v);
    all.add(v);
  }
  a.merge(b);
  EXPECT_EQ(a.counts(), all.counts());
  EXPECT_EQ(a.count(), 7U);
  EXPECT_EQ(a.sum(), all.sum());
  EXPECT_EQ(a.max(), std::uint64_t{1} << 41);
  EXPECT_EQ(a.quantile(0.5), all.quantile(0.5));
  // An empty histogram answers 0 and merges as nothing.
  LatencyHistogram empty;
  EXPECT_EQ(empty.quantile(0.5), 0U);
  a.merge(empty);
  EXPECT_EQ(a.counts(), all.counts());
}

}  // namespace
}  // namespace wormnet
