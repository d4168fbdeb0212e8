#include "wormnet/tables/table_check.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "stopwatch.hpp"
#include "wormnet/tables/direction.hpp"
#include "wormnet/tables/route_search.hpp"
#include "wormnet/tables/routing_graph.hpp"
#include "wormnet/tables/source_partition.hpp"
#include "wormnet/topology/working_network.hpp"
#include "wormnet/verify/channel_dependency_graph.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::tables {

namespace {

/// First and last direction of the direction-order part of a plan, -1 when it is empty.
std::pair<Direction, Direction> middle_ends(const ExpandedRoute& plan) {
  Direction first = -1;
  Direction last = -1;
  for (int o = 0; o < 2 * plan.dims; ++o) {
    if (plan.hops_per_direction[static_cast<std::size_t>(o)] == 0) continue;
    if (first < 0) first = o;
    last = o;
  }
  return {first, last};
}

/// Working pairs without a route, listed by the check (in (source, destination) order).
constexpr std::size_t kUnroutableExamples = 5;

}  // namespace

const char* angara_rule_defect(const Torus& topo, const TurnSet& turns, NodeId s, NodeId d,
                               const ExpandedRoute& plan) {
  const int n = topo.num_dims();
  const auto [first, last] = middle_ends(plan);
  if (plan.first_port >= 0 && first >= 0) {
    const Direction fs = direction_of(static_cast<PortId>(plan.first_port), n);
    if (first < fs) {
      const NodeId at = topo.neighbor(s, static_cast<PortId>(plan.first_port));
      if (((turns.at(at, fs) >> first) & 1U) == 0) {
        return "its first step turns against the direction order where no FS turn was added";
      }
    }
  }
  if (plan.last_port >= 0 && last >= 0) {
    const Direction ls = direction_of(static_cast<PortId>(plan.last_port), n);
    if (last > ls) {
      const NodeId at =
          topo.neighbor(d, Topology::reverse_port(static_cast<PortId>(plan.last_port)));
      if (((turns.at(at, last) >> ls) & 1U) == 0) {
        return "its last step turns against the direction order where no LS turn was added";
      }
    }
  }
  return nullptr;
}

std::vector<std::uint16_t> route_lengths(const RouteTable& table, const FaultSet* faults) {
  const Torus& topo = table.topology();
  const std::uint32_t n = topo.num_nodes();
  std::vector<std::uint16_t> out(static_cast<std::size_t>(n) * n, kNoLength);
  for (std::uint32_t s = 0; s < n; ++s) {
    if (faults != nullptr && faults->node_failed(NodeId(s))) continue;
    for (std::uint32_t d = 0; d < n; ++d) {
      if (faults != nullptr && faults->node_failed(NodeId(d))) continue;
      const std::size_t at = static_cast<std::size_t>(s) * n + d;
      if (s == d) {
        out[at] = 0;
        continue;
      }
      const RouteWord w = table.word(NodeId(s), NodeId(d));
      if (w == kNoRoute) continue;
      const ExpandedRoute plan = expand_route(topo, NodeId(s), NodeId(d), w);
      if (plan.ok) out[at] = static_cast<std::uint16_t>(plan.hops);
    }
  }
  return out;
}

