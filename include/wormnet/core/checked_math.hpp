// Sums and products of numbers the user gave (cycle counts, sizes), checked: a result that
// does not fit, or exceeds the limit a caller sets, is an InputError naming every option
// involved, never a silent wrap-around (--warmup 2^64 - 1 --measure 1 once ran 128 cycles).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace wormnet {

/// a + b, or nullopt when it does not fit in 64 bits.
[[nodiscard]] constexpr std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  if (a > UINT64_MAX - b) return std::nullopt;
  return a + b;
}

/// a x b, or nullopt when it does not fit in 64 bits.
[[nodiscard]] constexpr std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return std::nullopt;
  return a * b;
}

/// One user number in a checked sum or product: the option that gave it and its value.
struct UserNumber {
  std::string_view option;
  std::uint64_t value;
};

/// The sum of `terms` when it is at most `limit`; otherwise InputError naming the first
/// term's option and value, every term ("--warmup 5 + --measure 7 ...") and the limit with
/// its `unit` ("cycles").
std::uint64_t checked_sum(std::initializer_list<UserNumber> terms, std::uint64_t limit,
                          std::string_view unit);

/// The product of `factors` when it is at most `limit`; otherwise InputError as checked_sum.
std::uint64_t checked_product(std::initializer_list<UserNumber> factors, std::uint64_t limit,
                              std::string_view unit);

/// `value` when it is at most `limit`; otherwise InputError naming `option`, the value (as
/// an unsigned number, never as -1) and the limit with its `unit`.
std::uint64_t at_most(std::string_view option, std::uint64_t value, std::uint64_t limit,
                      std::string_view unit);

}  // namespace wormnet
