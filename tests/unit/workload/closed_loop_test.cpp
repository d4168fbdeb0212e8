// The closed loop's own rules on graphs written out by hand, driven cycle by cycle as the
// engine drives it (release at the start of a cycle, a delivery reported with its cycle):
// a message within a node never reaches the engine and arrives local latency + flits - 1
// cycles after its issue; a step marker arrives at its issue; computation delays an issue
// after its last dependency; the report's critical path splits the completion into wait,
// compute, queueing, network and local time; a restart from the times re-derives a local
// message in flight and a computation under way.
#include "wormnet/workload/closed_loop.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "wormnet/workload/completion_report.hpp"

namespace wormnet {
namespace {

using Out = std::vector<std::pair<NodeId, Message>>;

/// Message 0: 0 -> 0 (local, 8 flits, after 5 cycles of computation); 1: 0 -> 1 over the
/// network (4 flits) once 0 has arrived; 2: a marker at node 1 (7 cycles of computation
/// after 1 arrives); 3: 1 -> 0 (4 flits) after the marker.
MessageGraph chain() {
  MessageGraph g;
  const std::uint32_t d0[] = {0};
  const std::uint32_t d1[] = {1};
  const std::uint32_t d2[] = {2};
  g.add(0, 0, 8, 0, 0, {}, 5);
  g.add(0, 1, 4, 0, 0, d0);
  g.add(1, 1, 0, 0, 0, d1, 7);
  g.add(1, 0, 4, 0, 0, d2);
  for (std::uint32_t id = 0; id < g.size(); ++id) EXPECT_EQ(g.check_message(id, 2), "");
  return g;
}

Packet packet_of(std::uint32_t source, std::uint32_t dest, std::uint64_t sequence, Cycle injected) {
  Packet p;
  p.source = source;
  p.dest = dest;
  p.id = (std::uint64_t{source} << 32) | sequence;
  p.injected = injected;
  return p;
}

TEST(ClosedLoop, LocalMessagesAndComputationByHand) {
  const MessageGraph g = chain();
  ClosedLoop loop(g, {0, 1}, 2, /*local_latency=*/3);
  Out out;
  // Message 0 computes 5 cycles from cycle 0, is issued at 5 and stays within node 0: the
  // engine gets nothing; it arrives 3 + 8 - 1 = 10 cycles later, at 15.
  EXPECT_EQ(loop.next_release(), 5U);
  loop.release(5, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(loop.next_release(), 15U);
  loop.release(14, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(loop.delivered_count(), 0U);
  // At 15 it arrives and message 1 (node 0's second message) goes to the engine at once.
  loop.release(15, out);
  ASSERT_EQ(out.size(), 1U);
  EXPECT_EQ(out[0].first.value(), 0U);
  EXPECT_EQ(out[0].second.dest, 1U);
  EXPECT_EQ(out[0].second.length, 4U);
  EXPECT_EQ(out[0].second.sequence, 1U);
  EXPECT_EQ(out[0].second.created, 15U);
  EXPECT_EQ(loop.delivered_count(), 1U);
  EXPECT_EQ(loop.next_release(), std::numeric_limits<Cycle>::max());
  // The engine injects its head at 17 and delivers it at 30: the marker computes 7 cycles
  // and is issued (and delivered) at 37, and message 3 leaves node 1 in the same call.
  loop.delivered(packet_of(0, 1, 1, 17), 30);
  EXPECT_EQ(loop.next_release(), 37U);
  out.clear();
  loop.release(37, out);
  ASSERT_EQ(out.size(), 1U);
  EXPECT_EQ(out[0].first.value(), 1U);
  EXPECT_EQ(out[0].second.dest, 0U);
  EXPECT_EQ(out[0].second.sequence, 1U);
  loop.delivered(packet_of(1, 0, 1, 40), 50);
  EXPECT_EQ(loop.delivered_count(), 4U);
  EXPECT_EQ(loop.total(), 4U);
  EXPECT_EQ(loop.last_delivery(), 50U);
  // Only the two messages over the network are packets.
  EXPECT_EQ(loop.released().packets, 2U);
  EXPECT_EQ(loop.released().flits, 8U);
  // Times (+1): issued 5, 15, 37, 37; injected 5 (local: its issue), 17, 37, 40; delivered
  // 15, 30, 37, 50.
  const WorkloadTimes& t = loop.times();
  EXPECT_EQ(t.issued, (std::vector<std::uint64_t>{6, 16, 38, 38}));
  EXPECT_EQ(t.injected, (std::vector<std::uint64_t>{6, 18, 38, 41}));
  EXPECT_EQ(t.delivered, (std::vector<std::uint64_t>{16, 31, 38, 51}));
  // The critical path is the whole chain: compute 5 + 7, local 10 (message 0), queueing
  // 2 + 3 and network 13 + 10 (messages 1 and 3), no wait: 50 in all.
  const CompletionReport r = report_completion(g, t);
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.completion, 50U);
  EXPECT_EQ(r.critical_path, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(r.path_compute, 12U);
  EXPECT_EQ(r.path_local, 10U);
  EXPECT_EQ(r.path_queueing, 5U);
  EXPECT_EQ(r.path_network, 23U);
  EXPECT_EQ(r.path_wait, 0U);
  // Means over the two messages that crossed the network only.
  ASSERT_EQ(r.iterations.size(), 1U);
  EXPECT_EQ(r.iterations[0].messages, 4U);
  EXPECT_DOUBLE_EQ(r.iterations[0].mean_queueing, 2.5);
  EXPECT_DOUBLE_EQ(r.iterations[0].mean_network, 11.5);
}

TEST(ClosedLoop, AnEarliestCycleBeyondTheComputationIsWait) {
  // One message 0 -> 1 that computes 5 cycles but may not leave before cycle 20: issued at
  // 20, of which 5 compute and 15 wait.
  MessageGraph g;
  g.add(0, 1, 2, 0, 20, {}, 5);
  ClosedLoop loop(g, {0, 1}, 2);
  EXPECT_EQ(loop.next_release(), 20U);
  Out out;
  loop.release(20, out);
  ASSERT_EQ(out.size(), 1U);
  loop.delivered(packet_of(0, 1, 0, 21), 30);
  const CompletionReport r = report_completion(g, loop.times());
  EXPECT_EQ(r.path_compute, 5U);
  EXPECT_EQ(r.path_wait, 15U);
  EXPECT_EQ(r.path_queueing, 1U);
  EXPECT_EQ(r.path_network, 9U);
}

TEST(ClosedLoop, RestartKeepsALocalMessageInFlightAndAComputationUnderWay) {
  const MessageGraph g = chain();
  // Stopped at 10 (message 0 issued at 5, in flight until 15) and at 33 (the marker computes
  // until 37): the rank that restarts from the times continues as the whole run did.
  for (const Cycle stop : {Cycle{10}, Cycle{33}}) {
    ClosedLoop whole(g, {0, 1}, 2, 3);
    Out out;
    for (Cycle c = 0; c < stop; ++c) {
      if (whole.next_release() <= c) whole.release(c, out);
      if (c == 29) whole.delivered(packet_of(0, 1, 1, 17), 30);
    }
    // Two ranks: node 0 on one, node 1 on the other; their times summed.
    ClosedLoop a(g, {0}, 2, 3);
    ClosedLoop b(g, {1}, 2, 3);
    a.restore(whole.times());
    b.restore(whole.times());
    EXPECT_EQ(std::min(a.next_release(), b.next_release()), stop == 10 ? 15U : 37U);
    out.clear();
    for (Cycle c = stop; c <= 37; ++c) {
      if (a.next_release() <= c) a.release(c, out);
      if (b.next_release() <= c) b.release(c, out);
      if (c == 29) b.delivered(packet_of(0, 1, 1, 17), 30);
    }
    ASSERT_EQ(out.empty(), false);
    EXPECT_EQ(out.back().first.value(), 1U);  // message 3 at 37
    EXPECT_EQ(out.back().second.created, 37U);
    EXPECT_EQ(a.times().delivered[0], 16U);
    EXPECT_EQ(b.times().issued[2], 38U);
  }
}

}  // namespace
}  // namespace wormnet
