// The arrival wheel against hand-worked cases: its size spans the longest delay plus the
// layers' spread, rounded up to a power of two; an arrival due at cycle c lands in slot
// c mod size and in its router's block (local index >> shift), and is reported back at c.
#include "wormnet/engine/arrival_wheel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace wormnet {
namespace {

// A bucket keeps its room from cycle to cycle, so its bytes are those of its busiest cycle
// rounded up by its growth: after n items, room for at most n + max(4, n / 4) (the growth
// that reached room for n or more started below n), and every item kept in order. Grown by
// doubling from 16 it held room for 32 after 17 items, 256 after 129.
TEST(WheelBucket, HoldsRoomForAQuarterMoreThanItsBusiestCycle) {
  WheelBucket<std::uint64_t> b;
  EXPECT_EQ(b.bytes(), 0U);
  for (std::uint64_t n = 1; n <= 1000; ++n) {
    b.push_back(n * 7);
    ASSERT_EQ(b.size(), n);
    ASSERT_GE(b.bytes(), n * sizeof(std::uint64_t));
    ASSERT_LE(b.bytes(), (n + std::max<std::uint64_t>(4, n / 4)) * sizeof(std::uint64_t))
        << n << " items";
  }
  std::uint64_t k = 0;
  for (std::uint64_t x : b) EXPECT_EQ(x, ++k * 7);
  const std::size_t held = b.bytes();
  b.clear();  // the room stays for the slot's next cycle
  EXPECT_EQ(b.size(), 0U);
  for (std::uint64_t n = 1; n <= 1000; ++n) b.push_back(n);
  EXPECT_EQ(b.bytes(), held);
}

// Slots for delays up to d and a spread of s cycles: the next power of two above d + s.
TEST(ArrivalWheel, SpansTheLongestDelayPlusTheSpread) {
  EXPECT_EQ(ArrivalWheel(1, 0, 1, 10).size(), 2U);   // 2 cycles: 2
  EXPECT_EQ(ArrivalWheel(3, 0, 1, 10).size(), 4U);   // 4 cycles: 4
  EXPECT_EQ(ArrivalWheel(4, 0, 1, 10).size(), 8U);   // 5 cycles: 8
  EXPECT_EQ(ArrivalWheel(2, 3, 4, 10).size(), 8U);   // 2 + skew 4 - 1 + 1 = 6 cycles: 8
  EXPECT_EQ(ArrivalWheel(9, 7, 4, 10).size(), 32U);  // 17 cycles: 32
  EXPECT_ANY_THROW(ArrivalWheel(0, 0, 1, 10));
}

// Blocks of 2^10 routers: router 2500 is in block 2, router 1023 in block 0, 1024 in block
// 1; a rank of one block keeps every router in bucket 0.
TEST(ArrivalWheel, AnArrivalLandsInTheSlotOfItsCycleAndTheBucketOfItsBlock) {
  ArrivalWheel w(3, 0, 3, 10);  // 4 slots
  ASSERT_EQ(w.size(), 4U);
  EXPECT_EQ(w.block_of(1023), 0U);
  EXPECT_EQ(w.block_of(1024), 1U);
  EXPECT_EQ(w.block_of(2500), 2U);
  EXPECT_EQ(ArrivalWheel(3, 0, 1, 10).block_of(2500), 0U);

  w.add_flit(13, 2500, 5, Flit::with_kind(7, 0));  // 13 mod 4 = slot 1, block 2
  w.add_credit(14, 1024, 99);                      // 14 mod 4 = slot 2, block 1
  const ArrivalWheel::Slot& s1 = w.slot(1);
  ASSERT_EQ(s1.flits[2].size(), 1U);
  EXPECT_EQ(s1.flits[0].size() + s1.flits[1].size(), 0U);
  EXPECT_EQ(s1.flits[2].begin()->router, 2500U);
  EXPECT_EQ(s1.flits[2].begin()->local_vc, 5U);
  EXPECT_EQ(s1.flits[2].begin()->flit.packet(), 7U);
  EXPECT_EQ(&w.slot(9), &s1);  // 9 mod 4 = 1: the same slot, a wheel's turn earlier
  ASSERT_EQ(w.slot(2).credits[1].size(), 1U);
  EXPECT_EQ(*w.slot(2).credits[1].begin(), 99U);
  EXPECT_EQ(w.slot(2).flits[1].size(), 0U);
  EXPECT_EQ(w.flits(), 1U);
}

// From cycle 10 on (the first not yet applied), a 4-slot wheel holds cycles 10..13: slot 2
// is cycle 10, slot 3 cycle 11, slot 0 cycle 12, slot 1 cycle 13.
TEST(ArrivalWheel, ReportsEachArrivalAtItsCycle) {
  ArrivalWheel w(3, 0, 2, 6);
  w.add_flit(12, 3, 0, Flit::with_kind(1, 0));
  w.add_flit(10, 70, 1, Flit::with_kind(2, 0));
  w.add_flit(13, 64, 2, Flit::with_kind(3, 0));
  w.add_flit(11, 0, 3, Flit::with_kind(4, 0));
  w.add_credit(13, 5, 41);
  std::vector<std::pair<Cycle, std::uint32_t>> flits;
  std::vector<std::pair<Cycle, std::uint32_t>> credits;
  w.for_each(
      10, [&](Cycle c, const Arrival& a) { flits.emplace_back(c, a.flit.packet()); },
      [&](Cycle c, std::uint32_t o) { credits.emplace_back(c, o); });
  // Slot by slot: 0 (cycle 12), 1 (13), 2 (10), 3 (11).
  const std::vector<std::pair<Cycle, std::uint32_t>> want{{12, 1}, {13, 3}, {10, 2}, {11, 4}};
  EXPECT_EQ(flits, want);
  EXPECT_EQ(credits, (std::vector<std::pair<Cycle, std::uint32_t>>{{13, 41}}));
  EXPECT_EQ(w.flits(), 4U);
  w.clear();
  EXPECT_EQ(w.flits(), 0U);
  EXPECT_EQ(w.slot(13).credits[0].size(), 0U);
}

}  // namespace
}  // namespace wormnet
