// Which topologies the table generators and table files accept.
#pragma once

#include <string_view>

#include "wormnet/topology/torus.hpp"

namespace wormnet::tables {

/// Largest table: N^2 route words (2 bytes each) are held on every rank.
inline constexpr std::uint32_t kMaxTableNodes = 16384;

/// The torus behind `topo`, or InputError naming `option`: tables are for tori (wrap-around;
/// a size-2 dimension is a mesh link) of 1 to 6 dimensions and at most kMaxTableNodes nodes.
const Torus& require_table_topology(const Topology& topo, std::string_view option);

}  // namespace wormnet::tables
