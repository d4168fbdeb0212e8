// A network driven by scripted traffic only (offered rate 0), split over several RankModels
// (one per part of a partition) that are stepped in lockstep and exchange their outboxes after
// every window of `lookahead` cycles, as the ranks of an MPI run do, but in one process. Used
// by the engine tests to compare deliveries across partitions, across the overlapped
// exchange and across a restart onto another partition.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "wormnet/engine/rank_model.hpp"
#include "wormnet/plan/run_plan.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet::test {

/// A router with `buffer`-flit buffers, link and credit latencies, `vcs` VCs (0: what the
/// routing needs) and the VC bandwidth mode; measured from cycle 0 for a million cycles.
inline SimConfig small_router(int buffer, int link, int credit, int vcs, VcBandwidth bandwidth) {
  SimConfig c;
  c.network.buffer_depth = buffer;
  c.network.link_latency = link;
  c.network.credit_latency = credit;
  c.network.vcs = vcs;
  c.network.vc_bandwidth = bandwidth;
  c.measure.warmup = 0;
  c.measure.measure = 1000000;
  return c;
}

/// Every router stage 0 cycles (a flit crosses a router and its link in `link` cycles),
/// credits 1 cycle, `buffer`-flit buffers, measured from cycle 0 for a million cycles: the
/// router of the hand-worked engine tests.
inline SimConfig ideal_router(int buffer = 4, int link = 1) {
  SimConfig c;
  c.network.buffer_depth = buffer;
  c.network.link_latency = link;
  c.network.credit_latency = 1;
  c.network.routing_delay = 0;
  c.network.vc_alloc_delay = 0;
  c.network.switch_alloc_delay = 0;
  c.network.switch_delay = 0;
  c.measure.warmup = 0;
  c.measure.measure = 1000000;
  return c;
}

struct Delivery {
  std::uint64_t id;
  std::uint32_t source;
  std::uint32_t dest;
  Cycle created;
  Cycle done;
  int hops;
  RouteState state;  // routing state at delivery (the drawn half-ring tie, say)
  bool operator<(const Delivery& o) const { return id < o.id; }
  bool operator==(const Delivery& o) const = default;
};

/// The rows of `routers` (ascending global ids) and every list entry of `parts`, with the
/// additive counters summed: what a restart reads from the
/// checkpoint that `parts` (one snapshot per rank) were written to.
inline ModelSnapshot merge_snapshots(const std::vector<ModelSnapshot>& parts,
                                     const std::vector<std::uint32_t>& routers) {
  ModelSnapshot m;
  m.ports = parts.at(0).ports;
  m.vcs = parts[0].vcs;
  m.depth = parts[0].depth;
  m.routers = routers;
  // Where each global router's row lives: (part, row).
  std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> where;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    for (std::size_t k = 0; k < parts[p].routers.size(); ++k) where[parts[p].routers[k]] = {p, k};
  }
  const std::size_t pv = m.port_vcs();
  const std::size_t pp = m.ports + 1U;
  // Takes each router's row of `field` (a member pointer into a part of the snapshot).
  auto rows = [&](auto part, auto field, std::size_t stride) {
    auto& out = (m.*part).*field;
    for (std::uint32_t id : routers) {
      const auto [p, k] = where.at(id);
      const auto& in = (parts[p].*part).*field;
      out.insert(out.end(), in.begin() + static_cast<std::ptrdiff_t>(k * stride),
                 in.begin() + static_cast<std::ptrdiff_t>((k + 1) * stride));
    }
  };
  using R = RouterRows;
  using S = TrafficSources::Rows;
  rows(&ModelSnapshot::router, &R::ivc_ready, pv);
  rows(&ModelSnapshot::router, &R::ivc_meta, pv);
  rows(&ModelSnapshot::router, &R::ivc_since, pv);
  rows(&ModelSnapshot::router, &R::flit_packet, pv * m.depth);
  rows(&ModelSnapshot::router, &R::flit_kind, pv * m.depth);
  rows(&ModelSnapshot::router, &R::ovc_credits, pv);
  rows(&ModelSnapshot::router, &R::ovc_owner, pv);
  rows(&ModelSnapshot::router, &R::ovc_packet, pv);
  rows(&ModelSnapshot::router, &R::va_last, pv);
  rows(&ModelSnapshot::router, &R::sa_last_vc, pp);
  rows(&ModelSnapshot::router, &R::sa_last_port, pp);
  rows(&ModelSnapshot::router, &R::injection, 4);
  // Where packets wait (--congestion; zeros without it).
  rows(&ModelSnapshot::router, &R::cong_vc_wait, pv);
  rows(&ModelSnapshot::router, &R::cong_credit_wait, pv);
  rows(&ModelSnapshot::router, &R::cong_held, pv);
  rows(&ModelSnapshot::router, &R::cong_occupancy, pv);
  rows(&ModelSnapshot::router, &R::cong_flits, pv);
  rows(&ModelSnapshot::router, &R::cong_window_flits, pv);
  rows(&ModelSnapshot::router, &R::cong_blocked_mark, pv);
  rows(&ModelSnapshot::sources, &S::counter, 1);
  rows(&ModelSnapshot::sources, &S::next_time, 1);
  rows(&ModelSnapshot::sources, &S::sequence, 1);
  rows(&ModelSnapshot::counters, &CounterRows::channel_flits, m.ports);
  for (const ModelSnapshot& s : parts) {
    auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
    append(m.arrivals.flits, s.arrivals.flits);
    append(m.arrivals.credits, s.arrivals.credits);
    append(m.sources.messages, s.sources.messages);
    append(m.streams, s.streams);
    append(m.packets, s.packets);
    m.sources.counts.created_flits += s.sources.counts.created_flits;
    m.sources.counts.created_packets += s.sources.counts.created_packets;
    m.sources.counts.measured_packets += s.sources.counts.measured_packets;
    m.sources.counts.measured_flits += s.sources.counts.measured_flits;
    m.counters.created_flits_seen += s.counters.created_flits_seen;
    m.counters.created_packets_seen += s.counters.created_packets_seen;
    m.counters.ejected_packets += s.counters.ejected_packets;
    m.counters.scripted_packets += s.counters.scripted_packets;
  }
  return m;
}

