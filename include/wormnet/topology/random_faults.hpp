// Random failed links and nodes, drawn from a seed and the topology only (so every rank, and
// every run with the same options, draws the same set). docs/faults.md gives the algorithm.
#pragma once

#include <cstdint>

#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Fails `nodes` working nodes, then `links` working links of `faults` (a set of `topo` that
/// may hold faults already, a fault file's), drawn from `seed`:
///  - nodes from RandomStream(seed, 0), links from RandomStream(seed, 1);
///  - the candidates are the working nodes in id order (the working links by the id of their
///    + channel); a draw takes candidate uniform_int(0, count - 1) and moves the last
///    candidate into its place;
///  - unless `allow_disconnected`, a candidate whose failure would split the working nodes is
///    not failed: a node is set aside until the next node fails (its failure may then no
///    longer split them), a link is dropped for good (failing links never rejoins what one
///    link splits); the draw goes on until the count is reached.
/// At least two working nodes stay. InputError naming --fail-nodes or --fail-links when fewer
/// than asked can fail.
void draw_random_faults(const Topology& topo, FaultSet& faults, std::uint64_t nodes,
                        std::uint64_t links, std::uint64_t seed, bool allow_disconnected);

}  // namespace wormnet
