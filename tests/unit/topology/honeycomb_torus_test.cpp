// The honeycomb tori against their published definitions and independent facts:
// - HT_t is H_t plus Stojmenovic's wraparound edge list, written out literally here from the
//   definition restated by Cho & Hsu (Inf. Proc. Lett. 86, 2003); its wraparound offsets are
//   +-(2t-1, -t, -t) and permutations (Yin et al.); 6t^2 nodes, 9t^2 links, degree 3, diameter
//   2t, average distance about 0.54 sqrt(N) (Stojmenovic, IEEE TPDS 8(10), 1997).
// - HReT(m, n) and HRoT(m, n) are Cho & Hsu's adjacency rules on brick coordinates (i, j),
//   applied here literally and compared edge by edge.
// - Distances against breadth-first search over every pair; the same distance distribution
//   from every node (vertex symmetry); the diameter against BFS.
#include "wormnet/topology/honeycomb_torus.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <set>
#include <tuple>
#include <utility>

#include "../../support/bfs.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/topology/topology_metrics.hpp"

namespace wormnet {
namespace {

using Edge = std::pair<std::uint32_t, std::uint32_t>;

std::set<Edge> links_of(const Topology& topo) {
  std::set<Edge> links;
  for (std::uint32_t c = 0; c < topo.num_channels(); ++c) {
    const std::uint32_t a = topo.channel_source(ChannelId(c)).value();
    const std::uint32_t b = topo.channel_dest(ChannelId(c)).value();
    links.emplace(std::min(a, b), std::max(a, b));
  }
  return links;
}

Edge edge(NodeId a, NodeId b) {
  EXPECT_TRUE(a.valid() && b.valid());
  return {std::min(a.value(), b.value()), std::max(a.value(), b.value())};
}

/// Three distinct neighbours, none the node itself; black (sum 1) nodes own the + ports.
void expect_simple_cubic(const HoneycombTorus& h) {
  for (std::uint32_t u = 0; u < h.num_nodes(); ++u) {
    const NodeId n(u);
    ASSERT_EQ(h.degree(n), 3) << h.node_label(n);
    std::set<std::uint32_t> seen;
    for (int p = 0; p < 6; ++p) {
      const NodeId m = h.neighbor(n, static_cast<PortId>(p));
      if (!m.valid()) continue;
      EXPECT_EQ(Topology::port_sign(static_cast<PortId>(p)) > 0, h.black(n)) << h.node_label(n);
      EXPECT_NE(m, n);
      EXPECT_NE(h.black(m), h.black(n));  // bipartite
      seen.insert(m.value());
    }
    EXPECT_EQ(seen.size(), 3U) << h.node_label(n);
  }
}

class HexagonalTorus : public ::testing::TestWithParam<int> {};

TEST_P(HexagonalTorus, IsHtPlusStojmenovicsWraparoundEdges) {
  const int t = GetParam();
  const HoneycombTorus ht(HoneycombTorusShape::kHexagonal, t);
  const HoneycombMesh mesh(t);
  EXPECT_EQ(ht.num_nodes(), static_cast<std::uint32_t>(6 * t * t));
  EXPECT_EQ(ht.num_links(), static_cast<std::uint32_t>(9 * t * t));
  expect_simple_cubic(ht);
  // Same nodes as H_t, in the same order.
  for (std::uint32_t u = 0; u < mesh.num_nodes(); ++u) {
    ASSERT_EQ(ht.coords(NodeId(u)), mesh.coords(NodeId(u)));
    EXPECT_EQ(ht.node_at(mesh.coords(NodeId(u))), NodeId(u));
  }
  // E(HT(n)) = E(H_n) + { ((i, n-i+1, 1-n), (i-n, 1-i, n)), ((1-n, i, n-i+1), (n, i-n, 1-i)),
  // ((i, 1-n, n-i+1), (i-n, n, 1-i)) : 1 <= i <= n }.
  std::set<Edge> expected = links_of(mesh);
  const int n = t;
  for (int i = 1; i <= n; ++i) {
    expected.insert(edge(mesh.node_at(i, n - i + 1, 1 - n), mesh.node_at(i - n, 1 - i, n)));
    expected.insert(edge(mesh.node_at(1 - n, i, n - i + 1), mesh.node_at(n, i - n, 1 - i)));
    expected.insert(edge(mesh.node_at(i, 1 - n, n - i + 1), mesh.node_at(i - n, n, 1 - i)));
  }
  EXPECT_EQ(links_of(ht), expected);
}

TEST_P(HexagonalTorus, WraparoundOffsetsArePermutationsOfYinEtAl) {
  const int t = GetParam();
  const HoneycombTorus ht(HoneycombTorusShape::kHexagonal, t);
  std::set<std::tuple<int, int, int>> allowed;
  std::array<int, 3> v{2 * t - 1, -t, -t};
  std::sort(v.begin(), v.end());
  do {
    allowed.emplace(v[0], v[1], v[2]);
    allowed.emplace(-v[0], -v[1], -v[2]);
  } while (std::next_permutation(v.begin(), v.end()));
  int wraps = 0;
  for (std::uint32_t u = 0; u < ht.num_nodes(); ++u) {
    for (int p = 0; p < 6; ++p) {
      if (!ht.is_wrap(NodeId(u), static_cast<PortId>(p))) continue;
      ++wraps;
      const Coord a = ht.coords(NodeId(u));
      const Coord b = ht.coords(ht.neighbor(NodeId(u), static_cast<PortId>(p)));
      EXPECT_TRUE(allowed.count({b[0] - a[0], b[1] - a[1], b[2] - a[2]}))
          << ht.node_label(NodeId(u)) << " " << Topology::port_label(static_cast<PortId>(p));
    }
  }
  EXPECT_EQ(wraps, 6 * t);  // the 3t wraparound links, both directions
}

TEST_P(HexagonalTorus, DistancesDiameterAndSymmetryAgainstBfs) {
  const int t = GetParam();
  const HoneycombTorus ht(HoneycombTorusShape::kHexagonal, t);
  std::vector<int> reference;
  for (std::uint32_t s = 0; s < ht.num_nodes(); ++s) {
    std::vector<int> dist = test::bfs_distances(ht, NodeId(s));
    for (std::uint32_t d = 0; d < ht.num_nodes(); ++d) {
      ASSERT_EQ(ht.distance(NodeId(s), NodeId(d)), dist[d]) << s << " -> " << d;
    }
    std::sort(dist.begin(), dist.end());
    if (s == 0) reference = dist;
    EXPECT_EQ(dist, reference) << "distance distribution from " << ht.node_label(NodeId(s));
  }
  EXPECT_EQ(ht.diameter(), 2 * t);  // Stojmenovic
  EXPECT_EQ(ht.diameter(), reference.back());
  const TopologyMetrics m = compute_metrics(ht);
  double sum = 0;
  for (const int d : reference) sum += d;
  EXPECT_NEAR(m.average_distance, sum / (ht.num_nodes() - 1.0), 1e-12);
  EXPECT_EQ(m.degree_histogram.at(3), ht.num_nodes());
}

INSTANTIATE_TEST_SUITE_P(Sizes, HexagonalTorus, ::testing::Values(1, 2, 3, 4, 5));

// Stojmenovic: the average distance of the honeycomb torus is about 0.54 sqrt(N).
TEST(HexagonalTorusMetrics, AverageDistanceIsAboutPoint54RootN) {
  for (const int t : {6, 10, 16}) {
    const HoneycombTorus ht(HoneycombTorusShape::kHexagonal, t);
    const double avg = compute_metrics(ht).average_distance;
    EXPECT_NEAR(avg / std::sqrt(static_cast<double>(ht.num_nodes())), 0.54, 0.01) << t;
    EXPECT_EQ(ht.diameter(), 2 * t);
  }
}

/// Cho & Hsu's brick graphs, literally: nodes (i, j) in the given order, edges by the rules.
struct BrickGraph {
  std::vector<std::pair<int, int>> nodes;
  std::set<std::pair<std::pair<int, int>, std::pair<int, int>>> edges;
  void link(std::pair<int, int> a, std::pair<int, int> b) {
    edges.insert({std::min(a, b), std::max(a, b)});
  }
};

/// HReT(m, n): (i, j) ~ (i, j +- 1 mod n); (i, j) ~ (i - 1 mod m, j) if i + j is even.
BrickGraph rectangular(int m, int n) {
  BrickGraph g;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      g.nodes.emplace_back(i, j);
      g.link({i, j}, {i, (j + 1) % n});
      if ((i + j) % 2 == 0) g.link({i, j}, {(i - 1 + m) % m, j});
    }
  }
  return g;
}

