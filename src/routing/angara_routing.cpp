#include "wormnet/routing/angara_routing.hpp"

#include <array>

namespace wormnet {

void AngaraRouting::route(const RouteRequest& request, RouteOptions& out) const {
  const int n = topo_.num_dims();
  // allowed[d] bit 0: + is minimal, bit 1: - is minimal (both on a ring tie); 0 when done.
  std::array<unsigned, 6> allowed{};
  for (int d = 0; d < n; ++d) {
    const int a = topo_.coord(request.node, d);
    const int b = topo_.coord(request.dest, d);
    if (a == b) continue;
    if (!topo_.is_ring(d)) {
      allowed[static_cast<std::size_t>(d)] = b > a ? 1U : 2U;
      continue;
    }
    const int fwd = topo_.hops_in_direction(d, a, b, 1);
    const int bwd = topo_.size(d) - fwd;
    allowed[static_cast<std::size_t>(d)] = fwd < bwd ? 1U : (bwd < fwd ? 2U : 3U);
  }
  // Latest direction in the order that every unfinished dimension can still be served by:
  // a dimension's last chance is its - direction if allowed, else its + direction.
  int deadline = 2 * n;
  for (int d = 0; d < n; ++d) {
    const unsigned a = allowed[static_cast<std::size_t>(d)];
    if (a == 0) continue;
    const int last = (a & 2U) ? n + d : d;
    deadline = last < deadline ? last : deadline;
  }
  const int since =
      request.in_port == kInjectionPort ? 0 : order(Topology::reverse_port(request.in_port));
  for (int o = since; o <= deadline && o < 2 * n; ++o) {
    const int d = o < n ? o : o - n;
    const unsigned bit = o < n ? 1U : 2U;
    if (allowed[static_cast<std::size_t>(d)] & bit) {
      out.add(Topology::port_of(d, o < n ? 1 : -1), 1);
    }
  }
}

}  // namespace wormnet
