#include "wormnet/tables/sssp_generator.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "stopwatch.hpp"
#include "wormnet/tables/route_search.hpp"
#include "wormnet/tables/shared_weights.hpp"
#include "wormnet/tables/source_partition.hpp"
#include "wormnet/tables/unique_routes.hpp"

namespace wormnet::tables {

namespace {

/// A pair left for stage 2 with its group key (turns, then length).
struct Pending {
  std::uint32_t key;
  std::uint32_t s;
  std::uint32_t d;
};

}  // namespace

void generate_sssp(const RoutingGraph& graph, const GeneratorOptions& options,
                   const Communicator& comm, RouteTable& table, GenerationStats& stats) {
  const Torus& topo = graph.topology();
  const std::uint32_t n = topo.num_nodes();
  SharedWeights weights(topo, comm);
  RouteSearch search(graph);
  const SourceBlock block = source_block(n, comm.rank(), comm.size());
  // Group keys: (turns, length). Without faults a route is as long as the torus distance;
  // with them, a shortest legal route is at most an FS step, every ring or line once along,
  // and an LS step.
  std::uint32_t lengths = static_cast<std::uint32_t>(topo.diameter()) + 1;
  if (search.faulty()) {
    lengths = 3;
    for (int i = 0; i < topo.num_dims(); ++i)
      lengths += static_cast<std::uint32_t>(topo.size(i) - 1);
  }
  const auto num_keys = static_cast<std::uint32_t>(topo.num_dims()) * lengths;

  // Stage 1: unique routes.
  std::vector<Pending> pending;
  const std::uint64_t unique_pairs = split_unique_routes(
      search, block, table,
      [&](std::uint32_t s, std::uint32_t d, RouteWord route) {
        weights.add_route(NodeId(s), NodeId(d), route);
      },
      [&](std::uint32_t s, std::uint32_t d) {
        const int length =
            search.faulty() ? search.route_length(NodeId(d)) : topo.distance(NodeId(s), NodeId(d));
        const auto key = static_cast<std::uint32_t>(search.turns(NodeId(s), NodeId(d))) * lengths +
                         static_cast<std::uint32_t>(length);
        pending.push_back({key, s, d});
      });
  weights.exchange();

  // Stage 2: sort and group. Pairs were made in (s, d) order, so a stable sort by key gives
  // (key, s, d).
  std::stable_sort(pending.begin(), pending.end(),
                   [](const Pending& a, const Pending& b) { return a.key < b.key; });
  // Runs of one (key, source): [first, last) in `pending`.
  struct Run {
    std::uint32_t key;
    std::size_t first;
    std::size_t last;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < pending.size();) {
    std::size_t j = i;
    while (j < pending.size() && pending[j].key == pending[i].key && pending[j].s == pending[i].s)
      ++j;
    runs.push_back({pending[i].key, i, j});
    i = j;
  }
  std::vector<std::uint64_t> sources_in_key(num_keys, 0);
  for (const Run& r : runs) ++sources_in_key[r.key];
  comm.max(sources_in_key);

  const std::uint64_t base = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n);
  const auto sync = static_cast<std::uint64_t>(options.sync_sources);
  std::vector<std::uint32_t> stamp(topo.num_channels(), 0);
  std::uint32_t round_id = 0;
  std::vector<NodeId> dests;
  std::vector<RouteWord> routes;
  std::vector<std::uint16_t> first_ports;
  std::vector<std::size_t> left;
  std::vector<std::size_t> rest;
  std::vector<std::uint32_t> applied;
  RouteSearch::RouteSet choices;
  std::vector<std::uint32_t> option_first;  // [destination]: its first route in options
  std::uint64_t calls = 0;
  std::uint64_t groups = 0;
  std::size_t next_run = 0;
  for (std::uint32_t key = 0; key < num_keys; ++key) {
    if (sources_in_key[key] == 0) continue;
    ++groups;
    const std::size_t first_run = next_run;
    while (next_run < runs.size() && runs[next_run].key == key) ++next_run;
    const std::size_t mine = next_run - first_run;
    const std::uint64_t batches = (sources_in_key[key] + sync - 1) / sync;
    for (std::uint64_t b = 0; b < batches; ++b) {
      for (std::size_t r = first_run + b * sync;
           r < first_run + std::min<std::size_t>(mine, (b + 1) * sync); ++r) {
        const NodeId s(pending[runs[r].first].s);
        dests.clear();
        for (std::size_t i = runs[r].first; i < runs[r].last; ++i)
          dests.push_back(NodeId(pending[i].d));
        routes.resize(dests.size());
        first_ports.resize(dests.size());
        search.build_sssp(s, dests, weights.current(), base, routes, first_ports,
                          search.faulty() ? static_cast<int>(key % lengths) : -1);
        ++calls;
        // Every destination's routes in BUILD_SSSP's order of preference, for the later calls.
        choices.clear();
        option_first.assign(1, 0);
        for (std::size_t i = 0; i < dests.size(); ++i) {
          search.routes_of(i, choices);
          option_first.push_back(static_cast<std::uint32_t>(choices.size()));
        }
        left.resize(dests.size());
        std::iota(left.begin(), left.end(), std::size_t{0});
        for (bool first_round = true; !left.empty(); first_round = false) {
          if (!first_round) ++calls;  // BUILD_SSSP again for the destinations left
          if (++round_id == 0) {
            std::fill(stamp.begin(), stamp.end(), 0);
            round_id = 1;
          }
          std::uint16_t taken = 0;  // first ports of the routes applied in this round
          rest.clear();
          applied.clear();
          const auto w = weights.current();
          for (std::size_t i : left) {
            std::uint32_t pick = option_first[i];
            if (first_round) {
              while (choices.words[pick] != routes[i]) ++pick;
            } else {
              // All routes of i start on ports already taken in this round: whatever
              // BUILD_SSSP finds crosses an applied route, so i waits for the next round.
              if ((first_ports[i] & ~taken) == 0) {
                rest.push_back(i);
                continue;
              }
              // BUILD_SSSP's route: the first of i's routes with the least weight (each
              // route has the same length, so the |N|^2 per edge does not change the order).
              std::uint64_t best = ~std::uint64_t{0};
              for (std::uint32_t o = option_first[i]; o < option_first[i + 1]; ++o) {
                std::uint64_t sum = 0;
                for (std::uint32_t k = choices.first[o]; k < choices.first[o + 1]; ++k) {
                  sum += w[choices.channels[k]];
                }
                if (sum < best) {
                  best = sum;
                  pick = o;
                }
              }
            }
            const std::span<const std::uint32_t> path(
                choices.channels.data() + choices.first[pick],
                choices.first[pick + 1] - choices.first[pick]);
            bool crosses = false;
            for (std::uint32_t c : path) crosses = crosses || stamp[c] == round_id;
            if (crosses) {
              rest.push_back(i);
              continue;
            }
            for (std::uint32_t c : path) stamp[c] = round_id;
            taken = static_cast<std::uint16_t>(taken | (1U << choices.first_port[pick]));
            applied.push_back(pick);
            table.set(s, dests[i], choices.words[pick]);
          }
          // The round's routes were all found with the weights of its start; now they count.
          for (std::uint32_t o : applied) {
            weights.add_channels(
                std::span<const std::uint32_t>(choices.channels.data() + choices.first[o],
                                               choices.first[o + 1] - choices.first[o]));
          }
          left.swap(rest);
        }
      }
      weights.exchange();
    }
  }

  std::vector<NodeId> own;
  for (std::uint32_t s = block.begin; s < block.end; ++s) own.push_back(NodeId(s));
  const Stopwatch rows;
  share_rows(table, own, comm);
  stats.rows_seconds = rows.wall();
  stats.rows_cpu_seconds = rows.cpu();
  stats.exchange_seconds = weights.exchange_seconds();
  stats.exchange_cpu_seconds = weights.exchange_cpu_seconds();
  stats.exchanges = weights.exchanges();
  stats.expanded = comm.sum(search.expanded());
  stats.unique_pairs = comm.sum(unique_pairs);
  stats.build_sssp_calls = comm.sum(calls);
  stats.groups = groups;
}

}  // namespace wormnet::tables
