// Stojmenovic's routing on a honeycomb torus: toward the nearest image of the destination
// (the shortest way round the torus; on a tie between images, the lexicographically smallest
// offset, a choice that a hop toward it never changes), along the coordinate with the largest
// remaining offset, XYZ on ties. Minimal and deterministic.
// - `stojmenovic`: one VC. Its CDG is cyclic (a hexagon closes one, or a 4-cycle on HT_1,
//   HReT(4,4) and HRoT(2,4), whose girth is 4).
// - `stojmenovic-dateline`: the dateline VCs of a torus carried over (VC = dateline level,
//   see HoneycombTorusWays): no dependency cycle goes round the torus any more, but on every
//   torus except the four smallest (HT_1, HReT(2,4), HReT(4,4), HRoT(2,4), where `verify`
//   proves it acyclic) the hexagons of one level still close cycles; `verify` shows one. The
//   honeycomb needs the Double XY split too (DoubleXyDatelineRouting).
#pragma once

#include "wormnet/routing/honeycomb_torus_ways.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"

namespace wormnet {

class TorusStojmenovicRouting final : public RoutingFunction {
 public:
  /// Throws InputError naming --routing when the dateline variant needs more than kMaxVcs VCs.
  TorusStojmenovicRouting(const HoneycombTorus& topo, bool dateline);
  [[nodiscard]] std::string name() const override {
    return dateline_ ? routing_name::kStojmenovicDateline : routing_name::kStojmenovic;
  }
  [[nodiscard]] int vcs_required() const override { return dateline_ ? ways_.levels() : 1; }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override;
  void route(const RouteRequest& request, RouteOptions& out) const override;

  /// route() reads only the node and the destination.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  /// A translation moves every nearest image along, so the port; the dateline level (the VC
  /// of the dateline variant) stays only under translations by multiples of the periods of the
  /// dateline coordinates.
  [[nodiscard]] Translation translation_invariance() const override {
    return Translation::kOptions;
  }
  [[nodiscard]] int translation_step(ArrivalScope scope, int k) const override {
    return dateline_ && scope == ArrivalScope::kOptions ? ways_.level_step(k) : 1;
  }

 private:
  const HoneycombTorus& topo_;
  HoneycombTorusWays ways_;
  bool dateline_;
};

}  // namespace wormnet
