// Static properties of a topology, computed exactly (no sampling): what `wormnet info` prints.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/topology/working_network.hpp"

namespace wormnet {

/// The balanced straight cut used for the uniform-traffic bisection bound.
struct BisectionCut {
  std::string description;   ///< e.g. "X <= 0 | X >= 1"
  std::uint64_t side_a = 0;  ///< nodes on each side
  std::uint64_t side_b = 0;
  std::uint64_t channels_ab = 0;  ///< directed channels from A to B (= from B to A)
  /// Uniform-traffic throughput bound, flits/node/cycle: every node sends lambda spread evenly
  /// over the N-1 others, so A->B carries lambda |A| |B| / (N-1) over channels_ab channels.
  double bound = 0.0;
};

/// On a network with faults every figure is of the working network: its nodes, its links,
/// the degrees over its links, distances over the working pairs that can reach each other,
/// the cut over its nodes and channels.
struct TopologyMetrics {
  std::uint64_t nodes = 0;
  std::uint64_t links = 0;
  std::uint64_t channels = 0;  ///< directed channels = 2 * links
  std::map<int, std::uint64_t> degree_histogram;
  int diameter = 0;
  /// Mean minimal distance over ordered pairs s != d (hops).
  double average_distance = 0.0;
  /// With faults: the failed nodes and the links failed as links (those at a failed node
  /// aside), how the working nodes hang together, the ordered pairs the distances are over,
  /// and whether the distances were computed (an all-pairs search; see compute_metrics).
  bool faulty = false;
  std::uint64_t failed_nodes = 0;
  std::uint64_t failed_links = 0;
  WorkingConnectivity connectivity;
  std::uint64_t distance_pairs = 0;
  bool distances_known = true;
  /// Best (smallest-bound) balanced straight cut along one coordinate: an upper bound on the
  /// uniform-traffic saturation rate. The true minimum bisection can only lower it.
  BisectionCut bisection;
};

/// Sum of the minimal distance over all ordered pairs (s, d), exact: from per-coordinate
/// histograms where the distance is a sum of coordinate terms (H_t, meshes: O(N + sum k^2);
/// tori: O(N + sum k), every ring value being held by N/k nodes), else from one node times N
/// when every node sees the same distances (honeycomb tori), else pair by pair (O(N^2)).
std::uint64_t all_pairs_distance_sum(const Topology& topo);

/// Exact metrics. Average distance is computed from per-coordinate histograms, which is exact
/// because distances in H_t, tori and meshes are sums of per-coordinate terms: O(N + sum k^2);
/// for the honeycomb tori (not separable, vertex-transitive) from the distances of one node.
TopologyMetrics compute_metrics(const Topology& topo);

/// The metrics of `topo` with `faults`: compute_metrics(topo) when nothing failed; else of the
/// working network, its diameter and average distance by a breadth-first search from every
/// working node (O(N (N + links))) when `distances`, otherwise left unknown
/// (distances_known false; set_distances() fills them from working_distance_totals()).
TopologyMetrics compute_metrics(const Topology& topo, const FaultSet& faults,
                                bool distances = true);

/// Diameter, average distance and pairs from distance totals (of all shares).
void set_distances(TopologyMetrics& m, const DistanceTotals& d);

}  // namespace wormnet
