// The injection stage by itself on one router's state (no VC or switch stage runs, so
// nothing leaves the injection buffer unless the test takes it): when a message enters, on
// which VC, a flit a cycle, and what its packet record holds.
#include "wormnet/router/injection_stage.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

constexpr int kTerminal = 4;  // a 2-D mesh: ports 0..3, then the terminal

Message message(Cycle created, std::uint32_t dest, std::uint16_t length, std::uint64_t seq) {
  Message m;
  m.created = created;
  m.dest = dest;
  m.length = length;
  m.sequence = seq;
  return m;
}

// Node 3 of mesh:2x2, 2 VCs of 2 flits, injection latency 3. Message A (3 flits, made at 0)
// spends cycles 0-2 on the injection channel; its head enters VC 0 at 3, a body flit at 4;
// at 5 the buffer is full and nothing is written; one flit taken out, the tail enters at 6.
// Message B (made at 1, 1 flit) waits for A's tail, then starts at 7 on VC 1, the lowest
// empty injection VC (VC 0 still holds two of A's flits).
TEST(InjectionStage, AMessageEntersAfterItsLatencyAFlitACycleOnTheLowestEmptyVc) {
  const auto topo = make_topology("mesh:2x2");
  const auto routing = make_routing("xy", *topo);
  RouterParams params;
  params.ports = 4;
  params.vcs = 2;
  params.depth = 2;
  params.injection_latency = 3;
  PacketTable packets;
  RouterCore core(params, *topo, *routing, {3}, packets);
  SourceQueue source;
  source.push(message(0, 0, 3, 7));
  source.push(message(1, 1, 1, 8));
  InjectionStage::source_filled(core, 0);
  const int vc0 = kTerminal * 2;
  const int vc1 = kTerminal * 2 + 1;
  const auto count = [&](int lv) { return core.inputs.count(core.inputs.index(0, lv)); };
  for (Cycle t = 0; t < 3; ++t) {
    const InjectionStage::Injected d = InjectionStage::step(core, 0, t, source);
    EXPECT_EQ(d.packets + d.flits, 0U) << t;
  }
  InjectionStage::Injected d = InjectionStage::step(core, 0, 3, source);
  EXPECT_EQ(d.packets, 1U);
  EXPECT_EQ(d.flits, 1U);
  EXPECT_EQ(count(vc0), 1);
  const Flit head = core.inputs.front(core.inputs.index(0, vc0));
  EXPECT_TRUE(head.head());
  const Packet& a = packets[head.packet()];
  EXPECT_EQ(a.id, (std::uint64_t{3} << 32) | 7U);  // (source, sequence)
  EXPECT_EQ(a.source, 3U);
  EXPECT_EQ(a.dest, 0U);
  EXPECT_EQ(a.created, 0U);
  EXPECT_EQ(a.injected, 3U);
  EXPECT_EQ(a.length, 3);
  EXPECT_EQ(InjectionStage::step(core, 0, 4, source).flits, 1U);
  EXPECT_EQ(InjectionStage::step(core, 0, 5, source).flits, 0U);  // full
  EXPECT_EQ(count(vc0), 2);
  core.inputs.pop(0, vc0);
  EXPECT_EQ(InjectionStage::step(core, 0, 6, source).flits, 1U);  // A's tail
  EXPECT_TRUE(core.inputs.at(core.inputs.index(0, vc0), 1).tail());
  EXPECT_TRUE(InjectionStage::has_work(core, 0));  // B is queued
  d = InjectionStage::step(core, 0, 7, source);
  EXPECT_EQ(d.packets, 1U);
  EXPECT_EQ(count(vc1), 1);
  const Flit b = core.inputs.front(core.inputs.index(0, vc1));
  EXPECT_TRUE(b.head() && b.tail());
  EXPECT_EQ(packets[b.packet()].id, (std::uint64_t{3} << 32) | 8U);
  EXPECT_FALSE(InjectionStage::has_work(core, 0));  // B is written whole, nothing queued
}

}  // namespace
}  // namespace wormnet