/// HRoT(m, n): nodes 0 <= i < m, 0 <= j - i < n; (i, j) ~ (i, j +- 1 mod n) (j kept in
/// [i, i + n)); (i, j) ~ (i - 1, j) if i + j is even and i > 0; (0, j) ~ (m - 1, j + m) if j
/// is even.
BrickGraph rhombic(int m, int n) {
  BrickGraph g;
  const auto col = [n](int i, int j) { return std::make_pair(i, i + ((j - i) % n + n) % n); };
  for (int i = 0; i < m; ++i) {
    for (int j = i; j < i + n; ++j) {
      g.nodes.emplace_back(i, j);
      g.link({i, j}, col(i, j + 1));
      if ((i + j) % 2 == 0 && i > 0) g.link({i, j}, col(i - 1, j));
      if (i == 0 && j % 2 == 0) g.link({0, j}, col(m - 1, j + m));
    }
  }
  return g;
}

/// Brick (i, j) -> lattice (x, y, z): x = i, y - z = j, x + y + z = 1 for i + j odd, else 2.
Coord brick_coord(int i, int j) {
  const int s = (i + j) % 2 != 0 ? 1 : 2;
  Coord c;
  c.n = 3;
  c[0] = i;
  c[1] = (s - i + j) / 2;
  c[2] = (s - i - j) / 2;
  return c;
}

