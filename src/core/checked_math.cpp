#include "wormnet/core/checked_math.hpp"

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// "--warmup 5 + --measure 7" (or with " x "), for the refusal.
std::string spelled(std::initializer_list<UserNumber> terms, std::string_view op) {
  std::string s;
  for (const UserNumber& t : terms) {
    if (!s.empty()) s += op;
    s += std::string(t.option) + " " + std::to_string(t.value);
  }
  return s;
}

template <class Combine>
std::uint64_t checked_fold(std::initializer_list<UserNumber> terms, std::uint64_t limit,
                           std::string_view unit, std::uint64_t start, std::string_view op,
                           Combine combine) {
  std::optional<std::uint64_t> total = start;
  for (const UserNumber& t : terms) {
    if (total) total = combine(*total, t.value);
  }
  if (total && *total <= limit) return *total;
  const UserNumber& first = *terms.begin();
  throw InputError(
      std::string(first.option), std::to_string(first.value),
      spelled(terms, op) + " exceeds " + std::to_string(limit) + " " + std::string(unit));
}

}  // namespace

std::uint64_t checked_sum(std::initializer_list<UserNumber> terms, std::uint64_t limit,
                          std::string_view unit) {
  return checked_fold(terms, limit, unit, 0, " + ", checked_add);
}

std::uint64_t checked_product(std::initializer_list<UserNumber> factors, std::uint64_t limit,
                              std::string_view unit) {
  return checked_fold(factors, limit, unit, 1, " x ", checked_mul);
}

std::uint64_t at_most(std::string_view option, std::uint64_t value, std::uint64_t limit,
                      std::string_view unit) {
  if (value <= limit) return value;
  throw InputError(std::string(option), std::to_string(value),
                   "at most " + std::to_string(limit) + " " + std::string(unit));
}

}  // namespace wormnet
