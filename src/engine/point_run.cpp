#include "point_run.hpp"

#include <algorithm>
#include <cstdio>

#include "wormnet/core/process_memory.hpp"
#include "wormnet/engine/deadlock_report.hpp"
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

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

PointRun::PointRun(const PointContext& context, double rate, ResultSink& sink, int point_index,
                   const Resume* resume)
    : context_(context),
      sink_(sink),
      wall_start_(Clock::now()),
      // A script (closed-loop workload) labels everything and runs until it is done, within
      // the drain limit; a load point has its warm-up, measurement window and drain.
      plan_(context.script != nullptr ? context.plan.closed_loop() : context.plan),
      model_(context.config, plan_, context.topo, context.routing, context.pattern,
             context.partition, context.comm.rank(), rate, context.walk) {
  model_.set_script(context_.script);
  if (context_.comm.size() > 1) {
    transport_ = std::make_unique<MpiTransport>(context_.comm, model_, plan_.lookahead);
  } else {
    transport_ = std::make_unique<NullTransport>();
  }
  sink_.begin_point(point_index, rate);
  summary_.offered_load = rate;
  summary_.flit_rate = context_.config.measure.flit_rate;
  loop_.next_window = context_.config.measure.stats_window;
  loop_.next_check = check_after(0);
  if (resume != nullptr) {
    model_.restore(resume->model, context_.comm.is_root());
    loop_ = resume->loop;
  }
  loop_start_ = Clock::now();
  loop_first_cycle_ = loop_.cycle;
  loop_first_hops_ = loop_.flit_hops;
}

Cycle PointRun::check_after(Cycle c) const {
  const Cycle drain_end = plan_.window.drain_end();
  return c < drain_end ? std::min(c + context_.check_every, drain_end) : c + context_.check_every;
}

void PointRun::flush_window(Cycle now) {
  TrafficCounters w = model_.take_window();
  // The channel view over time: nothing is counted, nor taken, without it.
  const bool series = context_.config.measure.congestion == CongestionMode::kSeries;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> channels;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> blocked;
  if (series) {
    channels = model_.take_channel_window();
    blocked = model_.take_channel_blocked();
  }
  auto a = w.to_array();
  // O(1): the per-window reductions stay small on a large rank (RankStateView::gauges()).
  const FlitGauges g = model_.state().gauges();
  std::uint64_t snap[3] = {g.flits_in_network, g.flits_at_sources, g.messages_at_sources};
  context_.comm.sum(std::span<std::uint64_t>(a.data(), a.size()));
  context_.comm.sum(std::span<std::uint64_t>(snap, 3));
  WindowRow row;
  row.cycle_end = now;
  row.cycles = now - loop_.window_start;
  row.counters = TrafficCounters::from_array(a);
  row.flits_in_network = snap[0];
  row.flits_at_sources = snap[1];
  row.messages_at_sources = snap[2];
  loop_.flit_hops += row.counters.flit_hops;
  loop_.window_start = now;
  if (series && row.cycles > 0) sink_.channel_window(now, channels, blocked);
  if (row.cycles > 0) sink_.window(row);
  if (row.cycles > 0) check_early_stop(row);
}

void PointRun::check_early_stop(const WindowRow& row) {
  const MeasureConfig& m = context_.config.measure;
  // Not for a workload (it runs to its completion), nor during the warm-up (a network that
  // is still filling), nor twice.
  if (!m.early_stop() || context_.script != nullptr || stop_early_ ||
      row.cycle_end <= plan_.window.begin) {
    return;
  }
  char why[256];
  const double backlog =
      static_cast<double>(row.flits_at_sources) / static_cast<double>(context_.topo.num_nodes());
  const double latency = row.counters.ejected_packets > 0
                             ? static_cast<double>(row.counters.latency_sum) /
                                   static_cast<double>(row.counters.ejected_packets)
                             : 0.0;
  if (m.stop_backlog > 0.0 && backlog > m.stop_backlog) {
    std::snprintf(why, sizeof why,
                  "early stop at cycle %llu: the sources hold %.4g flits per node, above "
                  "--stop-backlog %g",
                  static_cast<unsigned long long>(row.cycle_end), backlog, m.stop_backlog);
  } else if (m.stop_latency > 0 && latency > static_cast<double>(m.stop_latency)) {
    std::snprintf(why, sizeof why,
                  "early stop at cycle %llu: the packets ejected in the last statistics window "
                  "took %.4g cycles on average, above --stop-latency %llu",
                  static_cast<unsigned long long>(row.cycle_end), latency,
                  static_cast<unsigned long long>(m.stop_latency));
  } else {
    return;
  }
  stop_early_ = true;
  stop_reason_ = why;
}

