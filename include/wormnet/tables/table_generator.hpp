// The three routing-table generators of the Angara paper (Mukosey et al., Section IV) behind
// one entry point: build the CDG augmentation and the routing graph of the torus, run the
// algorithm rank-parallel over the sources, and hand every rank the complete table.
//
// On a torus with faults (docs/faults.md, docs/tables.md section 8) the augmentation and the
// routing graph are the working network's, and every generator routes each working pair on
// one of its shortest legal routes (Angara routes over working channels only, which may be
// longer than the torus distance); a pair with no legal route keeps kNoRoute, and so do the
// pairs with a failed end.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "wormnet/core/enum_names.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/cdg_augmentation.hpp"
#include "wormnet/tables/turn_set.hpp"
#include "wormnet/topology/fault_set.hpp"

namespace wormnet::tables {

enum class TableAlgorithm : std::uint8_t {
  kBfs,      ///< Algorithms 1-2: BFS per source in GET_MAX_REMOTE order
  kGenetic,  ///< population of tables, two-point crossover, mutation, fitness sigma(4, R)
  kSssp,     ///< Algorithms 3-4: unique routes, then BUILD_SSSP by groups
};
/// The generators' names: --algorithm, --algorithms, the table file's "algorithm" attribute.
inline constexpr EnumName<TableAlgorithm> kTableAlgorithmNames[] = {
    {TableAlgorithm::kBfs, "bfs", "BFS per source in GET_MAX_REMOTE order"},
    {TableAlgorithm::kGenetic, "genetic", "a genetic search over whole tables"},
    {TableAlgorithm::kSssp, "sssp", "unique routes, then shortest paths by groups"},
};
constexpr std::span<const EnumName<TableAlgorithm>> enum_names(TableAlgorithm) {
  return kTableAlgorithmNames;
}

/// The genetic algorithm's parameters (defaults: the paper's values and our reading of its
/// stopping rule, see docs/tables.md).
struct GeneticOptions {
  int population = 100;    ///< chromosomes kept per generation
  int children = 100;      ///< children per generation (from children/2 crossovers)
  double mutation = 0.02;  ///< probability that a child's gene is changed
  int patience = 30;       ///< stop after this many consecutive generations without a gain
  /// A generation gains when it lowers the best sigma(4, R) by more than this fraction of
  /// it (0: any improvement counts).
  double min_gain = 0.0;
  /// Stop when the best sigma(4, R) falls below this fraction of the first generation's.
  double good_enough = 0.05;
  int max_generations = 1000;  ///< hard limit
  int max_variants = 255;      ///< routes kept per pair (a gene is one byte)
};

struct GeneratorOptions {
  TableAlgorithm algorithm = TableAlgorithm::kSssp;
  std::uint64_t seed = 1;  ///< genetic: random streams; the others are deterministic
  /// Sources each rank routes between two exchanges of link weights (rank-parallel runs;
  /// with one rank the weights are always current and this has no effect). 0: automatic,
  /// auto_sync_sources(N, ranks).
  int sync_sources = 0;
  GeneticOptions genetic;
  CdgAugmentation::Candidates candidates = CdgAugmentation::Candidates::kUsable;
};

/// What a generation did (the same on every rank).
struct GenerationStats {
  double seconds = 0.0;                ///< wall time, augmentation included (max over ranks)
  double cpu_seconds = 0.0;            ///< CPU time of the same (max over ranks)
  double augmentation_seconds = 0.0;   ///< CDG augmentation and routing graph
  std::uint64_t added_turns = 0;       ///< FS/LS turns the augmentation added
  std::uint64_t exchanges = 0;         ///< weight exchanges between ranks
  std::uint64_t expanded = 0;          ///< routing-graph vertices expanded, all ranks
  std::uint64_t unique_pairs = 0;      ///< ordered pairs with exactly one minimal route
  std::uint64_t build_sssp_calls = 0;  ///< SSSP: calls of BUILD_SSSP
  std::uint64_t groups = 0;            ///< SSSP: (turns, length) groups of stage 2
  std::uint64_t genes = 0;             ///< genetic: pairs with more than one route
  int generations = 0;                 ///< genetic: generations run
  int sync = 0;                        ///< sources per rank between weight exchanges
  double initial_sigma4 = 0.0;         ///< genetic: best fitness of the first population
  double final_sigma4 = 0.0;           ///< genetic: best fitness at the end
  int ranks = 1;
  /// This rank's wall time in weight exchanges (allreduces, waiting for the other ranks
  /// included) and in gathering the table rows at the end, seconds.
  double exchange_seconds = 0.0;
  double exchange_cpu_seconds = 0.0;
  double rows_seconds = 0.0;
  double rows_cpu_seconds = 0.0;
  /// Where a rank-parallel generation spends its time, every rank's kRankPhases figures in
  /// rank order: routing wall and CPU seconds (the generation without the exchanges and the
  /// rows), exchanges wall seconds (waiting for the other ranks included), rows seconds.
  static constexpr std::size_t kRankPhases = 4;
  std::vector<double> rank_phases;
};

/// The automatic --sync on `ranks` ranks: N / (32 ranks) sources per rank between exchanges,
/// at least one (64 on 8x8x8x8 and 2 ranks). So the sources routed blind to the other ranks'
/// new routes, ranks x sync, stay N/32 on any number of ranks (pi within 0.3% of the one-rank
/// table on 8x8x8x8; a fixed N/64 per rank let it drift by 2.1% on 16 ranks), and the number of
/// exchanges stays about 32 per group instead of growing the blind set. Few sources also keep
/// small tori close to the one-rank table (2D BFS drifts by 2% at 8).
[[nodiscard]] int auto_sync_sources(std::uint32_t nodes, int ranks);

struct GeneratedTable {
  std::shared_ptr<RouteTable> table;  ///< every pair, on every rank
  TurnSet turns;                      ///< the augmentation the routes may use
  GenerationStats stats;
};

/// Collective: generates a table for `topo` (which must outlive the table), around `faults`
/// (null or empty: none; the same set on every rank, outliving the call).
GeneratedTable generate_table(const Torus& topo, const GeneratorOptions& options,
                              const Communicator& comm, const FaultSet* faults = nullptr);

}  // namespace wormnet::tables
