// Counter-based random streams. Every source owns a stream keyed by (seed, node id), so the
// numbers a node draws never depend on how nodes are spread over ranks. The whole state of a
// stream is its key and its counter (16 bytes): trivial to checkpoint.
#pragma once

#include <cmath>
#include <cstdint>

namespace wormnet {

/// SplitMix64 finalizer: a bijective 64-bit mix with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Counter-based stream: draw i is mix64(key + i * golden gamma) (SplitMix64 with a keyed start).
class RandomStream {
 public:
  RandomStream() = default;
  /// A stream for (seed, stream id); distinct ids give statistically independent streams.
  RandomStream(std::uint64_t seed, std::uint64_t stream_id)
      : key_(mix64(mix64(seed ^ 0x6A09E667F3BCC909ULL) + stream_id * 0x9E3779B97F4A7C15ULL)) {}

  std::uint64_t next_u64() {
    ++counter_;
    return mix64(key_ + counter_ * 0x9E3779B97F4A7C15ULL);
  }
  /// Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [lo, hi] (inclusive, hi - lo < 2^32), by multiply-shift of 32 random
  /// bits (Lemire); the bias is below span / 2^32, negligible for node counts and lengths.
  std::uint64_t uniform_int(std::uint64_t lo, std::uint64_t hi) {
    const std::uint64_t span = hi - lo + 1;
    return lo + (((next_u64() >> 32) * span) >> 32);
  }
  /// Exponential with the given mean (> 0).
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }
  /// True with probability p.
  bool bernoulli(double p) { return uniform() < p; }

  [[nodiscard]] std::uint64_t key() const { return key_; }
  [[nodiscard]] std::uint64_t counter() const { return counter_; }
  /// Restores a stream saved with key() and counter() (checkpoints).
  static RandomStream restore(std::uint64_t key, std::uint64_t counter) {
    RandomStream s;
    s.key_ = key;
    s.counter_ = counter;
    return s;
  }

 private:
  std::uint64_t key_ = 0;
  std::uint64_t counter_ = 0;
};

}  // namespace wormnet
