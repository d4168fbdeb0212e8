// Where the processes of a workload run: a map from process number to node id, with the same
// number of processes on every node (one per node: a bijection). The mappings and their names
// are the configuration's (ProcessMapping, config/workload_config.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wormnet/config/workload_config.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// The block of `per_node` processes that kTopology puts on one node: a box of the process
/// grid, one side per grid dimension, each dividing the grid's, their product per_node; the
/// most nearly cubic (smallest longest side, then the grid of blocks the most nearly cubic,
/// then the earlier dimensions longer). One exists whenever per_node divides the grid's
/// product: every prime power of per_node divides the product, so its factors can be
/// spread over dimensions whose sizes hold them. Empty otherwise.
std::vector<int> node_block(std::span<const int> grid, std::uint32_t per_node);

/// node_of[p] for every process of `grid` (product = per_node x topo.num_nodes()), per_node
/// processes on every node. kLinear puts processes p = K n .. K n + K - 1 on node n; kRandom
/// puts the same blocks on the nodes of a Fisher-Yates permutation drawn from `seed`.
/// kTopology cuts the grid into boxes of node_block() and halves the
/// grid of boxes across its longest dimension and the nodes across their widest extent
/// (torus and mesh: their coordinates; H_t and the honeycomb tori: the hexagonal drawing),
/// recursively, so grid neighbours land on the same or nearby nodes; a grid of boxes with the
/// topology's own dimensions lands on it one to one.
std::vector<std::uint32_t> map_processes(ProcessMapping mapping, const Topology& topo,
                                         std::span<const int> grid, std::uint64_t seed,
                                         std::uint32_t per_node = 1);

}  // namespace wormnet
