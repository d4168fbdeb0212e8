#include "wormnet/routing/route_table.hpp"

namespace wormnet {

namespace {

constexpr RouteWord kFieldMask = 0x7;
constexpr int kLastShift = 3;
constexpr int kSignShift = 6;
constexpr RouteWord kUnusedBits = 0xF000;

}  // namespace

AngaraRoute AngaraRoute::decode(RouteWord w) {
  AngaraRoute r;
  r.first_step_dim = static_cast<int>(w & kFieldMask) - 1;
  r.last_step_dim = static_cast<int>((w >> kLastShift) & kFieldMask) - 1;
  r.minus_dims = static_cast<std::uint8_t>((w >> kSignShift) & 0x3F);
  return r;
}

RouteWord AngaraRoute::encode() const {
  return static_cast<RouteWord>(static_cast<unsigned>(first_step_dim + 1) |
                                (static_cast<unsigned>(last_step_dim + 1) << kLastShift) |
                                (static_cast<unsigned>(minus_dims) << kSignShift));
}

PortId ExpandedRoute::port_at(int h) const {
  if (first_port >= 0) {
    if (h == 0) return static_cast<PortId>(first_port);
    --h;
  }
  for (int o = 0; o < 2 * dims; ++o) {
    const int c = hops_per_direction[static_cast<std::size_t>(o)];
    if (h < c) return port_of_direction(o, dims);
    h -= c;
  }
  return static_cast<PortId>(last_port);
}

ExpandedRoute expand_route(const Torus& topo, NodeId s, NodeId d, RouteWord w) {
  ExpandedRoute plan;
  const int n = topo.num_dims();
  plan.dims = n;
  if (w == kNoRoute) {
    plan.defect = "no route";
    return plan;
  }
  const AngaraRoute r = AngaraRoute::decode(w);
  if ((w & kUnusedBits) != 0 || r.first_step_dim >= n || r.last_step_dim >= n ||
      (r.minus_dims >> n) != 0) {
    plan.defect = "malformed route word (a dimension the torus does not have)";
    return plan;
  }
  NodeId a = s;
  if (r.first_step_dim >= 0) {
    const PortId p = Topology::port_of(r.first_step_dim, 1);
    if (!topo.has_port(a, p)) {
      plan.defect = "first step leaves the network";
      return plan;
    }
    a = topo.neighbor(a, p);
    plan.first_port = p;
  }
  NodeId b = d;
  if (r.last_step_dim >= 0) {
    // The last step goes - in its dimension, so it starts one + step away from d.
    const PortId back = Topology::port_of(r.last_step_dim, 1);
    if (!topo.has_port(b, back)) {
      plan.defect = "last step leaves the network";
      return plan;
    }
    b = topo.neighbor(b, back);
    plan.last_port = Topology::port_of(r.last_step_dim, -1);
  }
  int hops = (plan.first_port >= 0 ? 1 : 0) + (plan.last_port >= 0 ? 1 : 0);
  for (int i = 0; i < n; ++i) {
    const int x = topo.coord(a, i);
    const int y = topo.coord(b, i);
    if (x == y) continue;
    const bool minus = ((r.minus_dims >> i) & 1U) != 0;
    int h = 0;
    if (topo.is_ring(i)) {
      h = topo.hops_in_direction(i, x, y, minus ? -1 : 1);
    } else if (!minus && y > x) {
      h = y - x;
    } else if (minus && y < x) {
      h = x - y;
    } else {
      plan.defect = "direction-order part leaves the network (no wrap-around link)";
      return plan;
    }
    plan.hops_per_direction[static_cast<std::size_t>(minus ? n + i : i)] =
        static_cast<std::uint16_t>(h);
    hops += h;
  }
  plan.hops = hops;
  plan.ok = true;
  return plan;
}

RouteTable::RouteTable(const Torus& topo)
    : topo_(&topo), n_(topo.num_nodes()), words_(static_cast<std::size_t>(n_) * n_, kNoRoute) {
  for (std::uint32_t s = 0; s < n_; ++s) words_[static_cast<std::size_t>(s) * n_ + s] = 0;
}

}  // namespace wormnet
