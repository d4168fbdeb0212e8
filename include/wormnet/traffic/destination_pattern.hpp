// Destination patterns. Each is defined on the honeycomb and on tori/meshes; where a pattern
// has no natural geometric meaning it is defined on node indices (docs/traffic.md):
//   uniform        any other node, uniformly (any node, itself included, with self-traffic)
//   transpose      honeycomb (x,y,z) -> (y,x,z); torus/mesh with equal sizes: coordinates
//                  reversed; otherwise (N a power of two) node index bits rotated by b/2
//   neighbor       honeycomb: the neighbour across the first existing port in X, Y, Z order;
//                  torus/mesh: +1 in dimension 0 (mod k)
//   tornado        torus/mesh: every coordinate + ceil(k/2) - 1 (mod k); honeycomb: node index
//                  + ceil(N/2) - 1 (mod N)
//   bit-complement honeycomb (x,y,z) -> (1-x,1-y,1-z) (the antipode); torus/mesh: every
//                  coordinate c -> k-1-c
//   hotspot        a share of messages to the hotspot nodes, the rest uniform
//   all-to-all     message i of node s goes to (s + 1 + i mod (N-1)) mod N
// A node that a permutation maps to itself sends nothing.
// On a network with faults (docs/faults.md) the traffic is over the working nodes: a failed
// node sends nothing and nothing is sent to it; uniform and all-to-all run over the working
// nodes (the same rules with W working nodes in place of N), a hotspot may not be a failed
// node, and a working node that a permutation maps onto a failed one sends nothing (counted:
// silenced()).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/rng.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

class DestinationPattern {
 public:
  /// Throws InputError naming --traffic when the pattern is not defined on the topology, and
  /// naming --hotspot-nodes for a hotspot that failed. `faults` (null or empty: none) must
  /// outlive the pattern.
  DestinationPattern(const Topology& topo, const TrafficConfig& traffic,
                     const FaultSet* faults = nullptr);

  /// Destination of message number `index` of `src`; NodeId::invalid() when src sends nothing
  /// or the message is dropped (drop_unclaimed()).
  [[nodiscard]] NodeId destination(NodeId src, RandomStream& rng, std::uint64_t index) const;
  /// Whether the network carries a message from a source to a destination.
  using PairFilter = std::function<bool(NodeId, NodeId)>;
  /// From now on a message to a pair `carried` refuses is dropped: destination() draws it as
  /// before, then returns NodeId::invalid() (--drop-unroutable: the pairs a table made
  /// around faults does not route, RoutingFunction::claims()).
  void drop_unless(PairFilter carried) { carried_ = std::move(carried); }
  /// Whether some pairs are dropped (drop_unless() was given a filter).
  [[nodiscard]] bool drops() const { return static_cast<bool>(carried_); }
  /// Whether a message from `src` to `dest` is carried, not dropped.
  [[nodiscard]] bool carries(NodeId src, NodeId dest) const {
    return !carried_ || carried_(src, dest);
  }
  /// True when src never sends (fixed point of a permutation, a failed node, or a working
  /// node a permutation maps onto a failed one).
  [[nodiscard]] bool silent(NodeId src) const;
  [[nodiscard]] TrafficPattern pattern() const { return pattern_; }
  /// A fixed permutation (transpose, neighbor, tornado, bit-complement): every source sends
  /// all its messages to one node, fixed_destination() (itself when it is silent).
  [[nodiscard]] bool is_permutation() const { return !permutation_.empty(); }
  [[nodiscard]] NodeId fixed_destination(NodeId src) const {
    return NodeId(permutation_[src.value()]);
  }
  /// What the random patterns draw from (traffic_matrix.hpp turns it into shares).
  [[nodiscard]] double hotspot_fraction() const { return hotspot_fraction_; }
  [[nodiscard]] const std::vector<std::uint32_t>& hotspots() const { return hotspots_; }
  [[nodiscard]] bool self_traffic() const { return self_traffic_; }
  /// Working nodes that a permutation maps onto a failed node (they send nothing).
  [[nodiscard]] std::uint32_t silenced() const { return silenced_; }

 private:
  [[nodiscard]] NodeId uniform(NodeId src, RandomStream& rng) const;
  [[nodiscard]] NodeId draw(NodeId src, RandomStream& rng, std::uint64_t index) const;

  const Topology& topo_;
  TrafficPattern pattern_;
  double hotspot_fraction_;
  bool self_traffic_;  // uniform draws include the source (TrafficConfig::self_traffic)
  std::vector<std::uint32_t> hotspots_;
  std::vector<std::uint32_t> permutation_;  // for fixed patterns: dest of each node
  // With faults (else empty): the working nodes in id order, and each node's place there.
  const FaultSet* faults_ = nullptr;
  std::vector<std::uint32_t> working_;
  std::vector<std::uint32_t> rank_;
  std::uint32_t silenced_ = 0;
  PairFilter carried_;  // --drop-unroutable: empty = every message is kept
};

}  // namespace wormnet
