// A rank's counters against hand-counted cases: packet-cycles (packets in the network summed
// over the measurement window's cycles) counted only once a cycle settles and in any order
// of the lagging layers' counts, the window's counters and their reset, latencies.
#include "wormnet/engine/rank_counters.hpp"

#include <gtest/gtest.h>

namespace wormnet {
namespace {

Packet packet(Cycle created, Cycle injected, bool measured) {
  Packet p;
  p.created = created;
  p.injected = injected;
  p.length = 4;
  p.hops = 3;
  p.measured = measured;
  return p;
}

// Measurement window [1, 5). Created: 2 at cycle 0, 1 at cycle 2; a tail ejected at cycle
// 3. In the network during cycle 1: 2, 2: 3, 3: 3 (the tail leaves in it), 4: 2; sum 10.
TEST(RankCounters, PacketCyclesCountSettledCyclesOfTheMeasurementWindow) {
  RankCounters c(4, 8, 1, 5);
  c.anchor(0, 0);
  c.created(0, 2);
  c.created(2, 1);
  c.delivered(packet(0, 0, false), 3, 5);
  c.settle(3);  // cycles 0..2 settled: 2 + 3
  EXPECT_EQ(c.measured().packet_cycles, 5U);
  c.settle(3);  // nothing new
  EXPECT_EQ(c.measured().packet_cycles, 5U);
  c.settle(7);  // 3 + 2; cycles 5 and 6 are past the window
  EXPECT_EQ(c.measured().packet_cycles, 10U);
}

// Anchored after a restart at cycle 10 with 7 packets created before and 5 ejected: 2 in the
// network; a scripted message adds one.
TEST(RankCounters, AnAnchorStartsFromTheTotalsSoFar) {
  RankCounters c(1, 4, 0, 100);
  for (int k = 0; k < 5; ++k) c.delivered(packet(0, 0, false), 3, 4);
  c.scripted(3);
  c.anchor(10, 7);
  c.settle(12);
  EXPECT_EQ(c.measured().packet_cycles, 2U * (7 + 1 - 5));
}

TEST(RankCounters, TheWindowCountsAndResetsAndTheMeasuredPacketsHaveTheirLatencies) {
  RankCounters c(4, 8, 0, 100);
  c.injected(1, 1);
  c.injected(0, 1);
  c.hop(2, true);
  c.hop(2, false);
  c.hop(3, true);
  c.ejected_flit(true);
  c.ejected_flit(false);
  c.delivered(packet(10, 14, true), 20, 22);   // latency 12: network 8, queueing 4
  c.delivered(packet(10, 11, false), 20, 30);  // not measured: latency 20 in the window only
  const TrafficCounters w = c.take_window(40, 9);
  EXPECT_EQ(w.injected_packets, 1U);
  EXPECT_EQ(w.injected_flits, 2U);
  EXPECT_EQ(w.flit_hops, 3U);
  EXPECT_EQ(w.ejected_flits, 2U);
  EXPECT_EQ(w.ejected_packets, 2U);
  EXPECT_EQ(w.latency_sum, 32U);
  EXPECT_EQ(w.created_flits, 40U);
  EXPECT_EQ(w.created_packets, 9U);
  EXPECT_EQ(c.channel_flits(2), 1U);
  EXPECT_EQ(c.channel_flits(3), 1U);
  const MeasuredStats& m = c.measured();
  EXPECT_EQ(m.accepted_flits, 1U);
  EXPECT_EQ(m.delivered_packets, 1U);
  EXPECT_EQ(m.delivered_flits, 4U);
  EXPECT_EQ(m.hops_sum, 3U);
  // The next window starts from zero and counts only what was created since.
  const TrafficCounters next = c.take_window(50, 11);
  EXPECT_EQ(next.flit_hops, 0U);
  EXPECT_EQ(next.created_flits, 10U);
  EXPECT_EQ(next.created_packets, 2U);
}

// The channel counters hold 32 bits and fold into 64-bit totals: a total restored past 2^32
// goes on counting exactly, and a counter that reaches 2^31 is folded at the next fold
// (every kFoldPeriod settled cycles) without changing the total.
TEST(RankCounters, ChannelCountersCountPast32BitsAcrossRestoresAndFolds) {
  constexpr std::uint64_t kPast32 = (std::uint64_t{1} << 32) + 5;
  RankCounters c(4, 8, 0, RankCounters::kFoldPeriod * 4);
  c.anchor(0, 0);
  c.set_channel_flits(1, kPast32);
  for (int k = 0; k < 3; ++k) c.hop(1, true);
  EXPECT_EQ(c.channel_flits(1), kPast32 + 3);
  // Slot 2 one short of 2^31 in its 32-bit part: two hops take it to 2^31 + 1.
  c.set_channel_flits(2, (std::uint64_t{1} << 31) - 1);
  c.hop(2, true);
  c.hop(2, true);
  const std::size_t before = c.bytes();
  c.settle(RankCounters::kFoldPeriod);  // folds slot 2 (slot 1's part was folded on restore)
  EXPECT_EQ(c.bytes(), before + 16);    // one more folded channel
  EXPECT_EQ(c.channel_flits(2), (std::uint64_t{1} << 31) + 1);
  c.hop(2, true);
  EXPECT_EQ(c.channel_flits(2), (std::uint64_t{1} << 31) + 2);
  EXPECT_EQ(c.channel_flits(1), kPast32 + 3);
  // A restore to a small total drops the folded part.
  c.set_channel_flits(1, 7);
  EXPECT_EQ(c.channel_flits(1), 7U);
  EXPECT_EQ(c.channel_flits(0), 0U);
}

}  // namespace
}  // namespace wormnet
