// How the rank-parallel generators split the sources: each rank routes a contiguous block
// of node ids (a slab of the torus, dimension 0 fastest), and the finished rows are shared
// so that every rank holds the whole table.
#pragma once

#include <cstdint>
#include <span>

#include "wormnet/core/ids.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/route_table.hpp"

namespace wormnet::tables {

/// Sources [begin, end) of `rank` out of `ranks` for `nodes` nodes.
struct SourceBlock {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};
[[nodiscard]] SourceBlock source_block(std::uint32_t nodes, int rank, int ranks);

/// Collective: every rank contributes the rows of `mine` from its `table`; afterwards every
/// rank's table holds every contributed row.
void share_rows(RouteTable& table, std::span<const NodeId> mine, const Communicator& comm);

}  // namespace wormnet::tables
