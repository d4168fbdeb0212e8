// Where the processes of a workload run: a map from process number to node id (one process
// per node, a bijection).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

enum class Mapping : std::uint8_t {
  kLinear,    ///< process p on node p
  kRandom,    ///< a seeded random permutation
  kTopology,  ///< recursive bisection of the process grid against the nodes' geometry
};

const std::map<std::string, Mapping>& mapping_names();

/// node_of[p] for every process of `grid` (product = topo.num_nodes()). kTopology halves
/// the process grid across its longest dimension and the nodes across their widest extent
/// (torus and mesh: their coordinates; H_t and the honeycomb tori: the hexagonal drawing),
/// recursively, so grid neighbours land on nearby nodes; a grid with the topology's own
/// dimensions lands on it one to one.
std::vector<std::uint32_t> map_processes(Mapping mapping, const Topology& topo,
                                         std::span<const int> grid, std::uint64_t seed);

}  // namespace wormnet
