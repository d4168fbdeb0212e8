#include "wormnet/engine/simulation.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "wormnet/config/config_validation.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/engine/mpi_transport.hpp"

namespace wormnet {

namespace {

LatencySummary summarize(const LatencyHistogram& h) {
  return LatencySummary{h.mean(), h.quantile(0.50), h.quantile(0.95), h.quantile(0.99), h.max()};
}

/// Merges a histogram over ranks (integer sums: exact and order-independent).
void merge_over_ranks(const Communicator& comm, LatencyHistogram& h) {
  std::uint64_t totals[3] = {h.count(), h.sum(), h.max()};
  comm.sum(h.mutable_counts());
  comm.sum(std::span<std::uint64_t>(totals, 2));
  totals[2] = comm.max(totals[2]);
  h.set_totals(totals[0], totals[1], totals[2]);
}

}  // namespace

Simulation::Simulation(const SimConfig& config, const Topology& topo,
                       const RoutingFunction& routing, const Partition& partition,
                       const Communicator& comm, ThroughputBounds bounds)
    : config_(config),
      topo_(topo),
      routing_(routing),
      partition_(partition),
      comm_(comm),
      bounds_(bounds),
      pattern_(topo, config.traffic) {}

std::vector<DeadlockHop> Simulation::find_deadlock(const RankModel& model, Cycle t) const {
  const std::vector<WaitEdge> mine = model.wait_for_edges(t, config_.measure.deadlock_threshold);
  std::vector<std::uint8_t> bytes(mine.size() * sizeof(WaitEdge));
  if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
  const std::vector<std::uint8_t> all = comm_.gather(bytes, 0);
  std::string text;
  if (comm_.is_root()) {
    std::vector<WaitEdge> edges(all.size() / sizeof(WaitEdge));
    if (!edges.empty()) std::memcpy(edges.data(), all.data(), edges.size() * sizeof(WaitEdge));
    for (const VcKey key : find_deadlock_cycle(edges)) {
      const auto node = static_cast<std::uint32_t>(key >> 16);
      const auto port = static_cast<int>((key >> 8) & 0xFF);
      const auto vc = static_cast<int>(key & 0xFF);
      std::string hop;
      if (port == topo_.num_ports()) {
        hop = "injection at " + topo_.node_label(NodeId(node));
      } else {
        const NodeId from = topo_.neighbor(NodeId(node), static_cast<PortId>(port));
        hop = topo_.node_label(from) + " " +
              Topology::port_label(Topology::reverse_port(static_cast<PortId>(port))) + " -> " +
              topo_.node_label(NodeId(node));
      }
      text += hop + "\t" + std::to_string(vc) + "\n";
    }
  }
  comm_.broadcast(text, 0);
  std::vector<DeadlockHop> hops;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t tab = text.find('\t', pos);
    const std::size_t end = text.find('\n', tab);
    hops.push_back(
        DeadlockHop{text.substr(pos, tab - pos), std::stoi(text.substr(tab + 1, end - tab - 1))});
    pos = end + 1;
  }
  return hops;
}

Cycle Simulation::check_interval() const {
  // Checks are cheap (a few integers reduced over the ranks): often enough for a prompt stop
  // on a signal or when the drain completes, rarely enough to cost nothing per cycle.
  constexpr Cycle kControlInterval = 128;
  const MeasureConfig& m = config_.measure;
  return std::max<Cycle>(1, std::min({m.stats_window, std::max<Cycle>(1, m.deadlock_threshold / 2),
                                      kControlInterval}));
}

