// The traffic matrix of a destination pattern: T(s, d), the long-run share of source s's
// messages bound for d, by columns (the sources of one destination), for the pattern-aware
// load analysis (docs/analysis.md, "Traffic patterns"). Built only for the analysis: the
// simulation draws destinations from the DestinationPattern itself.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/traffic/destination_pattern.hpp"

namespace wormnet {

/// A source and the share of its messages bound for one destination.
struct SourceShare {
  NodeId source;
  double share = 0.0;  ///< T(source, dest), a probability
};

class TrafficMatrix {
 public:
  /// `pattern` must outlive the matrix.
  TrafficMatrix(const Topology& topo, const DestinationPattern& pattern);

  /// Uniform in the long run over the other nodes (uniform; all-to-all, whose rounds visit
  /// every other node once): the uniform load analysis, (N-1)/pi, is the pattern's own.
  [[nodiscard]] bool uniform() const { return uniform_; }
  /// Every source sends to one node (transpose, neighbor, tornado, bit-complement): a map of
  /// the nodes, a permutation on tori and meshes but not always (neighbor on H_t sends two
  /// nodes to one).
  [[nodiscard]] bool fixed() const { return pattern_.is_permutation(); }
  /// Sources that send nothing (the fixed points of a fixed pattern; with faults the failed
  /// nodes, and the working ones a fixed pattern maps onto a failed node).
  [[nodiscard]] std::uint32_t silent() const { return silent_; }
  /// Ordered pairs s != d with T(s, d) > 0.
  [[nodiscard]] std::uint64_t pairs() const { return pairs_; }

  /// Appends every source s != dest with T(s, dest) > 0 and its share, in node order (pairs
  /// s = dest cross no channel and are left out). A fixed pattern: the sources mapped onto
  /// dest, share 1 each. Uniform: every other node, 1/(N-1) (1/N with --self-traffic).
  /// Hotspot (fraction f, a list of L entries, c(v) of them naming node v): T(s, d) =
  /// f c(d)/L + (1 - f + f c(s)/L) u, where u is the uniform share: an entry naming another
  /// node is sent there, and a uniform draw takes the rest, a hotspot's draw of itself too.
  void sources_of(NodeId dest, std::vector<SourceShare>& out) const;

 private:
  /// Hotspot: the draws naming each node, and the pairs with a share at a fraction of 1.
  void count_hotspots();

  const Topology& topo_;
  const DestinationPattern& pattern_;
  bool uniform_ = false;
  std::uint32_t silent_ = 0;
  std::uint32_t working_ = 0;  ///< random patterns: the nodes that send and receive
  std::uint64_t pairs_ = 0;
  /// Fixed patterns: the sources mapped onto node d are by_dest_[first_[d] .. first_[d+1]).
  std::vector<std::uint32_t> first_;
  std::vector<std::uint32_t> by_dest_;
  std::vector<std::uint32_t> hot_draws_;  ///< hotspot: [node] -> list entries naming it
};

}  // namespace wormnet
