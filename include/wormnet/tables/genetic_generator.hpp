// The genetic table generator (Mukosey et al., Section IV-B). A chromosome is a routing
// table; its gene for the pair (s, d) is the number of the route the pair takes among its
// minimal routes in the (augmented) routing graph. The first generation is 100 random
// chromosomes. Each generation makes children by two-point crossover of two parents drawn
// uniformly from the population (panmixia) and mutates every gene of every child with
// probability 2% (a mutated gene takes one of the pair's other routes, uniformly); the best
// 100 of parents and children by fitness sigma(4, R) (lower is better) form the next
// generation. Stopping rule: the paper's "Genetic is terminated after 30 consecutive
// iteration or if the fitness value of next best solution less then 0.05 of fitness value of
// global best solution" is read as two conditions: stop after 30 consecutive generations that
// did not improve the best sigma(4, R), or when the best falls below 0.05 times the first
// generation's best (a good-enough table). The other reading, a generation counts only when
// it improves the best by at least 5%, is min_gain = 0.05 (docs/tables.md compares them).
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
