// A restart onto any partition (any rank count, any cut) continues exactly as the
// uninterrupted run: the state of every router, link and packet is rebuilt on the ranks that
// now own it, including packets whose flits sit on both sides of a link that the new partition
// cuts and packets that leave a rank and come back to it.
#include <gtest/gtest.h>

#include <ostream>
#include <random>
#include <string>

#include "../../support/scripted_network.hpp"
#include "wormnet/engine/rank_model.hpp"

namespace wormnet {
namespace {

using test::Delivery;
using test::ScriptedNetwork;
using test::small_router;

/// Any assignment of routers to `parts` ranks (every rank owning one at least), drawn at
/// random: parts that are not contiguous, so that packets leave a rank and come back.
Partition scattered(const Topology& topo, int parts, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint16_t> owner(topo.num_nodes());
  for (std::uint32_t n = 0; n < owner.size(); ++n) {
    owner[n] = static_cast<std::uint16_t>(
        n < static_cast<std::uint32_t>(parts) ? n : rng() % static_cast<std::uint32_t>(parts));
  }
  return Partition(std::move(owner), parts, "scattered");
}

/// Three waves of packets from every node to scattered destinations: long worms (longer
/// than the buffers), plenty of contention.
void load(ScriptedNetwork& net) {
  const std::uint32_t n = net.topology().num_nodes();
  for (std::uint32_t k = 0; k < 3; ++k) {
    for (std::uint32_t s = 0; s < n; ++s) {
      std::uint32_t d = (s * (7 + 2 * k) + 3 + k) % n;
      if (d == s) d = (s + 1) % n;
      net.send(s, d, 3 + static_cast<int>((s + k) % 9), k * 7 + s % 5);
    }
  }
}

struct RestartCase {
  const char* topology;
  const char* routing;
  SimConfig config;
  friend void PrintTo(const RestartCase& c, std::ostream* os) {
    *os << c.topology << " " << c.routing << ", " << c.config.network.vcs << " VCs x "
        << c.config.network.buffer_depth << " flits, link " << c.config.network.link_latency
        << ", credit " << c.config.network.credit_latency;
  }
};

class RestartOntoAnyPartition : public ::testing::TestWithParam<RestartCase> {};

TEST_P(RestartOntoAnyPartition, DeliversExactlyAsTheUninterruptedRun) {
  const RestartCase& k = GetParam();
  ScriptedNetwork whole(k.topology, k.routing, k.config);
  load(whole);
  whole.run_until(4000);
  const std::vector<Delivery> expected = whole.deliveries();
  ASSERT_EQ(expected.size(), 3 * whole.topology().num_nodes());

  const Topology& topo = whole.topology();
  // {parts before, after the first restart, after the second}: contiguous blocks and
  // scattered parts, more and fewer ranks, restarted twice in a row.
  const int plans[][3] = {{1, 3, 4}, {2, 4, 3}, {3, 3, 1}, {4, 2, 5}, {1, -3, -4}, {-4, -2, 3}};
  std::uint32_t seed = 1;
  for (const auto& plan : plans) {
    auto make = [&](int parts) {
      return parts > 0 ? Partition::blocks(topo, parts) : scattered(topo, -parts, seed++);
    };
    for (Cycle first : {Cycle{23}, Cycle{61}}) {
      SCOPED_TRACE(std::string(k.topology) + " " + k.routing + ": parts " +
                   std::to_string(plan[0]) + " -> " + std::to_string(plan[1]) + " -> " +
                   std::to_string(plan[2]) + " (negative: scattered), first restart at " +
                   std::to_string(first));
      ScriptedNetwork net(k.topology, k.routing, k.config, 1);
      net.repartition(make(plan[0]));
      load(net);
      net.run_until(first);
      net.repartition(make(plan[1]));
      net.run_until(first + 17);
      net.repartition(make(plan[2]));
      net.run_until(4000);
      EXPECT_EQ(net.deliveries(), expected);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    RankModel, RestartOntoAnyPartition,
    ::testing::Values(RestartCase{"honeycomb:3", "double-xy", small_router(2, 1, 1, 0, {})},
                      RestartCase{"honeycomb:3", "xy-first", small_router(3, 2, 1, 0, {})},
                      RestartCase{"honeycomb:3", "double-xy",
                                  small_router(2, 3, 2, 4, VcBandwidth::kPerVc)},
                      RestartCase{"torus:5x3", "dor-dateline", small_router(2, 1, 3, 0, {})},
                      RestartCase{"mesh:4x3", "west-first", small_router(1, 2, 2, 2, {})}));

}  // namespace
}  // namespace wormnet