class BrickTorus : public ::testing::TestWithParam<std::tuple<bool, int, int>> {};

TEST_P(BrickTorus, MatchesChoAndHsuAndBfs) {
  const auto [rect, m, n] = GetParam();
  const HoneycombTorus h(rect ? HoneycombTorusShape::kRectangular : HoneycombTorusShape::kRhombic,
                         m, n);
  SCOPED_TRACE(h.spec());
  const BrickGraph g = rect ? rectangular(m, n) : rhombic(m, n);
  ASSERT_EQ(h.num_nodes(), g.nodes.size());
  EXPECT_EQ(h.num_links(), static_cast<std::uint32_t>(3 * m * n / 2));
  expect_simple_cubic(h);
  // Node k of the published node order is node k here, at the brick point's coordinates.
  for (std::uint32_t k = 0; k < g.nodes.size(); ++k) {
    ASSERT_EQ(h.coords(NodeId(k)), brick_coord(g.nodes[k].first, g.nodes[k].second));
  }
  std::set<Edge> expected;
  for (const auto& [a, b] : g.edges) {
    expected.insert(
        edge(h.node_at(brick_coord(a.first, a.second)), h.node_at(brick_coord(b.first, b.second))));
  }
  EXPECT_EQ(links_of(h), expected);
  std::vector<int> reference;
  for (std::uint32_t s = 0; s < h.num_nodes(); ++s) {
    std::vector<int> dist = test::bfs_distances(h, NodeId(s));
    for (std::uint32_t d = 0; d < h.num_nodes(); ++d) {
      ASSERT_EQ(h.distance(NodeId(s), NodeId(d)), dist[d]) << s << " -> " << d;
    }
    std::sort(dist.begin(), dist.end());
    if (s == 0) reference = dist;
    EXPECT_EQ(dist, reference) << "distance distribution from " << h.node_label(NodeId(s));
  }
  EXPECT_EQ(h.diameter(), reference.back());
}

INSTANTIATE_TEST_SUITE_P(
    ChoHsu, BrickTorus,
    ::testing::Values(std::make_tuple(true, 2, 4), std::make_tuple(true, 4, 4),
                      std::make_tuple(true, 6, 6), std::make_tuple(true, 4, 8),
                      std::make_tuple(true, 8, 4), std::make_tuple(true, 6, 10),
                      std::make_tuple(false, 2, 4), std::make_tuple(false, 3, 6),
                      std::make_tuple(false, 4, 6), std::make_tuple(false, 5, 8),
                      std::make_tuple(false, 7, 4)));

TEST(HoneycombTorusLattice, TranslationsMapEveryPointToTheSameNode) {
  for (const char* spec : {"honeycomb-torus:3", "honeycomb-rect:6x4", "honeycomb-rhombic:5x6"}) {
    const auto topo = make_topology(spec);
    const auto& h = static_cast<const HoneycombTorus&>(*topo);
    for (std::uint32_t u = 0; u < h.num_nodes(); ++u) {
      const Coord c = h.coords(NodeId(u));
      for (int p = -2; p <= 2; ++p) {
        for (int q = -2; q <= 2; ++q) {
          const auto& [g1, g2] = h.basis();
          EXPECT_EQ(h.lattice_node(c[0] + p * g1[0] + q * g2[0], c[1] + p * g1[1] + q * g2[1],
                                   c[2] + p * g1[2] + q * g2[2]),
                    NodeId(u))
              << spec;
        }
      }
      // A translation by a vector outside the lattice gives another node.
      EXPECT_NE(h.lattice_node(c[0] + 1, c[1] - 1, c[2]), NodeId(u)) << spec;
    }
    EXPECT_FALSE(h.lattice_node(0, 0, 0).valid());  // sum 0: not a honeycomb point
  }
}

TEST(HoneycombTorusFactory, BuildsTheThreeShapesAndRefusesBadSizes) {
  EXPECT_EQ(make_topology("honeycomb-torus:4")->spec(), "honeycomb-torus:4");
  EXPECT_EQ(make_topology("honeycomb-rect:6x8")->spec(), "honeycomb-rect:6x8");
  EXPECT_EQ(make_topology("honeycomb-rhombic:3x6")->spec(), "honeycomb-rhombic:3x6");
  EXPECT_EQ(make_topology("honeycomb-torus:4")->kind(), TopologyKind::kHoneycombTorus);
  for (const char* bad :
       {"honeycomb-torus:0", "honeycomb-torus:x", "honeycomb-torus:4x4", "honeycomb-rect:3x4",
        "honeycomb-rect:4x2", "honeycomb-rect:4x5", "honeycomb-rect:4", "honeycomb-rect:x4",
        "honeycomb-rhombic:1x4", "honeycomb-rhombic:3x5", "honeycomb-rhombic:0x0",
        "honeycomb-rect:-2x4", "honeycomb-rect:70000x70000", "honeycomb-torus:18001"}) {
    try {
      (void)make_topology(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.option(), "--topology") << bad;
      EXPECT_EQ(e.value(), bad);
    }
  }
}

}  // namespace
}  // namespace wormnet
