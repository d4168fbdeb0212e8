// Stage 1 shared by the genetic and SSSP generators (the paper routes the pairs with a
// single minimal route first: they have no choice, and their load is known before any
// choice is made).
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/route_search.hpp"
#include "wormnet/tables/source_partition.hpp"

namespace wormnet::tables {

/// For every pair (s, d) with s in `block` and d != s, in (s, d) order: a pair with exactly
/// one minimal route gets it in `table` and goes to on_unique(s, d, route); any other pair
/// goes to on_many(s, d), while the search state of count_routes(s) is still current (as
/// RouteSearch::enumerate_routes needs). Returns the number of single-route pairs. With
/// faults (the search's graph has them), a failed source is skipped and a pair without a
/// legal route goes nowhere (its word stays kNoRoute); "minimal" means shortest legal.
template <class OnUnique, class OnMany>
std::uint64_t split_unique_routes(RouteSearch& search, SourceBlock block, RouteTable& table,
                                  OnUnique&& on_unique, OnMany&& on_many) {
  const std::uint32_t n = search.topology().num_nodes();
  std::vector<std::uint32_t> counts(n);
  std::vector<RouteWord> unique(n);
  std::uint64_t unique_pairs = 0;
  const FaultSet* faults = search.graph().faults();
  for (std::uint32_t s = block.begin; s < block.end; ++s) {
    if (faults != nullptr && faults->node_failed(NodeId(s))) continue;
    search.count_routes(NodeId(s), counts, unique);
    for (std::uint32_t d = 0; d < n; ++d) {
      if (d == s || counts[d] == 0) continue;  // 0: no legal route (faults only)
      if (counts[d] == 1) {
        table.set(NodeId(s), NodeId(d), unique[d]);
        on_unique(s, d, unique[d]);
        ++unique_pairs;
      } else {
        on_many(s, d);
      }
    }
  }
  return unique_pairs;
}

}  // namespace wormnet::tables
