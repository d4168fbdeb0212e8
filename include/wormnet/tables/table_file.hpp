// Routing-table files: one HDF5 file per table, holding the route words, the CDG
// augmentation's turns, the channel loads, the metrics, the proof and how the table was
// made. The layout is documented in docs/tables.md; its names are below. Loading checks the
// file's kind and schema version, that it was made for the topology at hand, and every route
// again (complete, inside the network, minimal, Angara rules with the stored turns,
// deadlock-free): a bad file is an InputError naming the option and the file, one line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/table_check.hpp"
#include "wormnet/tables/table_generator.hpp"
#include "wormnet/tables/turn_set.hpp"
#include "wormnet/topology/fault_set.hpp"

namespace wormnet::tables {

namespace table_schema {
/// Root attribute "content": what the file holds.
inline constexpr std::string_view kContentAttr = "content";
inline constexpr std::string_view kContent = "angara-routing-table";
/// Root attribute "table_schema_version" (int64): version of the layout below.
inline constexpr std::string_view kVersionAttr = "table_schema_version";
inline constexpr std::int64_t kVersion = 1;
/// Root attribute "topology": canonical spec of the torus the table was made for.
inline constexpr std::string_view kTopologyAttr = "topology";
/// Datasets.
inline constexpr std::string_view kRoutes = "routes";  // uint32 [N, N] route words
inline constexpr std::string_view kTurns = "turns";    // uint32 [N, 2n] turn masks
inline constexpr std::string_view kLoads = "loads";    // uint64 [C] gamma_c
/// With faults only (docs/tables.md section 8): route lengths (65535: no route, a failed
/// end) and their stretch over the fault-free distance (0 where there is no length).
inline constexpr std::string_view kLengths = "route_lengths";  // uint32 [N, N] hops
inline constexpr std::string_view kStretch = "stretch";        // float64 [N, N]
/// Groups holding attributes.
inline constexpr std::string_view kMetrics = "metrics";
inline constexpr std::string_view kProof = "proof";
inline constexpr std::string_view kGeneration = "generation";
}  // namespace table_schema

/// What a table file stores (pointers to the caller's objects).
struct TableFileContents {
  const RouteTable* table = nullptr;
  const TurnSet* turns = nullptr;
  const GenerationStats* stats = nullptr;
  const TableReport* report = nullptr;
  GeneratorOptions options;
  std::string version;  ///< wormnet version
  std::string git_sha;
  /// The network's faults and the options that made them (group /faults, written when the
  /// options ask for faults; docs/faults.md).
  const FaultSet* faults = nullptr;
  FaultConfig fault_config;
};

/// Collective: writes `contents` to `path` (InputError naming `option` when the file cannot
/// be created). Root's table is written; every rank passes its (identical) contents.
void write_table_file(const std::string& path, std::string_view option,
                      const TableFileContents& contents, const Communicator& comm);
/// The same into an output claimed earlier (before a long generation, so that a second run
/// on the same file is refused at once): writes its partial file, renames it over the
/// target and releases the lock. OutputError when the file system fails (the partial file
/// is removed; an earlier table stays).
void write_table_file(io::OutputFile& out, const TableFileContents& contents,
                      const Communicator& comm);

/// A table read back from a file, checked.
struct LoadedTable {
  std::shared_ptr<const RouteTable> table;
  TurnSet turns;
  std::string algorithm;  ///< "bfs", "genetic", "sssp"
  TableReport report;     ///< recomputed from the routes
};

/// Collective: reads the table in `path` for `topo` (which must outlive the table) and
/// checks it on the network with `faults`, which must be the faults the file records (its
/// group /faults; none without it). Every problem is an InputError naming `option` and `path`.
LoadedTable load_table_file(const std::string& path, std::string_view option, const Torus& topo,
                            const Communicator& comm, const FaultSet& faults = FaultSet());

}  // namespace wormnet::tables