RunSummary Simulation::run(double rate, ResultSink& sink, int point_index, const Resume* resume) {
  const auto wall_start = std::chrono::steady_clock::now();
  const MeasureConfig& m = config_.measure;
  // A script (closed-loop workload) labels everything and runs until it is done, within the
  // drain limit; a load point has its warm-up, measurement window and drain.
  const bool scripted = script_ != nullptr;
  const Cycle warmup = scripted ? 0 : m.warmup;
  const Cycle measure = scripted ? m.drain_limit : m.cycles > 0 ? m.cycles - m.warmup : m.measure;
  SimConfig effective = config_;
  effective.measure.warmup = warmup;
  effective.measure.measure = measure;
  const int vcs = effective_vcs(config_, routing_);
  RankModel model(effective, topo_, routing_, pattern_, partition_, comm_.rank(), rate, vcs);
  model.set_script(script_);

  // Lookahead: the smallest delay of anything crossing ranks (every link has the same
  // latency here, so all ranks agree without communicating).
  const Cycle lookahead = std::max<Cycle>(1, model.lookahead());
  std::unique_ptr<Transport> transport;
  if (comm_.size() > 1) {
    transport = std::make_unique<MpiTransport>(comm_, model, lookahead);
  } else {
    transport = std::make_unique<NullTransport>();
  }
  const Cycle measure_end = warmup + measure;
  const Cycle check_every = check_interval();
  // Control checks every check_every cycles, and one exactly at the drain limit, so that a
  // point never runs past measure_end + drain_limit.
  const Cycle drain_end = measure_end + (scripted ? 0 : m.drain_limit);
  auto check_after = [&](Cycle c) {
    return c < drain_end ? std::min(c + check_every, drain_end) : c + check_every;
  };

  sink.begin_point(point_index, rate);
  RunSummary s;
  s.offered_load = rate;
  s.flit_rate = m.flit_rate;
  std::uint64_t flit_hops = 0;
  Cycle t = 0;
  Cycle window_start = 0;
  Cycle next_window = m.stats_window;
  Cycle next_check = check_after(0);
  bool stop = false;
  if (resume != nullptr) {
    model.restore(resume->model, comm_.is_root());
    t = resume->loop.cycle;
    window_start = resume->loop.window_start;
    next_window = resume->loop.next_window;
    next_check = resume->loop.next_check;
    flit_hops = resume->loop.flit_hops;
  }

  auto flush_window = [&](Cycle now) {
    TrafficCounters w = model.take_window();
    auto a = w.to_array();
    std::uint64_t snap[3] = {model.flits_in_network(), model.flits_at_sources(),
                             model.messages_at_sources()};
    comm_.sum(std::span<std::uint64_t>(a.data(), a.size()));
    comm_.sum(std::span<std::uint64_t>(snap, 3));
    WindowRow row;
    row.cycle_end = now;
    row.cycles = now - window_start;
    row.counters = TrafficCounters::from_array(a);
    row.flits_in_network = snap[0];
    row.flits_at_sources = snap[1];
    row.messages_at_sources = snap[2];
    flit_hops += row.counters.flit_hops;
    window_start = now;
    if (row.cycles > 0) sink.window(row);
  };

  // Wall-clock split of the loop (steady clock, seconds): two clock reads per window cost
  // tens of nanoseconds against the microseconds a window of routers takes. The time in
  // reductions is what the loop took beyond computing and exchanging.
  using Clock = std::chrono::steady_clock;
  double compute_s = 0.0;
  double exchange_s = 0.0;
  std::uint64_t windows = 0;
  const auto loop_start = Clock::now();
  const Cycle loop_first_cycle = t;
  const std::uint64_t loop_first_hops = flit_hops;
  auto since = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  while (!stop) {
    const Cycle chunk_end = std::min({t + lookahead, next_window, next_check});
    model.set_window_end(chunk_end);
    const auto t0 = Clock::now();
    auto t1 = t0;
    auto t2 = t0;
    if (transport->pending()) {
      // The previous window's messages are in flight: the routers they cannot reach at t
      // are stepped while they travel, the others once they are here.
      model.step_interior(t);
      t1 = Clock::now();
      transport->finish(model);
      t2 = Clock::now();
      model.step_boundary(t);
      ++t;
    }
    for (; t < chunk_end; ++t) model.step(t);
    const auto t3 = Clock::now();
    transport->start(model);
    // Statistics windows and control checks count flits and may save state: nothing may
    // be in flight then.
    if (t == next_window || t >= next_check) transport->finish(model);
    const auto t4 = Clock::now();
    compute_s += since(t0, t1) + since(t2, t3);
    exchange_s += since(t1, t2) + since(t3, t4);
    ++windows;
    if (t == next_window) {
      flush_window(t);
      next_window += m.stats_window;
    }
    if (t < next_check) continue;
    next_check = check_after(next_check);

    // Control check (collective): deadlock, drain complete, drain limit, interrupt. The
    // deadlock detector looks further (a gather) only when some VC somewhere has held flits
    // without moving one for the threshold; it reports a set of VCs that wait only for each
    // other, however much the rest of the network moves.
    std::uint64_t v[4] = {model.measured_created(), model.measured_delivered(),
                          model.stuck_vcs(t, m.deadlock_threshold),
                          scripted ? script_->delivered_count() : 0};
    comm_.sum(std::span<std::uint64_t>(v, 4));
    if (v[2] > 0) {
      s.deadlock_cycle_hops = find_deadlock(model, t);
      s.deadlock = !s.deadlock_cycle_hops.empty();
    }
    if (s.deadlock) {
      s.deadlock_cycle = t;
      stop = true;
    } else if (scripted ? v[3] == script_->total() : t >= measure_end && v[1] == v[0]) {
      stop = true;
    } else if (t >= drain_end) {
      s.saturated = true;
      s.saturation_reason = scripted ? "drain limit reached with workload messages undelivered"
                                     : "drain limit reached with labelled packets undelivered";
      stop = true;
    }
    if (!stop && hooks_ != nullptr) {
      const RunHooks::Action action = hooks_->at_check(t);
      if (action != RunHooks::Action::kContinue) {
        hooks_->save(LoopState{t, window_start, next_window, next_check, flit_hops},
                     model.snapshot());
      }
      if (action == RunHooks::Action::kCheckpointAndStop) {
        s.interrupted = true;
        stop = true;
      }
    }
  }
  const double loop_s = since(loop_start, Clock::now());
  const double collective_s = loop_s - compute_s - exchange_s;
  const Cycle loop_cycles = t - loop_first_cycle;
  if (s.interrupted) {  // the point goes on after a restart: nothing final to report yet
    s.cycles = t;
    return s;
  }
  if (t != window_start) flush_window(t);

  // Merge the measured statistics over ranks.
  MeasuredStats merged = model.measured();
  merge_over_ranks(comm_, merged.total);
  merge_over_ranks(comm_, merged.network);
  merge_over_ranks(comm_, merged.queueing);
  std::uint64_t tot[7] = {merged.delivered_packets, merged.delivered_flits,
                          merged.hops_sum,          merged.accepted_flits,
                          model.measured_created(), model.measured_created_flits(),
                          merged.packet_cycles};
  comm_.sum(std::span<std::uint64_t>(tot, 7));
  merged.packet_cycles = tot[6];
  merged.delivered_packets = tot[0];
  merged.delivered_flits = tot[1];
  merged.hops_sum = tot[2];
  merged.accepted_flits = tot[3];

  const double nodes = static_cast<double>(topo_.num_nodes());
  // A workload's window is its run: accepted traffic = flits delivered / (N x completion).
  const double window = static_cast<double>(
      scripted ? std::max<Cycle>(1, comm_.max(script_->last_delivery())) : measure);
  s.measured_packets = tot[4];
  s.delivered_packets = merged.delivered_packets;
  s.accepted = static_cast<double>(merged.accepted_flits) / (nodes * window);
  s.latency = summarize(merged.total);
  s.network = summarize(merged.network);
  s.queueing = summarize(merged.queueing);
  s.average_hops = merged.delivered_packets ? static_cast<double>(merged.hops_sum) /
                                                  static_cast<double>(merged.delivered_packets)
                                            : 0.0;
  s.accepted_vs_saturation =
      bounds_.saturation_rate > 0 ? s.accepted / bounds_.saturation_rate : 0.0;
  s.accepted_vs_bisection = bounds_.bisection > 0 ? s.accepted / bounds_.bisection : 0.0;
  s.cycles = t;
  s.flit_hops = flit_hops;
  s.router_cycles = static_cast<std::uint64_t>(t) * topo_.num_nodes();
  // Offered load actually generated during the measurement window (labelled flits).
  s.offered_measured = static_cast<double>(tot[5]) / (nodes * window);
  if (!s.deadlock && !s.saturated && s.offered_measured > 0 &&
      s.accepted < 0.95 * s.offered_measured) {
    s.saturated = true;
    s.saturation_reason = "accepted traffic below 95% of offered";
  }
  s.model_bytes = comm_.sum(static_cast<std::uint64_t>(model.bytes()));
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  s.peak_rss_bytes = comm_.sum(static_cast<std::uint64_t>(usage.ru_maxrss) * 1024U);  // KiB
  double split[4] = {compute_s, exchange_s, collective_s, loop_s};
  comm_.max(std::span<double>(split, 4));
  s.sync = SyncTimes{
      windows, split[0], split[1], split[2], split[3], loop_cycles, flit_hops - loop_first_hops};
  s.wall_seconds = comm_.max(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count());
  sink.end_point(s, merged, model.channel_flits());
  return s;
}

}  // namespace wormnet
