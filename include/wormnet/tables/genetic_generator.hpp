// The genetic table generator (Mukosey et al., Section IV-B). A chromosome is a routing
// table; its gene for the pair (s, d) is the number of the route the pair takes among its
// minimal routes in the (augmented) routing graph. The first generation is 100 random
// chromosomes. Each generation makes children by two-point crossover of two parents drawn
// uniformly from the population (panmixia) and mutates every gene of every child with
// probability 2% (a mutated gene takes one of the pair's other routes, uniformly); the best
// 100 of parents and children by fitness sigma(4, R) (lower is better) form the next
// generation. Stopping rule, our reading of the paper's ("terminated after 30 consecutive
// iterations or if the fitness value of next best solution less than 0.05 of fitness value
// of global best solution"): stop when 30 consecutive generations each lowered the best
// sigma(4, R) by less than 5% of it, when sigma(4, R) reaches 0, or at the generation limit.
//
// Genes are indexed by pair (s * N + d) for crossover points and mutation, as in the paper's
// chromosome of all pairs; pairs with a single route are kept out of storage (a crossover or
// mutation there changes nothing). Rank-parallel: each rank stores the genes of its block of
// sources for the whole population and computes their share of every chromosome's channel
// loads; one allreduce per generation sums the children's load changes. Every random draw
// comes from a stream keyed by (seed, generation, child) over the global pair index, so
// the result does not depend on the number of ranks.
#pragma once

#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/routing_graph.hpp"
#include "wormnet/tables/table_generator.hpp"

namespace wormnet::tables {

/// Fills `table` (every pair, on every rank).
void generate_genetic(const RoutingGraph& graph, const GeneratorOptions& options,
                      const Communicator& comm, RouteTable& table, GenerationStats& stats);

}  // namespace wormnet::tables