void PointRun::run_to_check() {
  Cycle& t = loop_.cycle;
  do {
    const Cycle chunk_end = std::min({t + plan_.lookahead, loop_.next_window, loop_.next_check});
    model_.set_window_end(chunk_end);
    // The state is read at the next statistics window or control check, not before.
    model_.set_level_at(std::min(loop_.next_window, loop_.next_check));
    const auto t0 = Clock::now();
    auto t1 = t0;
    auto t2 = t0;
    if (transport_->pending()) {
      // The previous window's messages are in flight: the routers they cannot reach at t
      // are stepped while they travel, the others once they are here.
      model_.step_interior(t);
      t1 = Clock::now();
      transport_->finish(model_);
      t2 = Clock::now();
      model_.step_boundary(t);
      ++t;
    }
    for (; t < chunk_end; ++t) model_.step(t);
    const auto t3 = Clock::now();
    transport_->start(model_);
    // Statistics windows and control checks count flits and may save state: nothing may
    // be in flight then.
    if (t == loop_.next_window || t >= loop_.next_check) transport_->finish(model_);
    const auto t4 = Clock::now();
    compute_s_ += seconds(t0, t1) + seconds(t2, t3);
    exchange_s_ += seconds(t1, t2) + seconds(t3, t4);
    ++windows_;
    if (t == loop_.next_window) {
      flush_window(t);
      loop_.next_window += context_.config.measure.stats_window;
      if (stop_early_) return;  // the control check ends the point here
    }
  } while (t < loop_.next_check);
}

bool PointRun::control_check() {
  const Cycle t = loop_.cycle;
  if (stop_early_) {
    // A saturated point stopped at a statistics window (check_early_stop): nothing was in
    // flight there, and its statistics are final.
    summary_.saturated = true;
    summary_.stopped_early = true;
    summary_.saturation_reason = stop_reason_;
    return true;
  }
  loop_.next_check = check_after(loop_.next_check);
  // Deadlock, drain complete, drain limit, interrupt. The deadlock detector looks further (a
  // gather) only when some VC somewhere has held flits without moving one for the threshold;
  // it reports a set of VCs that wait only for each other, however much the rest moves.
  // It looks once per `threshold` cycles, at the first check at or after each multiple of it
  // (checks are at most threshold/2 apart): a deadlock never dissolves, so it is still found,
  // at most one threshold later, while a saturated network, where some VC always waits that
  // long, no longer gathers its wait-for graph at every check (docs/scaling.md, "Control
  // checks", has the cost it saved).
  const Cycle threshold = context_.config.measure.deadlock_threshold;
  const bool search_due = t % threshold < context_.check_every;
  const bool scripted = context_.script != nullptr;
  const RankStateView state = model_.state();
  std::uint64_t v[4] = {state.measured_created(), state.measured_delivered(),
                        search_due ? state.stuck_vcs(t, threshold) : 0,
                        scripted ? context_.script->delivered_count() : 0};
  context_.comm.sum(std::span<std::uint64_t>(v, 4));
  if (context_.hooks != nullptr) {
    RunHooks::CheckStatus status;
    status.cycle = t;
    status.labelled_created = v[0];
    status.labelled_delivered = v[1];
    status.window_end = plan_.window.end();
    status.drain_end = plan_.window.drain_end();
    status.scripted = scripted;
    status.messages_delivered = v[3];
    status.messages_total = scripted ? context_.script->total() : 0;
    context_.hooks->check_status(status);
  }
  if (v[2] > 0) {
    summary_.deadlock_cycle_hops =
        find_deadlock(context_.comm, context_.topo, model_, t, threshold);
    summary_.deadlock = !summary_.deadlock_cycle_hops.empty();
  }
  if (summary_.deadlock) {
    summary_.deadlock_cycle = t;
    return true;
  }
  if (scripted ? v[3] == context_.script->total() : t >= plan_.window.end() && v[1] == v[0])
    return true;
  if (t >= plan_.window.drain_end()) {
    summary_.saturated = true;
    summary_.saturation_reason = scripted ? "drain limit reached with workload messages undelivered"
                                          : "drain limit reached with labelled packets undelivered";
    return true;
  }
  if (context_.hooks == nullptr) return false;
  const RunHooks::Action action = context_.hooks->at_check(t);
  if (action != RunHooks::Action::kContinue) context_.hooks->save(loop_, state.snapshot());
  if (action != RunHooks::Action::kCheckpointAndStop) return false;
  summary_.interrupted = true;
  return true;
}

MeasuredStats PointRun::merge_measured() {
  MeasuredStats merged = model_.state().measured();
  merge_over_ranks(context_.comm, merged.total);
  merge_over_ranks(context_.comm, merged.network);
  merge_over_ranks(context_.comm, merged.queueing);
  std::uint64_t tot[5] = {merged.delivered_packets, merged.delivered_flits, merged.hops_sum,
                          merged.accepted_flits, merged.packet_cycles};
  context_.comm.sum(std::span<std::uint64_t>(tot, 5));
  merged.delivered_packets = tot[0];
  merged.delivered_flits = tot[1];
  merged.hops_sum = tot[2];
  merged.accepted_flits = tot[3];
  merged.packet_cycles = tot[4];
  return merged;
}

