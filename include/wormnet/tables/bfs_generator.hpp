// The BFS table generator (Mukosey et al., Algorithms 1 and 2, after the earlier Angara
// routing work): link weights start at 0; the sources are taken in GET_MAX_REMOTE order
// (the first is node 0, each next one the not yet routed node farthest from the current
// one, ties to the lowest id); from each, a breadth-first search of the routing graph that
// queues every vertex's successors in ascending order of their link's weight builds the
// routes to all destinations, and every link of every route gains 1.
//
// Rank-parallel: the order is cut into rounds of ranks x sync sources; in a round, rank r
// routes its `sync` consecutive sources of the order with the weights of the round's start
// plus its own routes, then the ranks exchange their weight additions.
#pragma once

#include <vector>

#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/routing_graph.hpp"
#include "wormnet/tables/table_generator.hpp"

namespace wormnet::tables {

/// The GET_MAX_REMOTE source order of Algorithm 1, starting at node 0. With `faults`: the
/// working nodes only, from the first working one (the distances stay the torus's: the order
/// is a heuristic for spreading the sources).
[[nodiscard]] std::vector<NodeId> max_remote_order(const Torus& topo,
                                                   const FaultSet* faults = nullptr);

/// Fills `table` (every pair, on every rank).
void generate_bfs(const RoutingGraph& graph, const GeneratorOptions& options,
                  const Communicator& comm, RouteTable& table, GenerationStats& stats);

}  // namespace wormnet::tables
