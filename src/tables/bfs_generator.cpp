#include "wormnet/tables/bfs_generator.hpp"

#include "stopwatch.hpp"
#include "wormnet/tables/route_search.hpp"
#include "wormnet/tables/shared_weights.hpp"
#include "wormnet/tables/source_partition.hpp"

namespace wormnet::tables {

std::vector<NodeId> max_remote_order(const Torus& topo, const FaultSet* faults) {
  const std::uint32_t n = topo.num_nodes();
  const int dims = topo.num_dims();
  // Coordinates once, then ring distances by table: the O(N^2) scan stays cheap.
  std::vector<std::uint16_t> coord(static_cast<std::size_t>(n) * static_cast<std::size_t>(dims));
  for (std::uint32_t u = 0; u < n; ++u) {
    for (int i = 0; i < dims; ++i) {
      coord[static_cast<std::size_t>(u) * static_cast<std::size_t>(dims) +
            static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(topo.coord(NodeId(u), i));
    }
  }
  std::vector<std::vector<std::uint16_t>> ring(static_cast<std::size_t>(dims));
  for (int i = 0; i < dims; ++i) {
    const int k = topo.size(i);
    auto& r = ring[static_cast<std::size_t>(i)];
    r.resize(static_cast<std::size_t>(k) * static_cast<std::size_t>(k));
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b < k; ++b) {
        r[static_cast<std::size_t>(a * k + b)] =
            static_cast<std::uint16_t>(topo.ring_distance(i, a, b));
      }
    }
  }
  std::vector<NodeId> order;
  order.reserve(n);
  std::vector<std::uint8_t> done(n, 0);
  std::uint32_t current = 0;
  std::uint32_t sources = n;
  if (faults != nullptr && !faults->empty()) {
    // A failed node is never a source: marked done from the start.
    for (std::uint32_t v = 0; v < n; ++v) done[v] = faults->node_failed(NodeId(v)) ? 1 : 0;
    sources = faults->working_nodes();
    while (done[current] != 0) ++current;
  }
  for (std::uint32_t step = 0; step < sources; ++step) {
    order.push_back(NodeId(current));
    done[current] = 1;
    int best = -1;
    std::uint32_t next = 0;
    const std::uint16_t* a =
        &coord[static_cast<std::size_t>(current) * static_cast<std::size_t>(dims)];
    for (std::uint32_t v = 0; v < n; ++v) {
      if (done[v]) continue;
      const std::uint16_t* b = &coord[static_cast<std::size_t>(v) * static_cast<std::size_t>(dims)];
      int dist = 0;
      for (int i = 0; i < dims; ++i) {
        dist +=
            ring[static_cast<std::size_t>(i)]
                [static_cast<std::size_t>(a[i]) * static_cast<std::size_t>(topo.size(i)) + b[i]];
      }
      if (dist > best) {
        best = dist;
        next = v;
      }
    }
    current = next;
  }
  return order;
}

void generate_bfs(const RoutingGraph& graph, const GeneratorOptions& options,
                  const Communicator& comm, RouteTable& table, GenerationStats& stats) {
  const Torus& topo = graph.topology();
  const std::uint32_t n = topo.num_nodes();
  const std::vector<NodeId> order = max_remote_order(topo, graph.faults());
  const auto sources = static_cast<std::uint64_t>(order.size());
  SharedWeights weights(topo, comm);
  RouteSearch search(graph);
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  const auto sync = static_cast<std::uint64_t>(options.sync_sources);
  const std::uint64_t per_round = ranks * sync;
  std::vector<NodeId> mine;
  for (std::uint64_t round = 0; round * per_round < sources; ++round) {
    for (std::uint64_t j = 0; j < sync; ++j) {
      const std::uint64_t at =
          round * per_round + static_cast<std::uint64_t>(comm.rank()) * sync + j;
      if (at >= sources) break;
      const NodeId s = order[at];
      auto row = table.words().subspan(static_cast<std::size_t>(s.value()) * n, n);
      search.bfs_routes(s, weights.current(), row);
      for (std::uint32_t d = 0; d < n; ++d) {
        if (d != s.value() && row[d] != kNoRoute) weights.add_route(s, NodeId(d), row[d]);
      }
      mine.push_back(s);
    }
    weights.exchange();
  }
  const Stopwatch rows;
  share_rows(table, mine, comm);
  stats.rows_seconds = rows.wall();
  stats.rows_cpu_seconds = rows.cpu();
  stats.exchange_seconds = weights.exchange_seconds();
  stats.exchange_cpu_seconds = weights.exchange_cpu_seconds();
  stats.exchanges = weights.exchanges();
  stats.expanded = comm.sum(search.expanded());
}

}  // namespace wormnet::tables
