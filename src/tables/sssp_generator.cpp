#include "wormnet/tables/sssp_generator.hpp"

#include <algorithm>
#include <vector>

#include "wormnet/tables/route_search.hpp"
#include "wormnet/tables/shared_weights.hpp"
#include "wormnet/tables/source_partition.hpp"

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
  const auto lengths = static_cast<std::uint32_t>(topo.diameter()) + 1;
  const auto num_keys = static_cast<std::uint32_t>(topo.num_dims()) * lengths;

  // Stage 1: unique routes.
  std::vector<std::uint32_t> counts(n);
  std::vector<RouteWord> unique(n);
  std::vector<Pending> pending;
  std::uint64_t unique_pairs = 0;
  for (std::uint32_t s = block.begin; s < block.end; ++s) {
    search.count_routes(NodeId(s), counts, unique);
    for (std::uint32_t d = 0; d < n; ++d) {
      if (d == s) continue;
      if (counts[d] == 1) {
        table.set(NodeId(s), NodeId(d), unique[d]);
        weights.add_route(NodeId(s), NodeId(d), unique[d]);
        ++unique_pairs;
      } else {
        const auto key = static_cast<std::uint32_t>(search.turns(NodeId(s), NodeId(d))) * lengths +
                         static_cast<std::uint32_t>(topo.distance(NodeId(s), NodeId(d)));
        pending.push_back({key, s, d});
      }
    }
  }
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
  std::vector<NodeId> rest;
  std::vector<RouteWord> routes;
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
        while (!dests.empty()) {
          routes.resize(dests.size());
          search.build_sssp(s, dests, weights.current(), base, routes);
          ++calls;
          if (++round_id == 0) {
            std::fill(stamp.begin(), stamp.end(), 0);
            round_id = 1;
          }
          rest.clear();
          for (std::size_t i = 0; i < dests.size(); ++i) {
            const RoutePlan plan = plan_route(topo, s, dests[i], routes[i]);
            bool crosses = false;
            for_each_channel(topo, s, plan, [&](ChannelId c) {
              crosses = crosses || stamp[c.value()] == round_id;
            });
            if (crosses) {
              rest.push_back(dests[i]);
              continue;
            }
            for_each_channel(topo, s, plan, [&](ChannelId c) { stamp[c.value()] = round_id; });
            table.set(s, dests[i], routes[i]);
            weights.add_route(s, dests[i], routes[i]);
          }
          dests.swap(rest);
        }
      }
      weights.exchange();
    }
  }

  std::vector<NodeId> own;
  for (std::uint32_t s = block.begin; s < block.end; ++s) own.push_back(NodeId(s));
  share_rows(table, own, comm);
  stats.exchanges = weights.exchanges();
  stats.expanded = comm.sum(search.expanded());
  stats.unique_pairs = comm.sum(unique_pairs);
  stats.build_sssp_calls = comm.sum(calls);
  stats.groups = groups;
}

}  // namespace wormnet::tables