TableReport check_table(const RouteTable& table, const TurnSet& turns, const Communicator& comm,
                        const FaultSet* fault_set) {
  const Stopwatch clock;
  const FaultSet none;
  const FaultSet& faults = fault_set != nullptr ? *fault_set : none;
  const Torus& topo = table.topology();
  const std::uint32_t n = topo.num_nodes();
  const std::size_t channels = topo.num_channels();
  const SourceBlock block = source_block(n, comm.rank(), comm.size());
  TableReport report;
  TableVerdict& v = report.verdict;
  report.loads.assign(channels, 0);
  std::vector<std::uint16_t> deps(channels, 0);
  // [0] incomplete, [1] non-minimal, [2] rule breaks, [3] hop sum, [4] max hops
  std::vector<std::uint64_t> tally(5, 0);
  // With faults: route lengths against the working distances (minimal) and the fault-free
  // ones (stretch, as an exact histogram [distance * (bound + 1) + hops] so that the mean is the
  // same bits on any number of ranks), and the proof that a pair without a route has none.
  const bool faulty = !faults.empty();
  v.faulty = faulty;
  // bound: more hops than any route word describes (FS, each ring short of once round, LS).
  std::size_t max_hops_bound = 3;
  for (int i = 0; i < topo.num_dims(); ++i)
    max_hops_bound += static_cast<std::size_t>(topo.size(i));
  const std::size_t distance_bins = static_cast<std::size_t>(topo.diameter()) + 1;
  std::vector<std::uint64_t> stretch_hist;
  if (faulty) stretch_hist.assign(distance_bins * (max_hops_bound + 1), 0);
  std::vector<std::int32_t> working_dist;
  std::vector<std::uint32_t> scratch;
  std::unique_ptr<RoutingGraph> graph;
  std::unique_ptr<RouteSearch> search;
  std::vector<std::uint32_t> counts;
  std::vector<RouteWord> unique;
  std::vector<std::uint64_t> unroutable;  // s * n + d, the first few of this rank
  std::uint64_t unroutable_count = 0;
  std::string defect;
  auto note = [&](NodeId s, NodeId d, const char* why) {
    if (defect.empty()) {
      defect = "route " + topo.node_label(s) + " -> " + topo.node_label(d) + ": " + why;
    }
  };
  for (std::uint32_t si = block.begin; si < block.end; ++si) {
    const NodeId s(si);
    if (faults.node_failed(s)) continue;  // sends nothing: its row is not used
    if (faulty) working_distances(topo, faults, s, working_dist, scratch);
    bool searched = false;
    for (std::uint32_t di = 0; di < n; ++di) {
      const NodeId d(di);
      if (faults.node_failed(d)) continue;
      const RouteWord w = table.word(s, d);
      if (si == di) {
        if (w != 0) {
          ++tally[0];
          note(s, d, "a node's route to itself must be empty (word 0)");
        }
        continue;
      }
      if (w == kNoRoute) {
        if (faulty) {
          // A pair the table does not claim: proven to have no Angara route over the working
          // channels (a search of the routing graph with these turns), or incomplete.
          if (!searched) {
            if (!search) {
              graph = std::make_unique<RoutingGraph>(topo, turns, &faults);
              search = std::make_unique<RouteSearch>(*graph);
              counts.resize(n);
              unique.resize(n);
            }
            search->count_routes(s, counts, unique);
            searched = true;
          }
          if (counts[di] == 0) {
            ++unroutable_count;
            if (unroutable.size() < kUnroutableExamples) {
              unroutable.push_back(static_cast<std::uint64_t>(si) * n + di);
            }
            continue;
          }
          ++tally[0];
          note(s, d, "missing, though a legal route over the working channels exists");
          continue;
        }
        ++tally[0];
        note(s, d, "missing");
        continue;
      }
      const ExpandedRoute plan = expand_route(topo, s, d, w);
      if (!plan.ok) {
        ++tally[0];
        note(s, d, plan.defect);
        continue;
      }
      if (faulty) {
        // Not minimal when longer than the working network allows (no condition of ok()).
        if (plan.hops != working_dist[di]) ++tally[1];
        const auto hops = std::min(static_cast<std::size_t>(plan.hops), max_hops_bound);
        ++stretch_hist[static_cast<std::size_t>(topo.distance(s, d)) * (max_hops_bound + 1) + hops];
      } else if (plan.hops != topo.distance(s, d)) {
        ++tally[1];
        note(s, d, "not minimal");
      }
      if (const char* why = angara_rule_defect(topo, turns, s, d, plan)) {
        ++tally[2];
        note(s, d, why);
      }
      tally[3] += static_cast<std::uint64_t>(plan.hops);
      tally[4] = std::max(tally[4], static_cast<std::uint64_t>(plan.hops));
      ChannelId prev = ChannelId::invalid();
      bool crossed = false;
      for_each_channel(topo, s, plan, [&](ChannelId c) {
        if (!crossed && faults.channel_failed(c)) {
          crossed = true;
          ++tally[0];
          if (defect.empty()) {
            defect = "route " + topo.node_label(s) + " -> " + topo.node_label(d) + ": takes " +
                     topo.channel_label(c) + " -> " + topo.node_label(topo.channel_dest(c)) +
                     ", a failed channel";
          }
        }
        ++report.loads[c.value()];
        if (prev.valid()) {
          deps[prev.value()] =
              static_cast<std::uint16_t>(deps[prev.value()] | (1U << topo.channel_port(c)));
        }
        prev = c;
      });
    }
  }
  const std::uint64_t max_hops = comm.max(tally[4]);
  tally[4] = 0;
  comm.sum(tally);
  comm.sum(report.loads);
  if (faulty) {
    comm.sum(stretch_hist);
    v.unroutable = comm.sum(unroutable_count);
    // Every rank's first few, in rank order = source order (the ranks hold source blocks).
    unroutable.resize(kUnroutableExamples, ~std::uint64_t{0});
    const std::vector<std::uint8_t> all = comm.all_gather(
        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(unroutable.data()),
                                      unroutable.size() * sizeof(std::uint64_t)));
    for (std::size_t at = 0; at + sizeof(std::uint64_t) <= all.size();
         at += sizeof(std::uint64_t)) {
      std::uint64_t pair = 0;
      std::memcpy(&pair, all.data() + at, sizeof pair);
      if (pair == ~std::uint64_t{0} || v.unroutable_examples.size() >= kUnroutableExamples) {
        continue;
      }
      v.unroutable_examples.emplace_back(NodeId(static_cast<std::uint32_t>(pair / n)),
                                         NodeId(static_cast<std::uint32_t>(pair % n)));
    }
  }
  // Dependencies: OR of every rank's masks, four 16-bit masks to a word (an allreduce: its
  // cost does not grow with the number of ranks, as gathering every rank's masks would).
  std::vector<std::uint64_t> words((channels + 3) / 4, 0);
  for (std::size_t c = 0; c < channels; ++c) {
    words[c / 4] |= static_cast<std::uint64_t>(deps[c]) << (16 * (c % 4));
  }
  comm.bit_or(words);
  for (std::size_t c = 0; c < channels; ++c) {
    deps[c] = static_cast<std::uint16_t>(words[c / 4] >> (16 * (c % 4)));
  }
  // The first defect in rank order.
  const std::vector<std::uint8_t> texts = comm.all_gather(std::span<const std::uint8_t>(
      reinterpret_cast<const std::uint8_t*>(defect.data()), defect.size() + 1));
  for (std::size_t at = 0; at < texts.size();) {
    const char* text = reinterpret_cast<const char*>(texts.data() + at);
    if (*text != '\0') {
      v.defect = text;
      break;
    }
    at += std::strlen(text) + 1;
  }
  v.complete = tally[0] == 0;
  v.minimal = tally[1] == 0;
  v.angara_rules = tally[2] == 0;

  ChannelDependencyGraph cdg(topo, 1);
  cdg.set_aside_ring_dependencies(true);
  for (std::size_t c = 0; c < channels; ++c) {
    for (unsigned m = deps[c]; m != 0; m &= m - 1) {
      cdg.add(ChannelId(static_cast<std::uint32_t>(c)), 0, static_cast<PortId>(__builtin_ctz(m)),
              0);
    }
  }
  v.cdg_edges = cdg.num_edges();
  v.ring_dependencies = cdg.num_set_aside();
  auto cycle = cdg.shortest_cycle();
  if (cycle.empty()) cycle = cdg.cycle_through_turn();
  v.deadlock_free = cycle.empty();
  for (const auto& x : cycle) v.cycle += (v.cycle.empty() ? "" : " -> ") + cdg.describe(x);

  TableMetrics& m = report.metrics;
  const std::uint64_t working = faults.empty() ? n : faults.working_nodes();
  m.pairs = working * (working - 1) - v.unroutable;
  long double distance_sum = 0;
  if (faults.empty()) {
    for (std::uint32_t d = 0; d < n; ++d) distance_sum += topo.distance(NodeId(0), NodeId(d));
    distance_sum *= n;  // a torus looks the same from every node
  } else {
    // No symmetry left: the working distances, searched from every working node.
    distance_sum = static_cast<long double>(working_distance_totals(topo, faults).sum);
  }
  // The loads over the channels that can carry traffic (all, or the working ones).
  std::vector<double> gamma;
  for (std::size_t c = 0; c < channels; ++c) {
    if (!faults.channel_failed(ChannelId(static_cast<std::uint32_t>(c)))) {
      gamma.push_back(static_cast<double>(report.loads[c]));
    }
  }
  const auto usable = static_cast<long double>(gamma.size());
  long double total = 0;
  for (double g : gamma) total += g;
  m.pi = gamma.empty() ? 0.0 : *std::max_element(gamma.begin(), gamma.end());
  m.min_load = gamma.empty() ? 0.0 : *std::min_element(gamma.begin(), gamma.end());
  m.mean_load = usable > 0 ? static_cast<double>(total / usable) : 0.0;
  m.perfect_load = usable > 0 ? static_cast<double>(distance_sum / usable) : 0.0;
  m.sigma4 = load_deviation(gamma, m.perfect_load, 4);
  m.saturation_rate = m.pi > 0 ? static_cast<double>(working - 1) / m.pi : 0.0;
  m.max_route_length = static_cast<int>(max_hops);
  m.mean_route_length =
      m.pairs ? static_cast<double>(tally[3]) / static_cast<double>(m.pairs) : 0.0;
  if (faulty) {
    // Stretch: route length over the fault-free distance, from the exact histogram.
    long double stretch_sum = 0;
    double stretch_max = 1.0;
    std::uint64_t routed = 0;
    for (std::size_t dist = 1; dist < distance_bins; ++dist) {
      for (std::size_t h = 0; h <= max_hops_bound; ++h) {
        const std::uint64_t k = stretch_hist[dist * (max_hops_bound + 1) + h];
        if (k == 0) continue;
        const long double s = static_cast<long double>(h) / static_cast<long double>(dist);
        stretch_sum += s * static_cast<long double>(k);
        stretch_max = std::max(stretch_max, static_cast<double>(s));
        routed += k;
      }
    }
    m.mean_stretch = routed > 0 ? static_cast<double>(stretch_sum / routed) : 1.0;
    m.max_stretch = stretch_max;
  }
  report.seconds = comm.max(clock.wall());
  return report;
}

}  // namespace wormnet::tables
