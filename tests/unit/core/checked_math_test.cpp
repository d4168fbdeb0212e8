// Checked sums and products of user numbers: exact at the 64-bit edge, refused beyond it or
// beyond the caller's limit, with a message naming every option (hand-worked values).
#include "wormnet/core/checked_math.hpp"

#include <gtest/gtest.h>

#include "wormnet/core/error.hpp"

namespace wormnet {
namespace {

TEST(CheckedMath, AddAndMultiplyAtTheEdge) {
  EXPECT_EQ(checked_add(UINT64_MAX - 1, 1), UINT64_MAX);
  EXPECT_FALSE(checked_add(UINT64_MAX, 1));
  EXPECT_FALSE(checked_add(1ULL << 63, 1ULL << 63));
  EXPECT_EQ(checked_mul(1ULL << 32, (1ULL << 32) - 1), UINT64_MAX - ((1ULL << 32) - 1));
  EXPECT_FALSE(checked_mul(1ULL << 32, 1ULL << 32));
  EXPECT_EQ(checked_mul(0, UINT64_MAX), 0U);
  EXPECT_EQ(checked_mul(UINT64_MAX, 1), UINT64_MAX);
}

TEST(CheckedMath, SumWithinTheLimit) {
  EXPECT_EQ(checked_sum({{"--warmup", 2000}, {"--measure", 10000}}, 12000, "cycles"), 12000U);
  EXPECT_EQ(checked_product({{"--a", 3}, {"--b", 7}}, 21, "x"), 21U);
}

TEST(CheckedMath, WrapAroundIsRefusedNamingEveryOption) {
  // 2^64 - 1 + 1 wraps to 0 in plain arithmetic (the --warmup/--measure bug).
  try {
    checked_sum({{"--warmup", UINT64_MAX}, {"--measure", 1}}, UINT64_MAX, "cycles");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--warmup");
    EXPECT_EQ(e.value(), "18446744073709551615");
    EXPECT_NE(e.allowed().find("--measure 1"), std::string::npos) << e.what();
    EXPECT_NE(e.allowed().find("cycles"), std::string::npos) << e.what();
  }
  EXPECT_THROW(checked_sum({{"--a", 5}, {"--b", 6}}, 10, "cycles"), InputError);
  EXPECT_THROW(checked_product({{"--a", 1ULL << 40}, {"--b", 1ULL << 40}}, UINT64_MAX, "x"),
               InputError);
}

TEST(CheckedMath, AtMostShowsTheUnsignedValue) {
  try {
    at_most("--measure", UINT64_MAX, 1ULL << 62, "cycles");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--measure '18446744073709551615': at most 4611686018427387904 cycles");
  }
  EXPECT_EQ(at_most("--x", 5, 5, "u"), 5U);
}

}  // namespace
}  // namespace wormnet
