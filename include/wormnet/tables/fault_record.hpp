// Group /faults of result and table files (docs/hdf5-schema.md, docs/faults.md): what failed
// (node ids, links by their + channel, every failed channel), where the faults came from,
// what still works. Written only when the configuration asks for faults, so files without
// faults keep their layout. In tables/, below io/, since a table file records its faults too;
// io's result writer uses it from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/h5/h5_group.hpp"
#include "wormnet/topology/fault_set.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet::tables {

namespace fault_schema {
inline constexpr std::string_view kGroup = "faults";
inline constexpr std::string_view kNodes = "nodes";        // uint32 [F]: failed node ids
inline constexpr std::string_view kLinks = "links";        // uint32 [L]: failed links, + channel
inline constexpr std::string_view kChannels = "channels";  // uint32 [C]: every failed channel
}  // namespace fault_schema

/// Collective: writes group /faults under `root` when `config` asks for faults; `silenced`
/// counts the working sources a permutation maps onto a failed node (result files; 0 for a
/// table file).
void write_faults(const io::H5Group& root, const Topology& topo, const FaultSet& faults,
                  const FaultConfig& config, std::uint64_t silenced = 0);

/// The failed nodes and links a file records: empty lists when it has no /faults group.
/// H5Error when the group is there but its datasets are not uint32 lists.
struct RecordedFaults {
  std::vector<std::uint32_t> nodes;  ///< sorted node ids
  std::vector<std::uint32_t> links;  ///< sorted + channel ids
};
RecordedFaults read_faults(const io::H5Group& root);

/// Whether `recorded` are the failures of `faults` (nodes and links, in any order).
bool same_faults(const RecordedFaults& recorded, const FaultSet& faults);

}  // namespace wormnet::tables
