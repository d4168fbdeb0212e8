// An order-independent sum of non-negative doubles, for channel loads added up over many
// destinations and over ranks. Each term is cut to a multiple of 2^-63 (exact for every term
// of 2^-10 or more, and for every integer below 2^63) and added in 128-bit fixed point, so the
// total is the same whatever order and grouping the terms come in: the loads are identical on
// any number of ranks, and integer loads (deterministic routings) are exact.
#pragma once

#include <cstdint>
#include <span>

namespace wormnet {

class ExactSum {
 public:
  /// Adds x (finite, 0 <= x < 2^63).
  void add(double x) {
    // Signed conversions: one instruction each, where unsigned ones branch. x - whole is
    // exact, and so is scaling by 2^63; the cast cuts below 2^-63, the shift makes units of
    // 2^-64.
    const auto whole = static_cast<std::int64_t>(x);
    const auto frac = static_cast<std::int64_t>((x - static_cast<double>(whole)) * 0x1p63);
    add_fixed(static_cast<std::uint64_t>(whole), static_cast<std::uint64_t>(frac) << 1);
  }
  void add(const ExactSum& o) { add_fixed(o.whole_, o.frac_); }
  /// This sum times k (k < 2^32, and small enough that the integer part stays below 2^64).
  [[nodiscard]] ExactSum times(std::uint32_t k) const {
    // frac * k in two 32-bit halves; what passes 2^64 carries into the integer part.
    const std::uint64_t lo = (frac_ & 0xFFFFFFFFU) * k;
    const std::uint64_t hi = (frac_ >> 32) * k;
    ExactSum r;
    r.frac_ = (hi << 32) + lo;
    r.whole_ = whole_ * k + (hi >> 32) + (r.frac_ < lo ? 1U : 0U);
    return r;
  }
  [[nodiscard]] double value() const {
    return static_cast<double>(whole_) + static_cast<double>(frac_) * 0x1p-64;
  }
  /// The sum as a long double: exact for integers below 2^64.
  [[nodiscard]] long double long_value() const {
    return static_cast<long double>(whole_) + static_cast<long double>(frac_) * 0x1p-64L;
  }
  [[nodiscard]] bool operator==(const ExactSum&) const = default;

  /// Limbs for an element-wise integer sum over processes: four 32-bit digits, each in its own
  /// 64-bit word, so that up to 2^32 partial sums add without overflow; from_limbs() carries.
  static constexpr int kLimbs = 4;
  void to_limbs(std::span<std::uint64_t, kLimbs> out) const {
    out[0] = frac_ & 0xFFFFFFFFU;
    out[1] = frac_ >> 32;
    out[2] = whole_ & 0xFFFFFFFFU;
    out[3] = whole_ >> 32;
  }
  static ExactSum from_limbs(std::span<const std::uint64_t, kLimbs> in) {
    ExactSum r;
    std::uint64_t carry = 0;
    std::uint64_t digit[kLimbs];
    for (int i = 0; i < kLimbs; ++i) {
      const std::uint64_t v = in[static_cast<std::size_t>(i)] + carry;
      digit[i] = v & 0xFFFFFFFFU;
      carry = v >> 32;
    }
    r.frac_ = digit[0] | (digit[1] << 32);
    r.whole_ = digit[2] | (digit[3] << 32);
    return r;
  }

 private:
  void add_fixed(std::uint64_t whole, std::uint64_t frac) {
    const std::uint64_t f = frac_ + frac;
    whole_ += whole + (f < frac_ ? 1U : 0U);
    frac_ = f;
  }

  std::uint64_t whole_ = 0;  ///< integer part
  std::uint64_t frac_ = 0;   ///< fraction, in units of 2^-64
};

}  // namespace wormnet
