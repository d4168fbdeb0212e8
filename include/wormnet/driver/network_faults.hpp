// The failed links and nodes a configuration asks for (docs/faults.md), built once for every
// command: the fault file (read by root, its text shared, so every rank parses the same
// bytes), then the random nodes and links drawn from --fault-seed. What `info`, `verify`,
// `tables`, `run` and `sweep` share.
#pragma once

#include <memory>
#include <string>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Longest fault file read (bytes): far more than a list of every link of the largest network
/// a rank can hold needs lines for; a larger file is refused rather than read.
inline constexpr std::uint64_t kMaxFaultFileBytes = std::uint64_t{1} << 30;

/// Collective: the faults of `config` on `topo` (which must outlive them); an empty set when
/// it asks for none. InputError naming the option: a fault file that cannot be read or is
/// bad (fault_file.hpp), a random draw that cannot be made (random_faults.hpp), fewer than
/// two working nodes, or, unless config.allow_disconnected, working nodes that no longer
/// reach each other (naming such a pair).
std::unique_ptr<FaultSet> build_faults(const Topology& topo, const FaultConfig& config,
                                       const Communicator& comm);

/// One line: what failed, where it came from, what still works, e.g. "1 failed link, 1
/// failed node (file f.txt; 0 random nodes, 1 random link, seed 3): 15 of 16 nodes and 27 of
/// 32 links work". "none" without faults.
std::string describe_faults(const Topology& topo, const FaultSet& faults,
                            const FaultConfig& config);

}  // namespace wormnet
