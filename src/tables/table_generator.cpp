#include "wormnet/tables/table_generator.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <span>
#include <vector>

#include "wormnet/tables/bfs_generator.hpp"
#include "wormnet/tables/genetic_generator.hpp"
#include "wormnet/tables/routing_graph.hpp"
#include "wormnet/tables/sssp_generator.hpp"

namespace wormnet::tables {

const char* to_string(TableAlgorithm a) {
  switch (a) {
    case TableAlgorithm::kBfs:
      return "bfs";
    case TableAlgorithm::kGenetic:
      return "genetic";
    case TableAlgorithm::kSssp:
      return "sssp";
  }
  return "?";
}

int auto_sync_sources(std::uint32_t nodes, int ranks) {
  const auto per = static_cast<std::uint32_t>(32 * std::max(1, ranks));
  return static_cast<int>(std::max<std::uint32_t>(1, nodes / per));
}

GeneratedTable generate_table(const Torus& topo, const GeneratorOptions& requested,
                              const Communicator& comm) {
  GeneratorOptions options = requested;
  if (options.sync_sources <= 0) {
    options.sync_sources = auto_sync_sources(topo.num_nodes(), comm.size());
  }
  using Clock = std::chrono::steady_clock;
  comm.barrier();
  const auto t0 = Clock::now();
  const std::clock_t c0 = std::clock();
  GeneratedTable out;
  const CdgAugmentation augmentation(topo, options.candidates);
  out.turns = augmentation.turns();
  const RoutingGraph graph(topo, out.turns);
  const auto t1 = Clock::now();
  const std::clock_t c1 = std::clock();
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
  const auto t2 = Clock::now();
  const std::clock_t c2 = std::clock();
  // Where each rank spent its time: routing (wall, CPU), exchanges, rows.
  const double mine[GenerationStats::kRankPhases] = {
      std::chrono::duration<double>(t2 - t1).count() - st.exchange_seconds - st.rows_seconds,
      static_cast<double>(c2 - c1) / static_cast<double>(CLOCKS_PER_SEC) - st.exchange_cpu_seconds -
          st.rows_cpu_seconds,
      st.exchange_seconds, st.rows_seconds};
  const std::vector<std::uint8_t> all = comm.all_gather(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(mine), sizeof mine));
  st.rank_phases.resize(all.size() / sizeof(double));
  std::memcpy(st.rank_phases.data(), all.data(), all.size());
  st.augmentation_seconds = comm.max(std::chrono::duration<double>(t1 - t0).count());
  st.seconds = comm.max(std::chrono::duration<double>(t2 - t0).count());
  st.cpu_seconds =
      comm.max(static_cast<double>(std::clock() - c0) / static_cast<double>(CLOCKS_PER_SEC));
  st.added_turns = out.turns.count();
  st.ranks = comm.size();
  st.sync = options.sync_sources;
  return out;
}

}  // namespace wormnet::tables
