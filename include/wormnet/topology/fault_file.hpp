// The fault file (docs/faults.md): failed links and nodes listed in coordinates, one a line,
//   # a comment, from '#' to the end of the line
//   link (0,0) (1,0)   # the link joining two neighbours (both directions fail)
//   link (3,1) X+      # the link leaving (3,1) in direction X+
//   node (2,2)         # a node and all its links
// with coordinates as wormnet prints them (info, verify: "(x,y,z)" on the honeycombs, one per
// dimension on tori and meshes). Blank lines are ignored.
#pragma once

#include <string>
#include <string_view>

#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Longest line of a fault file (characters); a longer one is refused rather than read.
inline constexpr std::size_t kMaxFaultLine = 4096;

/// Records the faults `text` (a fault file's contents) lists in `faults`, a set of `topo`.
/// Every problem is an InputError naming `option` and `path` with the line number and what is
/// wrong: a line other than "link A B", "link A DIR" or "node A", coordinates of no node of
/// the topology, two nodes that no link joins, a direction in which the node has no link, a
/// link or node listed twice, a link of a node listed as failed.
void read_fault_list(const Topology& topo, std::string_view text, const std::string& option,
                     const std::string& path, FaultSet& faults);

}  // namespace wormnet