class ScriptedNetwork {
 public:
  /// `parts` models over Partition::blocks; with `overlap`, the exchange happens as in a
  /// multi-rank run that overlaps it with computing: in the middle of the next window's first
  /// cycle, between step_interior() and step_boundary().
  /// `layout`: how each model walks its routers (small blocks reach the layered walk of large
  /// ranks on small networks); each run_until() lets the layers lag until its end. `rate`:
  /// the sources' own traffic besides the scripted messages (flits/node/cycle, config.traffic).
  ScriptedNetwork(const std::string& topo, const std::string& routing, SimConfig config,
                  int parts = 1, bool overlap = false, WalkLayout layout = {}, double rate = 0.0)
      : overlap_(overlap),
        layout_(layout),
        rate_(rate),
        config_(std::move(config)),
        topo_(make_topology(topo)),
        routing_(make_routing(routing, *topo_, config_.network.flow_control, nullptr,
                              config_.network.ring_tie)),
        plan_(make_run_plan(config_, *topo_, *routing_)),
        pattern_(*topo_, config_.traffic) {
    build(Partition::blocks(*topo_, parts));
  }

  void send(std::uint32_t from, std::uint32_t to, int length, Cycle created = 0) {
    Message m;
    m.created = created;
    m.dest = to;
    m.length = static_cast<std::uint16_t>(length);
    // A packet's id is (source, sequence): with the sources' own traffic (rate_ > 0), whose
    // sequences count from 0, scripted messages count from 2^31 so that no two packets share
    // an id (a restart finds a packet's flits by it). A run never mixes the two: a workload
    // has no open-loop traffic (the command line refuses --load with --workload).
    m.sequence = (rate_ > 0.0 ? std::uint64_t{1} << 31 : 0) + sequence_[from]++;
    models_[static_cast<std::size_t>(partition_.owner(NodeId(from)))]->enqueue(NodeId(from), m);
  }

  void run_until(Cycle end) {
    const Cycle lookahead = plan_.lookahead;
    for (auto& m : models_) m->set_level_at(end);
    while (now_ < end) {
      const Cycle chunk = std::min(end, now_ + lookahead);
      for (auto& m : models_) m->set_window_end(chunk);
      const Cycle first = now_;
      if (overlap_ && pending_) {
        for (auto& m : models_) m->step_interior(now_);
        exchange();
        for (auto& m : models_) m->step_boundary(now_);
        ++now_;
      }
      for (; now_ < chunk; ++now_) {
        for (auto& m : models_) m->step(now_);
      }
      record_crossings(now_ - first);
      if (overlap_) {
        pending_ = true;
      } else {
        exchange();
      }
    }
  }

  /// Moves the whole state onto `next` as a checkpoint and a restart on another rank count
  /// do: every model's snapshot, merged, restored part by part into fresh models.
  void repartition(const Partition& next) {
    if (pending_) exchange();  // a checkpoint is taken with nothing in flight between ranks
    pending_ = false;
    std::vector<ModelSnapshot> parts;
    for (const auto& m : models_) parts.push_back(m->state().snapshot());
    build(next);
    for (int p = 0; p < next.parts(); ++p) {
      models_[static_cast<std::size_t>(p)]->restore(merge_snapshots(parts, next.nodes_of(p)),
                                                    p == 0);
    }
  }

