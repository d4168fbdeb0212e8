#include "wormnet/routing/ring_class_routing.hpp"

#include "wormnet/routing/routing_names.hpp"

namespace wormnet {

std::string RingClassRouting::name() const {
  switch (policy_) {
    case RingClassPolicy::kWrap:
      return routing_name::kDorRingClass;
    case RingClassPolicy::kBookSim:
      return routing_name::kDorBooksim;
    case RingClassPolicy::kBalanced:
      return routing_name::kDorBalanced;
  }
  return "?";
}

std::string RingClassRouting::description() const {
  std::string s;
  switch (policy_) {
    case RingClassPolicy::kWrap:
      s = "dimension-order routing, VC class chosen at ring entry (1 if the route wraps)";
      break;
    case RingClassPolicy::kBookSim:
      s = "BookSim's dim_order_torus: class at ring entry, + as dor-ring-class, - mirrored";
      break;
    case RingClassPolicy::kBalanced:
      s = "dimension-order routing, two datelines (Cray partition: wrap -> 1, middle -> 0, "
          "else drawn)";
      break;
  }
  return s + (ties_.drawn() ? ", half-ring ties drawn per packet" : "") + ", 2 VCs";
}

VcMask RingClassRouting::entry_classes(int dim, int c, int e, int dir, RouteState state) const {
  if (!topo_.is_ring(dim)) return 1;  // a line: no cycle to break
  const bool wraps = wraps_ahead(dir, c, e);
  switch (policy_) {
    case RingClassPolicy::kWrap:
      return wraps ? 2 : 1;
    case RingClassPolicy::kBookSim:
      return (dir > 0 ? wraps : !wraps) ? 2 : 1;
    case RingClassPolicy::kBalanced: {
      if (wraps) return 2;
      const int m = (topo_.size(dim) - 1) / 2;  // the middle link joins m and m + 1
      const bool middle = dir > 0 ? (c <= m && e > m) : (c > m && e <= m);
      if (middle) return 1;
      return state == 1 ? 2 : 1;  // either class: the one the packet drew
    }
  }
  return 1;
}

void RingClassRouting::route(const RouteRequest& request, RouteOptions& out) const {
  for (int d = 0; d < topo_.num_dims(); ++d) {
    const int c = topo_.coord(request.node, d);
    const int e = topo_.coord(request.dest, d);
    const int dir = ring_direction(topo_, d, c, e, ties_.drawn() && RingTies::minus(request.state));
    if (dir == 0) continue;
    const bool same_dim =
        request.in_port != kInjectionPort && Topology::port_dim(request.in_port) == d;
    // Inside a ring the packet keeps the class it took on entry.
    const VcMask vcs = same_dim ? static_cast<VcMask>(1U << request.in_vc)
                                : entry_classes(d, c, e, dir, request.state);
    out.add(Topology::port_of(d, dir), vcs, request.state);
    return;
  }
}

}  // namespace wormnet
