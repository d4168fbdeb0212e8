#include "wormnet/topology/topology_metrics.hpp"

#include <gtest/gtest.h>

#include "../../support/bfs.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {
namespace {

double bfs_average_distance(const Topology& t) {
  double sum = 0;
  for (std::uint32_t a = 0; a < t.num_nodes(); ++a) {
    for (int d : test::bfs_distances(t, NodeId(a))) sum += d;
  }
  return sum / (double(t.num_nodes()) * (t.num_nodes() - 1));
}

TEST(TopologyMetrics, AverageDistanceMatchesBfs) {
  for (const char* spec : {"honeycomb:1", "honeycomb:3", "honeycomb:6", "torus:8x8", "torus:3x5x2",
                           "mesh:16x16", "mesh:4x3x5"}) {
    const auto t = make_topology(spec);
    EXPECT_NEAR(compute_metrics(*t).average_distance, bfs_average_distance(*t), 1e-9) << spec;
  }
}

TEST(TopologyMetrics, AllPairsDistanceSumIsTheBfsSumExactly) {
  // Every way the sum is taken: coordinate histograms (H_t, meshes), the torus rings' O(k)
  // form (even and odd k, k = 2), one node times N (honeycomb tori), pair by pair (the
  // honeycomb rectangle and rhombus are neither separable nor vertex-transitive).
  for (const char* spec :
       {"honeycomb:1", "honeycomb:4", "mesh:4x3x5", "mesh:2x7", "torus:5x4", "torus:2x3x7",
        "torus:9", "honeycomb-torus:3", "honeycomb-rect:4x6", "honeycomb-rhombic:3x4"}) {
    const auto t = make_topology(spec);
    std::uint64_t bfs_sum = 0;
    for (std::uint32_t a = 0; a < t->num_nodes(); ++a) {
      for (int d : test::bfs_distances(*t, NodeId(a))) bfs_sum += static_cast<std::uint64_t>(d);
    }
    EXPECT_EQ(all_pairs_distance_sum(*t), bfs_sum) << spec;
  }
}

TEST(TopologyMetrics, TorusAverageDistanceClosedForm) {
  // k-ary ring, k even: mean ring distance over all ordered pairs incl. s = d is k/4.
  // 8x8 torus: sum over pairs = N^2 * 2 * 2 = 64*64*4; over s != d divide by N(N-1).
  const Torus t({8, 8}, true);
  EXPECT_NEAR(compute_metrics(t).average_distance, 64.0 * 64.0 * 4.0 / (64.0 * 63.0), 1e-12);
}

TEST(TopologyMetrics, BisectionBoundsHandWorked) {
  // k x k torus: a straight cut severs 2k links = 2k directed channels each way; with
  // sides N/2: bound = 2k (N-1) / (N/2)^2.
  const Torus t({8, 8}, true);
  const auto mt = compute_metrics(t);
  EXPECT_EQ(mt.bisection.channels_ab, 16U);
  EXPECT_NEAR(mt.bisection.bound, 16.0 * 63.0 / (32.0 * 32.0), 1e-12);
  // k x k mesh: k channels each way.
  const Torus m({16, 16}, false);
  const auto mm = compute_metrics(m);
  EXPECT_EQ(mm.bisection.channels_ab, 16U);
  EXPECT_NEAR(mm.bisection.bound, 16.0 * 255.0 / (128.0 * 128.0), 1e-12);
  // H_t: the cut x <= 0 | x >= 1 splits 3t^2 | 3t^2 and cuts 2t X-links.
  const HoneycombMesh h(6);
  const auto mh = compute_metrics(h);
  EXPECT_EQ(mh.bisection.side_a, 108U);
  EXPECT_EQ(mh.bisection.channels_ab, 12U);
  EXPECT_NEAR(mh.bisection.bound, 12.0 * 215.0 / (108.0 * 108.0), 1e-12);
}

TEST(TopologyMetrics, DegreeHistogram) {
  const HoneycombMesh h(4);
  const auto m = compute_metrics(h);
  EXPECT_EQ(m.degree_histogram.at(2), 24U);
  EXPECT_EQ(m.degree_histogram.at(3), 96U - 24U);
}

}  // namespace
}  // namespace wormnet
