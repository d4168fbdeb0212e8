#include "wormnet/traffic/traffic_sources.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <vector>

#include "wormnet/topology/torus.hpp"

namespace wormnet {
namespace {

struct Generated {
  std::uint64_t messages = 0;
  std::uint64_t flits = 0;
  int min_length = 1 << 30;
  int max_length = 0;
};

Generated generate(InjectionProcess process, double rate, int lmin, int lmax, Cycle cycles) {
  const Torus t({4, 4}, true);
  TrafficConfig c;
  c.process = process;
  c.length_min = lmin;
  c.length_max = lmax;
  const DestinationPattern d(t, c);
  std::vector<std::uint32_t> nodes(16);
  for (std::uint32_t i = 0; i < 16; ++i) nodes[i] = i;
  TrafficSources s(nodes, c, d, rate, 42, 0, cycles);
  s.generate_until(0, cycles - 1, [](std::uint32_t) {});
  Generated g;
  for (std::uint32_t i = 0; i < 16; ++i) {
    SourceQueue& q = s.queue(i);
    while (!q.empty()) {
      ++g.messages;
      g.flits += q.front().length;
      g.min_length = std::min<int>(g.min_length, q.front().length);
      g.max_length = std::max<int>(g.max_length, q.front().length);
      EXPECT_LT(q.front().created, cycles);
      EXPECT_NE(q.front().dest, i);
      q.pop();
    }
  }
  EXPECT_EQ(g.flits, s.created_flits());
  return g;
}

TEST(TrafficSources, PoissonAndBernoulliOfferTheConfiguredLoad) {
  // Messages per node per cycle = rate / mean length; over 16 nodes x T cycles the count is
  // Poisson (Bernoulli: binomial), so it lies within 4 standard deviations of its mean.
  const double rate = 0.2;
  const Cycle cycles = 40000;
  for (auto process : {InjectionProcess::kPoisson, InjectionProcess::kBernoulli}) {
    const Generated g = generate(process, rate, 4, 4, cycles);
    const double mean = 16.0 * cycles * rate / 4.0;
    EXPECT_NEAR(static_cast<double>(g.messages), mean, 4 * std::sqrt(mean));
  }
}

TEST(TrafficSources, LengthsAreUniformBetweenMinAndMax) {
  const Generated g = generate(InjectionProcess::kPoisson, 0.3, 10, 200, 60000);
  EXPECT_EQ(g.min_length, 10);
  EXPECT_EQ(g.max_length, 200);
  const double mean = static_cast<double>(g.flits) / static_cast<double>(g.messages);
  // Uniform on 10..200: mean 105, standard deviation ~55; error of the mean ~55/sqrt(n).
  EXPECT_NEAR(mean, 105.0, 4 * 55.0 / std::sqrt(static_cast<double>(g.messages)));
}

// A source queue holds memory only while it holds messages: 8 bytes a node, the pointer, for
// an empty one (issue 42's 600 bytes per router). One filled with 3 messages holds a block of
// room for 4 (doubling from 1: 24 bytes of counts and pool + 4 x 24), and none once they have
// left, in order; it fills again from a block of 1, which goes back to its pool when the
// queue empties, and from there to the next queue that fills.
TEST(SourceQueue, HoldsABlockOnlyWhileItHoldsMessages) {
  static_assert(sizeof(Message) == 24);
  SourceQueue::Pool pool;
  SourceQueue q;
  EXPECT_EQ(q.bytes(), 0U);
  for (std::uint64_t k = 0; k < 3; ++k) q.push(Message{.created = 10 + k, .sequence = k}, &pool);
  EXPECT_EQ(q.bytes(), 24U + 4 * 24);
  for (std::uint64_t k = 0; k < 3; ++k) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.front().sequence, k);
    q.pop();
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0U);
  EXPECT_EQ(q.bytes(), 0U);
  EXPECT_EQ(pool.blocks(), 0U);  // a block of room for 4 is freed
  q.push(Message{.created = 20, .sequence = 3}, &pool);
  EXPECT_EQ(q.bytes(), 24U + 24);
  EXPECT_EQ(q.front().created, 20U);
  q.pop();
  EXPECT_EQ(q.bytes(), 0U);
  EXPECT_EQ(pool.blocks(), 1U);
  EXPECT_EQ(pool.bytes(), 24U + 24);
  SourceQueue other;
  other.push(Message{.created = 30, .sequence = 4}, &pool);
  EXPECT_EQ(pool.blocks(), 0U);
  other.push(Message{.created = 31, .sequence = 5}, &pool);  // outgrows the pool's block
  EXPECT_EQ(other.size(), 2U);
  EXPECT_EQ(other.front().created, 30U);
  other.pop();
  EXPECT_EQ(other.front().created, 31U);
}

