// The deadlock detector's per-VC wait stamps, across the 32-bit wrap of the stored cycle.
#include "wormnet/router/wait_stamps.hpp"

#include <gtest/gtest.h>

namespace wormnet {
namespace {

TEST(WaitStamps, AVcIsStuckExactlyThresholdCyclesAfterItsLastMove) {
  WaitStamps w(3);
  w.mark(1, 100);
  EXPECT_FALSE(w.stuck(1, 119, 20));
  EXPECT_TRUE(w.stuck(1, 120, 20));
  EXPECT_TRUE(w.stuck(0, 20, 20));  // never marked: waiting since cycle 0
  EXPECT_FALSE(w.stuck(2, 19, 20));
}

TEST(WaitStamps, CountCyclesAcrossTheWrapOfTheLow32Bits) {
  WaitStamps w(1);
  const Cycle before_wrap = (Cycle{1} << 32) - 5;
  w.mark(0, before_wrap);
  EXPECT_EQ(w.stamp(0), 0xFFFFFFFBU);
  EXPECT_TRUE(w.stuck(0, before_wrap + 15, 15));  // 15 cycles later, past 2^32
  EXPECT_FALSE(w.stuck(0, before_wrap + 15, 16));
  w.set_stamp(0, 7);
  EXPECT_TRUE(w.stuck(0, (Cycle{3} << 32) + 10, 3));
}

}  // namespace
}  // namespace wormnet
