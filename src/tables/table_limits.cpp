#include "wormnet/tables/table_limits.hpp"

#include <string>

#include "wormnet/core/error.hpp"
#include "wormnet/tables/routing_graph.hpp"

namespace wormnet::tables {

const Torus& require_table_topology(const Topology& topo, std::string_view option) {
  if (topo.kind() != TopologyKind::kTorus) {
    throw InputError(std::string(option), topo.spec(),
                     "routing tables are built for tori (torus:AxB..., a size-2 dimension is a "
                     "mesh link)");
  }
  if (topo.num_nodes() > kMaxTableNodes) {
    throw InputError(
        std::string(option), topo.spec(),
        "a routing table holds N^2 routes: at most " + std::to_string(kMaxTableNodes) + " nodes");
  }
  const std::uint64_t vertices =
      RoutingGraph::vertices_per_node(topo.num_dims()) * topo.num_nodes();
  if (vertices >= (1ULL << 32)) {
    throw InputError(std::string(option), topo.spec(),
                     "the routing graph (3^n + 2n + 1 vertices per node) needs fewer than 2^32 "
                     "vertices");
  }
  return static_cast<const Torus&>(topo);
}

}  // namespace wormnet::tables