  std::vector<Delivery> deliveries() const {
    auto d = deliveries_;
    std::sort(d.begin(), d.end());
    return d;
  }
  const Delivery& find(std::uint32_t source) const {
    for (const auto& d : deliveries_) {
      if (d.source == source) return d;
    }
    throw std::runtime_error("no delivery from that source");
  }
  const Topology& topology() const { return *topo_; }
  const Partition& partition() const { return partition_; }
  RankModel& model(int part) { return *models_[static_cast<std::size_t>(part)]; }
  /// Packet-cycles over the measurement window, summed over the models (Little's law).
  std::uint64_t packet_cycles() const {
    std::uint64_t n = 0;
    for (const auto& m : models_) n += m->state().measured().packet_cycles;
    return n;
  }
  std::uint64_t in_network() const {
    std::uint64_t n = 0;
    for (const auto& m : models_) n += m->state().flits_in_network();
    return n;
  }
  /// The deadlock detector at the current cycle, as a run does it at a control check: every
  /// part's wait-for edges among VCs stuck for `threshold` cycles (after the exchange), and
  /// the cycle of a deadlock among them, if any.
  std::vector<VcKey> deadlock_cycle(Cycle threshold) {
    if (pending_) exchange();
    pending_ = false;
    std::vector<WaitEdge> edges;
    for (const auto& m : models_) {
      const std::vector<WaitEdge> mine = m->state().wait_for_edges(now_, threshold);
      edges.insert(edges.end(), mine.begin(), mine.end());
    }
    return find_deadlock_cycle(edges);
  }
  std::uint64_t stuck_vcs(Cycle threshold) const {
    std::uint64_t n = 0;
    for (const auto& m : models_) n += m->state().stuck_vcs(now_, threshold);
    return n;
  }
  Cycle now() const { return now_; }
  /// The most flits and the most credits one part sent another in one window, per link
  /// between them, over the run so far (the exchange's capacity must cover these).
  double most_flits_per_link() const { return most_flits_per_link_; }
  double most_credits_per_link() const { return most_credits_per_link_; }
  /// The longest window of the run (cycles).
  Cycle longest_window() const { return longest_window_; }

 private:
  void build(const Partition& partition) {
    partition_ = partition;
    models_.clear();
    for (int p = 0; p < partition_.parts(); ++p) {
      models_.push_back(std::make_unique<RankModel>(config_, plan_, *topo_, *routing_, pattern_,
                                                    partition_, p, rate_, layout_));
      models_.back()->set_delivery_observer([this](const Packet& pk, Cycle done) {
        deliveries_.push_back(
            Delivery{pk.id, pk.source, pk.dest, pk.created, done, pk.hops, pk.state});
      });
    }
  }

  void record_crossings(Cycle window) {
    longest_window_ = std::max(longest_window_, window);
    for (std::size_t a = 0; a < models_.size(); ++a) {
      for (std::size_t b = 0; b < models_.size(); ++b) {
        const Outbox& out = models_[a]->outboxes()[b];
        if (a == b || (out.flits.empty() && out.credits.empty())) continue;
        const auto links = static_cast<double>(models_[a]->links_to(static_cast<int>(b)));
        most_flits_per_link_ =
            std::max(most_flits_per_link_, static_cast<double>(out.flits.size()) / links);
        most_credits_per_link_ =
            std::max(most_credits_per_link_, static_cast<double>(out.credits.size()) / links);
      }
    }
  }

  void exchange() {
    for (std::size_t a = 0; a < models_.size(); ++a) {
      for (std::size_t b = 0; b < models_.size(); ++b) {
        if (a == b) continue;
        models_[b]->receive(models_[a]->outboxes()[b]);
        models_[a]->outboxes()[b].clear();
      }
    }
  }

  bool overlap_;
  WalkLayout layout_;
  double rate_;
  bool pending_ = false;  ///< outboxes not yet exchanged (overlap: until the next window)
  SimConfig config_;
  std::unique_ptr<Topology> topo_;
  std::unique_ptr<RoutingFunction> routing_;
  RunPlan plan_;
  DestinationPattern pattern_;
  Partition partition_;
  std::vector<std::unique_ptr<RankModel>> models_;
  std::vector<Delivery> deliveries_;
  std::map<std::uint32_t, std::uint64_t> sequence_;
  Cycle now_ = 0;
  double most_flits_per_link_ = 0;
  double most_credits_per_link_ = 0;
  Cycle longest_window_ = 0;
};

}  // namespace wormnet::test