RunSummary PointRun::finish() {
  const double loop_s = seconds(loop_start_, Clock::now());
  const double collective_s = loop_s - compute_s_ - exchange_s_;
  const Cycle t = loop_.cycle;
  const Cycle loop_cycles = t - loop_first_cycle_;
  summary_.cycles = t;
  if (summary_.interrupted)
    return summary_;  // the point goes on after a restart: nothing final yet
  if (t != loop_.window_start) flush_window(t);

  const MeasuredStats merged = merge_measured();
  const RankStateView state = model_.state();
  std::uint64_t created[2] = {state.measured_created(), state.measured_created_flits()};
  if (context_.script != nullptr) {  // a workload labels every message it releases
    const MessageScript::Released r = context_.script->released();  // one pass over the messages
    created[0] += r.packets;
    created[1] += r.flits;
  }
  context_.comm.sum(std::span<std::uint64_t>(created, 2));
  // Per node of the traffic: every node, or the working ones of a network with faults.
  const double nodes = static_cast<double>(plan_.traffic_nodes);
  // A workload's window is its run: accepted traffic = flits delivered / (N x completion).
  // A point stopped early inside its measurement window measured up to there.
  const Cycle measured = summary_.stopped_early && t < plan_.window.end() ? t - plan_.window.begin
                                                                          : plan_.window.length;
  summary_.window_cycles = std::max<Cycle>(
      1,
      context_.script != nullptr ? context_.comm.max(context_.script->last_delivery()) : measured);
  const auto window = static_cast<double>(summary_.window_cycles);
  summary_.measured_packets = created[0];
  summary_.delivered_packets = merged.delivered_packets;
  summary_.accepted = static_cast<double>(merged.accepted_flits) / (nodes * window);
  summary_.latency = summarize(merged.total);
  summary_.network = summarize(merged.network);
  summary_.queueing = summarize(merged.queueing);
  summary_.average_hops =
      merged.delivered_packets
          ? static_cast<double>(merged.hops_sum) / static_cast<double>(merged.delivered_packets)
          : 0.0;
  summary_.accepted_vs_saturation = context_.bounds.saturation_rate > 0
                                        ? summary_.accepted / context_.bounds.saturation_rate
                                        : 0.0;
  summary_.accepted_vs_bisection =
      context_.bounds.bisection > 0 ? summary_.accepted / context_.bounds.bisection : 0.0;
  summary_.flit_hops = loop_.flit_hops;
  summary_.router_cycles = static_cast<std::uint64_t>(t) * context_.topo.num_nodes();
  // Offered load actually generated during the measurement window (labelled flits).
  summary_.offered_measured = static_cast<double>(created[1]) / (nodes * window);
  if (!summary_.deadlock && !summary_.saturated && summary_.offered_measured > 0 &&
      summary_.accepted < 0.95 * summary_.offered_measured) {
    summary_.saturated = true;
    summary_.saturation_reason = "accepted traffic below 95% of offered";
  }
  summary_.dropped_messages = context_.comm.sum(state.dropped_messages());
  summary_.model_bytes = context_.comm.sum(static_cast<std::uint64_t>(model_.bytes()));
  const std::uint64_t rss = peak_resident_bytes();
  summary_.huge_page_bytes = context_.comm.sum(huge_page_bytes());
  summary_.peak_rss_bytes = context_.comm.sum(rss);
  summary_.peak_rss_rank_max = context_.comm.max(rss);
  std::uint64_t least = rss;
  context_.comm.min(std::span<std::uint64_t>(&least, 1));
  summary_.peak_rss_rank_min = least;
  double split[4] = {compute_s_, exchange_s_, collective_s, loop_s};
  context_.comm.max(std::span<double>(split, 4));
  summary_.sync = SyncTimes{windows_,
                            split[0],
                            split[1],
                            split[2],
                            split[3],
                            loop_cycles,
                            loop_.flit_hops - loop_first_hops_};
  const ExchangeVolume sent = transport_->volume();
  std::uint64_t volume[3] = {sent.messages, sent.payload_bytes, sent.wire_bytes};
  context_.comm.sum(std::span<std::uint64_t>(volume, 3));
  summary_.sync.exchange_messages = volume[0];
  summary_.sync.exchange_payload_bytes = volume[1];
  summary_.sync.exchange_wire_bytes = volume[2];
  summary_.sync.exchange_wire_bytes_rank_max = context_.comm.max(sent.wire_bytes);
  summary_.wall_seconds = context_.comm.max(seconds(wall_start_, Clock::now()));
  if (context_.config.measure.congestion != CongestionMode::kOff)
    sink_.congestion(state.congestion());
  sink_.end_point(summary_, merged, state.channel_flits());
  return summary_;
}

}  // namespace wormnet
