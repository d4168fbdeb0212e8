// Shortest ways and dateline levels on a honeycomb torus: what every honeycomb-torus routing
// is written in (docs/honeycomb-tori.md).
//
// Ways. A packet may head for any nearest image of its destination (the shortest way round
// the torus, chosen for all coordinates together); a port is minimal when it shortens the
// way toward at least one of them.
//
// Dateline levels. Coordinates x and y (or whichever pair needs the fewest levels) each have
// a period P on the torus (every wraparound translation moves them by multiples of P), so
// "x crosses a multiple of P" is a set of X channels, a dateline, and likewise for y; every
// cycle of links that goes round the torus crosses one of the two. Along any shortest way
// toward a fixed image each coordinate moves monotonically, so the number of dateline
// crossings left, rem, is the same on every shortest way; rem_max(u, d) = max over the
// nearest images of d seen from u. Along ANY minimal path (adaptive or not) rem_max never
// grows, and it drops by at least one on a hop that crosses a dateline. The level of a hop
// into node m toward d is levels() - 1 - rem_max(m, d): non-decreasing along every minimal
// path and strictly increasing across a dateline, so the channels of one level hold no
// dependency that goes round the torus.
#pragma once

#include <array>

#include "wormnet/topology/honeycomb_torus.hpp"

namespace wormnet {

class HoneycombTorusWays {
 public:
  explicit HoneycombTorusWays(const HoneycombTorus& topo);

  /// Number of dateline levels: 1 + the most crossings any shortest way can have (an upper
  /// bound computed from the ways of one black and one white node, with every start residue).
  [[nodiscard]] int levels() const { return levels_; }
  /// The two coordinates that carry datelines (0 = x, 1 = y, 2 = z).
  [[nodiscard]] const std::array<int, 2>& dateline_coords() const { return coords_; }
  /// The translations that keep every level move coordinate k by multiples of this step: the
  /// period of a dateline coordinate (the levels read it modulo its period), else 1 (the
  /// nearest images move along with any translation). For translation_step() declarations.
  [[nodiscard]] int level_step(int k) const {
    return k == coords_[0] || k == coords_[1] ? topo_.period(k) : 1;
  }
  /// Level of a hop that arrives at `next` bound for `dest` (in [0, levels())).
  [[nodiscard]] int level_into(NodeId next, NodeId dest) const;
  /// The same for the hop from `node` on port `p`, from `images`, the nearest images of the
  /// destination seen from `node`: those at the next node are the ones the hop shortens, each
  /// with the crossings left minus this hop's (no second image search).
  [[nodiscard]] int level_of_hop(NodeId node, const HoneycombTorus::Images& images, PortId p) const;
  /// Dateline crossings left on a shortest way from `from` along `offset`.
  [[nodiscard]] int crossings(NodeId from, const HoneycombTorus::Offset& offset) const;
  /// True when moving along coordinate k with this node's link sign shortens `offset`.
  [[nodiscard]] static bool shortens(const HoneycombTorus::Offset& offset, int k, bool black) {
    const int w = offset[static_cast<std::size_t>(k)];
    return black ? w > 0 : w < 0;
  }

 private:
  const HoneycombTorus& topo_;
  std::array<int, 2> coords_{0, 1};
  int levels_ = 1;
};

}  // namespace wormnet