// Every node's messages generated and taken from its queue: the sources hold the bytes of
// fresh ones (their generators and one calendar entry per node), not a block per node that
// ever queued a message.
TEST(TrafficSources, DrainedQueuesHoldNoMoreThanFreshOnes) {
  const Torus t({4, 4}, true);
  TrafficConfig c;
  c.length_min = 4;
  c.length_max = 4;
  const DestinationPattern d(t, c);
  std::vector<std::uint32_t> nodes(16);
  for (std::uint32_t i = 0; i < 16; ++i) nodes[i] = i;
  const TrafficSources fresh(nodes, c, d, 0.2, 42, 0, 1000);
  TrafficSources s(nodes, c, d, 0.2, 42, 0, 1000);
  s.generate_until(0, 999, [](std::uint32_t) {});
  ASSERT_GT(s.created_packets(), 16U * 10);  // 0.05 messages a node a cycle: about 800
  EXPECT_GT(s.bytes(), fresh.bytes());
  for (std::uint32_t i = 0; i < 16; ++i) {
    for (SourceQueue& q = s.queue(i); !q.empty();) q.pop();
  }
  // At most one block of room for one message (48 bytes) per node waits in the pool: the
  // queues were filled before any emptied, so here none.
  EXPECT_EQ(s.bytes(), fresh.bytes());
}

// A node's message count is 32 bits, what a packet's id keeps of it: the message numbered
// 2^32 - 2 is made as any other, the next (which would be numbered 2^32 - 1, and the one after
// would wrap to 0 and repeat an id) is refused; a checkpoint holding a count past 2^32 - 1
// too. Node 5's count restored at 2^32 - 2, every node generating at load 0.5.
TEST(TrafficSources, ANodesMessageCountStopsShortOfRepeatingAPacketId) {
  const Torus t({4, 4}, true);
  TrafficConfig c;
  c.length_min = 4;
  c.length_max = 4;
  const DestinationPattern d(t, c);
  std::vector<std::uint32_t> nodes(16);
  for (std::uint32_t i = 0; i < 16; ++i) nodes[i] = i;
  TrafficSources s(nodes, c, d, 0.5, 9, 0, 1000);
  TrafficSources::Rows rows;
  s.save(rows);
  const auto local = [](std::uint32_t n) { return std::optional<std::uint32_t>(n); };
  rows.sequence[5] = (std::uint64_t{1} << 32) - 2;
  s.restore(rows, true, local);
  std::uint64_t dropped = s.dropped_messages();
  EXPECT_GE(dropped, (std::uint64_t{1} << 32) - 2);  // none of node 5's was created
  // Node 5's first message; its second fails (about 8 cycles apart).
  Cycle t5 = 0;
  for (Cycle cycle = 0; s.queue(5).empty(); ++cycle) {
    ASSERT_LT(cycle, 1000U);
    s.generate_until(0, cycle, [](std::uint32_t) {});
    t5 = cycle;
  }
  EXPECT_EQ(s.queue(5).front().sequence, (std::uint64_t{1} << 32) - 2);
  EXPECT_ANY_THROW(s.generate_until(0, t5 + 1000, [](std::uint32_t) {}));
  rows.sequence[5] = std::uint64_t{1} << 32;
  EXPECT_ANY_THROW(s.restore(rows, true, local));
}

