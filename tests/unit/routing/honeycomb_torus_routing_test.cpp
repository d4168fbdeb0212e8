// The honeycomb-torus routings against independent facts:
// - minimality from breadth-first search (which ports shorten the way, for every pair);
// - the girth of the torus (6, by BFS): every minimal routing with one VC per level has a
//   6-channel dependency cycle, the shortest the verifier must report;
// - Double XY with dateline VCs: acyclic on every size tried, and along every route (walked
//   here step by step from RoutingFunction::route) the dateline level never goes down and
//   goes up on every hop that crosses a dateline.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "../../support/bfs.hpp"
#include "../../support/route_enumeration.hpp"
#include "../../support/routing_case.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/routing/double_xy_dateline_routing.hpp"
#include "wormnet/routing/honeycomb_torus_ways.hpp"
#include "wormnet/topology/honeycomb_torus.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet {
namespace {

const std::vector<std::string> kTori{
    "honeycomb-torus:1",     "honeycomb-torus:2",    "honeycomb-torus:3",  "honeycomb-torus:4",
    "honeycomb-rect:4x4",    "honeycomb-rect:6x6",   "honeycomb-rect:4x8", "honeycomb-rhombic:2x4",
    "honeycomb-rhombic:3x6", "honeycomb-rhombic:4x6"};

/// Thin and wide tori: their nearest images tie by the dozen, in runs along a short vector.
const std::vector<std::string> kThinTori{"honeycomb-rhombic:2x46", "honeycomb-rect:24x4",
                                         "honeycomb-rhombic:3x20", "honeycomb-rect:40x4"};

/// Ports offered at injection for (node, dest), as a set.
std::set<PortId> offered_ports(const RoutingFunction& r, NodeId node, NodeId dest,
                               RouteState state) {
  RouteRequest q;
  q.node = node;
  q.source = node;
  q.dest = dest;
  q.state = state;
  RouteOptions o;
  r.route(q, o);
  std::set<PortId> ports;
  for (const RouteOption& x : o) ports.insert(x.port);
  return ports;
}

TEST(HoneycombTorusRouting, MinimalAdaptiveOffersExactlyTheBfsShorteningPorts) {
  std::vector<std::string> tori = kTori;
  tori.insert(tori.end(), kThinTori.begin(), kThinTori.end());
  for (const std::string& spec : tori) {
    const auto c = test::make_case(spec, "minimal-adaptive");
    const Topology& t = *c.topo;
    std::vector<std::vector<int>> dist(t.num_nodes());
    for (std::uint32_t d = 0; d < t.num_nodes(); ++d) dist[d] = test::bfs_distances(t, NodeId(d));
    for (std::uint32_t s = 0; s < t.num_nodes(); ++s) {
      for (std::uint32_t d = 0; d < t.num_nodes(); ++d) {
        if (s == d) continue;
        std::set<PortId> expected;
        for (int p = 0; p < 6; ++p) {
          const NodeId m = t.neighbor(NodeId(s), static_cast<PortId>(p));
          if (m.valid() && dist[d][m.value()] == dist[d][s] - 1) {
            expected.insert(static_cast<PortId>(p));
          }
        }
        ASSERT_EQ(offered_ports(*c.routing, NodeId(s), NodeId(d), 0), expected)
            << spec << " " << t.node_label(NodeId(s)) << " -> " << t.node_label(NodeId(d));
      }
    }
  }
}

TEST(HoneycombTorusRouting, OneVcPerLevelRoutingsHaveAHexagonCycle) {
  for (const std::string& spec : kTori) {
    const auto topo = make_topology(spec);
    ASSERT_EQ(test::network_girth(*topo), spec == "honeycomb-torus:1" ||
                                                  spec == "honeycomb-rect:4x4" ||
                                                  spec == "honeycomb-rhombic:2x4"
                                              ? 4  // K_{3,3} and the smallest bricks: 4-cycles
                                              : 6)
        << spec;
    for (const std::string name : {"stojmenovic", "stojmenovic-dateline", "minimal-adaptive"}) {
      // On HT_1 (K_{3,3}, routes of at most 2 hops), HReT(4, 4) and HRoT(2, 4) the routes are
      // too short to close a cycle within one dateline level: the dateline variant is acyclic.
      const bool tiny = spec == "honeycomb-torus:1" || spec == "honeycomb-rect:4x4" ||
                        spec == "honeycomb-rhombic:2x4";
      const auto c = test::make_case(spec, name);
      SCOPED_TRACE(c.label());
      AnalysisOptions o;
      o.loads = false;
      const RoutingAnalysis a = analyze_routing(*c.topo, *c.routing, o);
      EXPECT_TRUE(a.delivery.ok) << a.delivery.defect;
      EXPECT_TRUE(a.delivery.all_minimal);
      EXPECT_EQ(a.delivery.max_path, c.topo->diameter());
      const auto cycle = a.cdg.shortest_cycle();
      if (tiny && name == "stojmenovic-dateline") {
        EXPECT_TRUE(cycle.empty());
        continue;
      }
      ASSERT_FALSE(cycle.empty());
      // No cycle can be shorter than the girth; a hexagon of one level (or a 4-cycle where
      // the torus has girth 4) is found.
      EXPECT_EQ(static_cast<int>(cycle.size()), *test::network_girth(*c.topo));
    }
  }
}

TEST(HoneycombTorusRouting, StojmenovicIsDeterministicAndTheDatelineVariantUsesOneVcPerLevel) {
  const auto c = test::make_case("honeycomb-torus:3", "stojmenovic");
  const auto d = test::make_case("honeycomb-torus:3", "stojmenovic-dateline");
  EXPECT_EQ(c.vcs(), 1);
  EXPECT_EQ(d.vcs(), 3);  // levels 0..2: two datelines, each crossed at most once
  for (std::uint32_t s = 0; s < c.topo->num_nodes(); ++s) {
    for (std::uint32_t t = 0; t < c.topo->num_nodes(); ++t) {
      if (s == t) continue;
      EXPECT_EQ(offered_ports(*c.routing, NodeId(s), NodeId(t), 0).size(), 1U);
      // Same path, only the VC differs.
      EXPECT_EQ(offered_ports(*c.routing, NodeId(s), NodeId(t), 0),
                offered_ports(*d.routing, NodeId(s), NodeId(t), 0));
    }
  }
}

// Where images tie in long runs: Stojmenovic's routing heads for the lexicographically smallest
// of ALL nearest images (each one listed), along its largest coordinate that shortens (XYZ on
// ties), and that port shortens the BFS distance.
TEST(HoneycombTorusRouting, StojmenovicHeadsForTheSmallestOfEveryTiedImage) {
  for (const std::string& spec : kThinTori) {
    const auto c = test::make_case(spec, "stojmenovic");
    const auto& h = static_cast<const HoneycombTorus&>(*c.topo);
    for (std::uint32_t d = 0; d < h.num_nodes(); ++d) {
      const std::vector<int> dist = test::bfs_distances(h, NodeId(d));
      for (std::uint32_t s = 0; s < h.num_nodes(); ++s) {
        if (s == d) continue;
        HoneycombTorus::Images images;
        h.nearest_images(NodeId(s), NodeId(d), images);
        std::vector<HoneycombTorus::Offset> all(images.begin(), images.end());
        const HoneycombTorus::Offset w = *std::min_element(all.begin(), all.end());
        const bool black = h.black(NodeId(s));
        int best = -1;
        for (int k = 0; k < 3; ++k) {
          const int v = w[static_cast<std::size_t>(k)];
          if ((black ? v > 0 : v < 0) &&
              (best < 0 || std::abs(v) > std::abs(w[static_cast<std::size_t>(best)]))) {
            best = k;
          }
        }
        ASSERT_GE(best, 0);
        const PortId p = Topology::port_of(best, black ? 1 : -1);
        ASSERT_EQ(offered_ports(*c.routing, NodeId(s), NodeId(d), 0), std::set<PortId>{p})
            << spec << " " << h.node_label(NodeId(s)) << " -> " << h.node_label(NodeId(d));
        EXPECT_EQ(dist[h.neighbor(NodeId(s), p).value()], dist[s] - 1);
      }
    }
  }
}

// The dateline levels are 1 + the most crossings any shortest way can have: the largest, over
// every nearest image w seen from a black and a white node, of the sum over the two dateline
// coordinates of (P - 1 + |w_k|) / P (P = period(k)), for the pair of coordinates with the
// smallest such largest. Listed image by image here; the routings take each run whole.
TEST(HoneycombTorusRouting, DatelineLevelsAreTheWorstCrossingsOverEveryImage) {
  std::vector<std::string> tori = kTori;
  tori.insert(tori.end(), kThinTori.begin(), kThinTori.end());
  for (const char* spec : {"honeycomb-rhombic:3x128", "honeycomb-rhombic:500x8",
                           "honeycomb-rect:500x8", "honeycomb-rect:1000x4", "honeycomb-rect:6x10",
                           "honeycomb-rhombic:7x30", "honeycomb-rect:2x64", "honeycomb-torus:7"}) {
    tori.emplace_back(spec);
  }
  for (const std::string& spec : tori) {
    const auto topo = make_topology(spec);
    const auto& h = static_cast<const HoneycombTorus&>(*topo);
    const std::array<std::array<int, 2>, 3> pairs{{{0, 1}, {0, 2}, {1, 2}}};
    std::array<int, 3> worst{};
    HoneycombTorus::Images images;
    for (const NodeId from : {NodeId(0), h.neighbor(NodeId(0), h.black(NodeId(0)) ? 0 : 1)}) {
      for (std::uint32_t d = 0; d < h.num_nodes(); ++d) {
        h.nearest_images(from, NodeId(d), images);
        for (const HoneycombTorus::Offset w : images) {
          for (std::size_t p = 0; p < 3; ++p) {
            int sum = 0;
            for (const int k : pairs[p]) {
              sum += (h.period(k) - 1 + std::abs(w[static_cast<std::size_t>(k)])) / h.period(k);
            }
            worst[p] = std::max(worst[p], sum);
          }
        }
      }
    }
    const auto best =
        static_cast<std::size_t>(std::min_element(worst.begin(), worst.end()) - worst.begin());
    const HoneycombTorusWays ways(h);
    EXPECT_EQ(ways.levels(), 1 + worst[best]) << spec;
    EXPECT_EQ(ways.dateline_coords(), pairs[best]) << spec;
  }
}

TEST(HoneycombTorusRouting, DoubleXyDatelineIsDeadlockFreeAndMinimal) {
  for (const std::string& spec : kTori) {
    const auto c = test::make_case(spec, "double-xy-dateline");
    SCOPED_TRACE(c.label());
    // Two networks x three levels on these sizes (two datelines crossed at most once each),
    // four levels on the 4x8 rectangle, whose y period is 2.
    EXPECT_EQ(c.vcs(), spec == "honeycomb-rect:4x8" ? 8 : 6);
    const RoutingAnalysis a = analyze_routing(*c.topo, *c.routing);
    EXPECT_TRUE(a.delivery.ok) << a.delivery.defect;
    EXPECT_TRUE(a.delivery.all_minimal);
    EXPECT_TRUE(a.cdg.shortest_cycle().empty());
  }
  EXPECT_TRUE(analyze_routing(*make_topology("honeycomb-torus:6"),
                              *test::make_case("honeycomb-torus:6", "double-xy-dateline").routing)
                  .cdg.shortest_cycle()
                  .empty());
}

/// Walks every route of double-xy-dateline from `s` to `d` and checks the level (VC / 2) along
/// it: never down, up on a hop across a dateline (coordinate k of the pair crossing a
/// multiple of its period, computed here from the coordinates).
void walk_levels(const HoneycombTorus& h, const DoubleXyDatelineRouting& r, NodeId at, NodeId d,
                 PortId in_port, VcId in_vc, RouteState state, int level, int& hops_checked) {
  if (at == d) return;
  RouteRequest q;
  q.node = at;
  q.dest = d;
  q.in_port = in_port;
  q.in_vc = in_vc;
  q.state = state;
  RouteOptions o;
  r.route(q, o);
  ASSERT_FALSE(o.empty());
  for (const RouteOption& x : o) {
    for (int v = 0; v < r.vcs_required(); ++v) {
      if (!((x.vcs >> v) & 1U)) continue;
      const int next_level = v / 2;
      EXPECT_GE(next_level, level);
      const Coord a = h.coords(at);
      const int k = Topology::port_dim(x.port);
      bool crosses = false;
      for (const int c : r.ways().dateline_coords()) {
        if (c != k) continue;
        // Unrolled coordinate before and after the hop; a crossing is a change of the
        // multiple of the period below it.
        const int before = a[k];
        const int after = before + Topology::port_sign(x.port);
        const int p = h.period(k);
        const auto block = [p](int u) { return u >= 0 ? u / p : -((-u + p - 1) / p); };
        crosses = block(before) != block(after);
      }
      if (crosses) {
        EXPECT_GT(next_level, level);
      }
      ++hops_checked;
      walk_levels(h, r, h.neighbor(at, x.port), d, Topology::reverse_port(x.port),
                  static_cast<VcId>(v), x.next_state, next_level, hops_checked);
    }
  }
}

TEST(HoneycombTorusRouting, DatelineLevelNeverDropsAndRisesAcrossADateline) {
  for (const char* spec : {"honeycomb-torus:2", "honeycomb-torus:3", "honeycomb-rhombic:3x6"}) {
    const auto c = test::make_case(spec, "double-xy-dateline");
    const auto& h = static_cast<const HoneycombTorus&>(*c.topo);
    const auto& r = static_cast<const DoubleXyDatelineRouting&>(*c.routing);
    int hops = 0;
    for (std::uint32_t s = 0; s < h.num_nodes(); ++s) {
      for (std::uint32_t d = 0; d < h.num_nodes(); ++d) {
        if (s != d) {
          walk_levels(h, r, NodeId(s), NodeId(d), kInjectionPort, 0,
                      r.initial_state(NodeId(s), NodeId(d)), 0, hops);
        }
      }
    }
    EXPECT_GT(hops, 0) << spec;
  }
}

// The level of a hop worked out from the current node's images (what the routings use)
// equals the level computed at the next node from its own images.
TEST(HoneycombTorusRouting, HopLevelFromTheCurrentImagesEqualsTheLevelAtTheNextNode) {
  for (const char* spec :
       {"honeycomb-torus:2", "honeycomb-torus:4", "honeycomb-rect:6x6", "honeycomb-rect:4x8",
        "honeycomb-rhombic:4x6", "honeycomb-rect:24x4", "honeycomb-rhombic:2x46"}) {
    const auto topo = make_topology(spec);
    const auto& h = static_cast<const HoneycombTorus&>(*topo);
    const HoneycombTorusWays ways(h);
    int hops = 0;
    for (std::uint32_t s = 0; s < h.num_nodes(); ++s) {
      for (std::uint32_t d = 0; d < h.num_nodes(); ++d) {
        if (s == d) continue;
        HoneycombTorus::Images images;
        h.nearest_images(NodeId(s), NodeId(d), images);
        for (int p = 0; p < 6; ++p) {
          const NodeId m = h.neighbor(NodeId(s), static_cast<PortId>(p));
          if (!m.valid() || h.distance(m, NodeId(d)) != images.distance() - 1) continue;
          ASSERT_EQ(ways.level_of_hop(NodeId(s), images, static_cast<PortId>(p)),
                    ways.level_into(m, NodeId(d)))
              << spec << " " << h.node_label(NodeId(s)) << " -> " << h.node_label(NodeId(d));
          ++hops;
        }
      }
    }
    EXPECT_GT(hops, 0);
  }
}

TEST(HoneycombTorusRouting, RefusesATorusThatNeedsMoreThanEightVcs) {
  // honeycomb-rect:6x10: the y and z periods are gcd(3, 5) = 1, so every way crosses many
  // datelines; the fewest levels (x with y) are six, 12 VCs.
  const auto topo = make_topology("honeycomb-rect:6x10");
  try {
    (void)make_routing("double-xy-dateline", *topo);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--routing");
    EXPECT_NE(std::string(e.what()).find("12 VCs"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW((void)make_routing("stojmenovic", *topo));
  EXPECT_NO_THROW((void)make_routing("stojmenovic-dateline", *topo));  // 6 levels, 6 VCs
  // honeycomb-rect:2x40: periods 2, 1, 1; a shortest way can cross x = 0 mod 2 once and move
  // y by 11 (e.g. (-1, 11, -9), as short as (1, 10, -10)): 13 levels, one VC each.
  const auto thin = make_topology("honeycomb-rect:2x40");
  try {
    (void)make_routing("stojmenovic-dateline", *thin);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--routing");
    EXPECT_NE(std::string(e.what()).find("13 VCs"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace wormnet
