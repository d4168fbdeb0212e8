// The SSSP table generator (Mukosey et al., Algorithms 3 and 4).
//  1. Unique routes: count the minimal routes of every pair by a search of the routing graph
//     from every source; a pair with a single route gets it, and its links gain 1.
//  2. Sort and group: the other pairs are sorted by their number of turns in the torus
//     (dimensions in which source and destination differ, minus one), then by length, and
//     grouped by source within each (turns, length) group. For each source and its set of
//     destinations N_dst in the group: BUILD_SSSP (edge weight |N|^2 + link weight) gives a
//     route to every destination; the routes that do not cross each other (share no link;
//     the first always qualifies) are applied, their links gain 1, and BUILD_SSSP runs again
//     for the rest of N_dst until it is empty.
//
// Rank-parallel: each rank owns a block of sources. Stage 1 ends with one weight exchange.
// In stage 2 the groups are visited in order by every rank; within a group each rank takes
// its sources of the group `sync` at a time and the ranks exchange weights after each batch
// (as many batches as the rank with the most sources in the group needs).
#pragma once

#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/routing_graph.hpp"
#include "wormnet/tables/table_generator.hpp"

namespace wormnet::tables {

/// Fills `table` (every pair, on every rank).
void generate_sssp(const RoutingGraph& graph, const GeneratorOptions& options,
                   const Communicator& comm, RouteTable& table, GenerationStats& stats);

}  // namespace wormnet::tables
