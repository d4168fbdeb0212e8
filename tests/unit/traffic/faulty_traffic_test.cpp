// Traffic on a network with faults (docs/faults.md): no message leaves or reaches a failed
// node; uniform destinations are uniform over the working nodes; all-to-all cycles through
// them; a permutation that maps a working node onto a failed one silences it (counted); a
// failed hotspot is refused.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/fault_file.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/traffic/destination_pattern.hpp"

namespace wormnet {
namespace {

FaultSet faults_of(const Topology& topo, const std::string& text) {
  FaultSet f(topo);
  read_fault_list(topo, text, "--faults", "test", f);
  return f;
}

TEST(FaultyTraffic, UniformIsOverTheWorkingNodes) {
  const auto topo = make_topology("torus:4x4");
  const FaultSet f = faults_of(*topo, "node (1,0)\nnode (2,3)\nlink (0,0) Y+");
  TrafficConfig t;
  const DestinationPattern p(*topo, t, &f);
  const NodeId src = topo->node_at(Coord{{0, 0}, 2});
  RandomStream rng(1, 2);
  std::map<std::uint32_t, int> seen;
  constexpr int kDraws = 140000;
  for (int i = 0; i < kDraws; ++i) ++seen[p.destination(src, rng, 0).value()];
  EXPECT_EQ(seen.size(), 13U);  // 14 working nodes, the source aside
  for (const auto& [d, count] : seen) {
    EXPECT_FALSE(f.node_failed(NodeId(d)));
    EXPECT_NE(d, src.value());
    EXPECT_NEAR(count, kDraws / 13.0, 5 * std::sqrt(kDraws / 13.0));
  }
  EXPECT_TRUE(p.silent(topo->node_at(Coord{{1, 0}, 2})));
  EXPECT_FALSE(p.silent(src));
  // With self-traffic: the 14 working nodes, the source among them.
  t.self_traffic = true;
  const DestinationPattern self(*topo, t, &f);
  std::set<std::uint32_t> all;
  for (int i = 0; i < 20000; ++i) all.insert(self.destination(src, rng, 0).value());
  EXPECT_EQ(all.size(), 14U);
  EXPECT_TRUE(all.count(src.value()));
}

TEST(FaultyTraffic, AllToAllCyclesThroughTheWorkingNodes) {
  const auto topo = make_topology("mesh:3x3");
  const FaultSet f = faults_of(*topo, "node (1,1)\nnode (2,2)");
  TrafficConfig t;
  t.pattern = TrafficPattern::kAllToAll;
  const DestinationPattern p(*topo, t, &f);
  RandomStream rng(1, 1);
  for (std::uint32_t s = 0; s < topo->num_nodes(); ++s) {
    if (f.node_failed(NodeId(s))) continue;
    std::set<std::uint32_t> got;
    for (std::uint64_t i = 0; i < 6; ++i) got.insert(p.destination(NodeId(s), rng, i).value());
    EXPECT_EQ(got.size(), 6U);  // every other working node once in W - 1 = 6 messages
    EXPECT_FALSE(got.count(s));
    for (const std::uint32_t d : got) EXPECT_FALSE(f.node_failed(NodeId(d)));
  }
}

TEST(FaultyTraffic, APermutationOntoAFailedNodeSilencesItsSource) {
  // Tornado on torus:4x4: (x, y) -> (x+1, y+1); the source of the failed (2,2) is (1,1).
  const auto topo = make_topology("torus:4x4");
  const FaultSet f = faults_of(*topo, "node (2,2)");
  TrafficConfig t;
  t.pattern = TrafficPattern::kTornado;
  const DestinationPattern p(*topo, t, &f);
  EXPECT_EQ(p.silenced(), 1U);
  EXPECT_TRUE(p.silent(topo->node_at(Coord{{1, 1}, 2})));
  EXPECT_TRUE(p.silent(topo->node_at(Coord{{2, 2}, 2})));
  EXPECT_FALSE(p.silent(topo->node_at(Coord{{0, 0}, 2})));
  RandomStream rng(1, 1);
  EXPECT_FALSE(p.destination(topo->node_at(Coord{{1, 1}, 2}), rng, 0).valid());
}

TEST(FaultyTraffic, AFailedHotspotIsRefused) {
  const auto topo = make_topology("torus:4x4");
  const FaultSet f = faults_of(*topo, "node (0,0)");
  TrafficConfig t;
  t.pattern = TrafficPattern::kHotspot;
  EXPECT_THROW(DestinationPattern(*topo, t, &f), InputError);  // the default hotspot, node 0
  t.hotspot_nodes = {5};
  EXPECT_NO_THROW(DestinationPattern(*topo, t, &f));
}

}  // namespace
}  // namespace wormnet