// Calendars by block (a rank whose layers run at different cycles generates block by block):
// each block's generate_until() yields exactly its nodes' messages of one calendar, at the
// same cycles, whatever order the blocks are served in. torus:8x8 in blocks of 8 nodes,
// blocks served in reverse order, cycle by cycle, against one calendar for all.
TEST(TrafficSources, BlocksGenerateWhatOneCalendarDoes) {
  const Torus t({8, 8}, true);
  TrafficConfig c;
  c.length_min = 1;
  c.length_max = 6;
  const DestinationPattern d(t, c);
  std::vector<std::uint32_t> nodes(64);
  for (std::uint32_t i = 0; i < 64; ++i) nodes[i] = i;
  TrafficSources one(nodes, c, d, 0.3, 7, 10, 200);
  TrafficSources blocks(nodes, c, d, 0.3, 7, 10, 200);
  blocks.group_by_block(3);
  std::vector<std::uint32_t> woken_one(64, 0);
  std::vector<std::uint32_t> woken_blocks(64, 0);
  for (Cycle cycle = 0; cycle < 300; ++cycle) {
    one.generate_until(0, cycle, [&](std::uint32_t r) { ++woken_one[r]; });
    for (std::size_t b = 8; b-- > 0;) {
      blocks.generate_until(b, cycle, [&](std::uint32_t r) {
        EXPECT_EQ(r >> 3, b);
        ++woken_blocks[r];
      });
    }
    ASSERT_EQ(woken_blocks, woken_one) << "cycle " << cycle;
  }
  EXPECT_EQ(blocks.created_flits(), one.created_flits());
  EXPECT_EQ(blocks.measured_packets(), one.measured_packets());
  for (std::uint32_t i = 0; i < 64; ++i) {
    SourceQueue& a = one.queue(i);
    SourceQueue& b = blocks.queue(i);
    ASSERT_EQ(a.size(), b.size());
    for (; !a.empty(); a.pop(), b.pop()) {
      EXPECT_EQ(a.front().created, b.front().created);
      EXPECT_EQ(a.front().dest, b.front().dest);
      EXPECT_EQ(a.front().length, b.front().length);
    }
  }
}

// The calendar orders instants by cycle, then node, beyond the low 32 bits of the cycle (its
// packed 12-byte entries keep the whole 64-bit cycle): instants restored at 2^32 + 1 (nodes 0 and
// 2), 2^32 - 1 (node 1), 2^32 + 0.5 (node 4: cycle 2^32) and 3 x 2^32 (node 3) wake 1, 4, 0, 2 by
// cycle 2^32 + 1, and node 3 only at 3 x 2^32. A load of 1e-8 flits a node a cycle makes the next
// instant of each about 4e8 cycles later.
TEST(TrafficSources, InstantsPastTheLow32BitsWakeInOrderOfCycleThenNode) {
  const Torus t({4, 4}, true);
  TrafficConfig c;
  c.length_min = 4;
  c.length_max = 4;
  const DestinationPattern d(t, c);
  std::vector<std::uint32_t> nodes(16);
  for (std::uint32_t i = 0; i < 16; ++i) nodes[i] = i;
  TrafficSources s(nodes, c, d, 1e-8, 3, 0, 10);
  TrafficSources::Rows rows;
  s.save(rows);
  const double wrap = 4294967296.0;  // 2^32
  rows.next_time.assign(16, 1e30);   // never
  rows.next_time[0] = wrap + 1;
  rows.next_time[1] = wrap - 1;
  rows.next_time[2] = wrap + 1;
  rows.next_time[3] = 3 * wrap;
  rows.next_time[4] = wrap + 0.5;
  s.restore(rows, true, [](std::uint32_t n) { return std::optional<std::uint32_t>(n); });
  std::vector<std::uint32_t> woken;
  const Cycle two_32 = Cycle{1} << 32;
  s.generate_until(0, two_32 - 2, [&](std::uint32_t r) { woken.push_back(r); });
  EXPECT_TRUE(woken.empty());
  s.generate_until(0, two_32 + 1, [&](std::uint32_t r) { woken.push_back(r); });
  EXPECT_EQ(woken, (std::vector<std::uint32_t>{1, 4, 0, 2}));
  EXPECT_EQ(s.queue(4).front().created, two_32);
  int threes = 0;  // the others go on waking, each about 20 times
  s.generate_until(0, 3 * two_32 - 1, [&](std::uint32_t r) { threes += r == 3 ? 1 : 0; });
  EXPECT_EQ(threes, 0);
  s.generate_until(0, 3 * two_32, [&](std::uint32_t r) { threes += r == 3 ? 1 : 0; });
  EXPECT_EQ(threes, 1);
  EXPECT_EQ(s.queue(3).front().created, 3 * two_32);
}

}  // namespace
}  // namespace wormnet
