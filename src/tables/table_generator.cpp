#include "wormnet/tables/table_generator.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "stopwatch.hpp"
#include "wormnet/tables/bfs_generator.hpp"
#include "wormnet/tables/genetic_generator.hpp"
#include "wormnet/tables/routing_graph.hpp"
#include "wormnet/tables/sssp_generator.hpp"

namespace wormnet::tables {

int auto_sync_sources(std::uint32_t nodes, int ranks) {
  const auto per = static_cast<std::uint32_t>(32 * std::max(1, ranks));
  return static_cast<int>(std::max<std::uint32_t>(1, nodes / per));
}

GeneratedTable generate_table(const Torus& topo, const GeneratorOptions& requested,
                              const Communicator& comm, const FaultSet* fault_set) {
  const FaultSet* faults = fault_set != nullptr && !fault_set->empty() ? fault_set : nullptr;
  GeneratorOptions options = requested;
  if (options.sync_sources <= 0) {
    options.sync_sources = auto_sync_sources(topo.num_nodes(), comm.size());
  }
  comm.barrier();
  const Stopwatch whole;
  GeneratedTable out;
  const CdgAugmentation augmentation(topo, options.candidates, faults);
  out.turns = augmentation.turns();
  const RoutingGraph graph(topo, out.turns, faults);
  const double augmentation_seconds = whole.wall();
  const Stopwatch routing;
  out.table = std::make_shared<RouteTable>(topo);
  GenerationStats& st = out.stats;
  switch (options.algorithm) {
    case TableAlgorithm::kBfs:
      generate_bfs(graph, options, comm, *out.table, st);
      break;
    case TableAlgorithm::kGenetic:
      generate_genetic(graph, options, comm, *out.table, st);
      break;
    case TableAlgorithm::kSssp:
      generate_sssp(graph, options, comm, *out.table, st);
      break;
  }
  const double seconds = whole.wall();
  const double cpu_seconds = whole.cpu();
  // Where each rank spent its time: routing (wall, CPU), exchanges, rows.
  const double mine[GenerationStats::kRankPhases] = {
      routing.wall() - st.exchange_seconds - st.rows_seconds,
      routing.cpu() - st.exchange_cpu_seconds - st.rows_cpu_seconds, st.exchange_seconds,
      st.rows_seconds};
  const std::vector<std::uint8_t> all = comm.all_gather(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(mine), sizeof mine));
  st.rank_phases.resize(all.size() / sizeof(double));
  std::memcpy(st.rank_phases.data(), all.data(), all.size());
  st.augmentation_seconds = comm.max(augmentation_seconds);
  st.seconds = comm.max(seconds);
  st.cpu_seconds = comm.max(cpu_seconds);
  st.added_turns = out.turns.count();
  st.ranks = comm.size();
  st.sync = options.sync_sources;
  return out;
}

}  // namespace wormnet::tables
