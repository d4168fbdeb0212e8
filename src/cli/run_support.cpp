#include "run_support.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>

#include "build_version.hpp"
#include "fault_options.hpp"
#include "rank_analysis.hpp"
#include "stop_signals.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/number_text.hpp"
#include "wormnet/topology/topology_metrics.hpp"
#include "wormnet/verify/extended_dependency_graph.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::cli {

namespace {

/// Fixed-point text of v with `digits` decimals.
std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string sci(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string latency_line(const char* name, const LatencySummary& l, double flit_rate) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%-10s mean %.2f cycles (%.3f us)  p50 %llu  p95 %llu  p99 %llu  max %llu\n", name,
                l.mean, l.mean / flit_rate, static_cast<unsigned long long>(l.p50),
                static_cast<unsigned long long>(l.p95), static_cast<unsigned long long>(l.p99),
                static_cast<unsigned long long>(l.max));
  return buf;
}

/// The workload, built on every rank (each reads the trace). A stop signal may end one
/// rank's reading while another finds the file bad: the ranks agree on the signal first
/// (collective), then on the error, so that none waits alone in a collective. Interrupted on
/// every rank when a stop signal reached any.
Workload workload_on_every_rank(const SimOptions& o, const Topology& topo,
                                const Communicator& comm) {
  std::optional<Workload> built;
  std::exception_ptr bad_input;
  try {
    built = build_workload(o.config.workload, topo, o.config.measure.seed, stop_signalled);
  } catch (const Interrupted&) {
    // stop_signalled() is set here: stop_requested() says so on every rank.
  } catch (const InputError&) {
    bad_input = std::current_exception();
  }
  if (stop_requested(comm)) throw Interrupted("a stop signal while the workload was read");
  if (bad_input) std::rethrow_exception(bad_input);
  return std::move(*built);
}

/// The traffic pattern's own loads and ideal (a pattern that is not uniform), or why not:
/// run only below the work of kReportLoadStates, which depends on the network, routing and
/// pattern alone, so that a results file holds it or not whatever the rank count.
void pattern_ideal(const SimOptions& o, SimSetup& s, const Communicator& comm) {
  const TrafficMatrix matrix(*s.topology, *s.pattern);
  if (matrix.uniform()) return;
  const char* name = enum_name(o.config.traffic.pattern);
  const std::uint64_t states = pattern_states(*s.topology, *s.routing, matrix);
  if (states > kReportLoadStates) {
    s.pattern_analysis = std::string(name) + ": its load analysis skipped: about " +
                         sci(static_cast<double>(states)) + " routing states, more than " +
                         sci(static_cast<double>(kReportLoadStates));
    return;
  }
  TimedPatternAnalysis a =
      timed_pattern_analysis(*s.topology, *s.routing, matrix, 0, comm, s.faults.get());
  const PatternLoadReport& l = a.loads;
  if (!l.defect.empty() || l.pi <= 0) {
    s.pattern_analysis = std::string(name) + ": no ideal (" +
                         (l.defect.empty() ? std::string("no pair crosses a channel") : l.defect) +
                         ")";
    return;
  }
  s.pattern_channel_load = l.gamma;
  io::PatternIdealRecord r;
  r.pattern = name;
  r.pi = l.pi;
  r.saturation_rate = l.saturation_rate;
  r.offered_at_ideal = l.offered_at_ideal;
  r.pairs = l.pairs;
  r.senders = l.senders;
  s.pattern_ideal = r;
  const std::uint64_t silent = s.topology->num_nodes() - l.senders;
  s.pattern_analysis =
      std::string(name) + ": pi " + fixed(l.pi, 4) + " on the busiest channel (" +
      std::to_string(l.pairs) + " pairs" +
      (matrix.fixed() ? ", " + std::to_string(silent) + " silent nodes" : "") + "), ideal " +
      fixed(l.saturation_rate, 5) + " flits/node/cycle accepted" +
      (silent > 0 ? " (" + fixed(l.offered_at_ideal, 5) + " offered by each sending node)" : "") +
      "; " + fixed(a.seconds, 3) + " s";
}

/// What verify would find (deadlock_check): the channel dependency graph of the routing,
/// judged as `wormnet verify` judges it (bubble flow control's ring dependencies set aside;
/// Duato's condition for a routing with escape channels), only below the work of
/// kReportLoadStates, which depends on the network and routing alone.
void check_deadlock_freedom(SimSetup& s, const Communicator& comm) {
  const auto t0 = std::chrono::steady_clock::now();
  AnalysisOptions ao;
  ao.loads = false;
  ao.faults = s.faults.get();
  const bool duato = s.routing->escape_vcs() != 0;
  AnalysisOptions whole = ao;
  whole.symmetries = false;  // Duato's extended graph explores every destination
  const std::uint64_t states =
      analysis_scope(*s.topology, *s.routing, duato ? whole : ao).estimated_states;
  const std::string verify = "wormnet verify -t " + s.topology->spec() + " -r " + s.routing->name();
  if (states > kReportLoadStates) {
    s.deadlock_check = "deadlock check skipped: about " + sci(static_cast<double>(states)) +
                       " routing states, more than " + sci(static_cast<double>(kReportLoadStates)) +
                       " (" + verify + " makes it)";
    return;
  }
  const RoutingAnalysis a = analyze_on_ranks(*s.topology, *s.routing, ao, comm);
  auto cycle = a.cdg.shortest_cycle();
  if (cycle.empty() && a.cdg.rings_set_aside()) cycle = a.cdg.cycle_through_turn();
  bool cyclic = !cycle.empty();
  std::size_t length = cycle.size();
  if (duato) {
    const DuatoReport dr = check_duato(*s.topology, *s.routing, 0, s.faults.get());
    cyclic = !dr.holds();
    length = dr.cycle.size();
  }
  const double seconds =
      comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (!a.delivery.ok) {
    s.deadlock_check = "WARNING: a routing defect (" + a.delivery.defect + "); " + verify;
  } else if (cyclic) {
    s.deadlock_check =
        std::string("WARNING: ") +
        (duato ? "Duato's condition fails (the extended channel dependency graph has a cycle"
               : "the channel dependency graph has a cycle") +
        (length > 0 ? " of " + std::to_string(length) + " channels" : "") + (duato ? ")" : "") +
        ": the run may deadlock (" + verify + " shows it); " + fixed(seconds, 3) + " s";
  } else {
    s.deadlock_check =
        std::string("deadlock-free: ") +
        (duato ? "Duato's condition holds" : "the channel dependency graph is acyclic") +
        (a.cdg.rings_set_aside() ? " (ring dependencies set aside: bubble flow control)" : "") +
        ", as verify proves; " + fixed(seconds, 3) + " s";
  }
}

/// A routing that cannot run on the network with faults is refused before anything runs:
/// the delivery check names a working pair whose route takes a failed channel (or another
/// defect the faults caused), and an adaptive routing with escape channels must still meet
/// Duato's condition on the faulty network (its filtered choices may have lost the escape).
void refuse_on_faults(const SimSetup& s, const DeliveryReport& delivery) {
  const std::string name = s.routing->name();
  if (!delivery.ok) {
    throw InputError("--routing", name,
                     "cannot run on this network with faults: " + delivery.defect +
                         " (wormnet verify with the same faults shows it; docs/faults.md)");
  }
  if (s.routing->escape_vcs() == 0) return;
  const DuatoReport dr = check_duato(*s.topology, *s.routing, s.plan.vcs, s.faults.get());
  if (dr.holds()) return;
  throw InputError(
      "--routing", name,
      "Duato's condition fails on this network with faults: " +
          (dr.connected()
               ? std::string("the extended channel dependency graph has a cycle")
               : "the escape sub-function is not connected, no escape step " + dr.disconnected) +
          " (wormnet verify with the same faults shows it; docs/faults.md)");
}

/// A table made around faults may leave working pairs without a route (it does not claim
/// them; docs/tables.md section 8): traffic that needs such a pair is refused before
/// anything runs, naming one. Uniform, hotspot and all-to-all traffic need every working
/// pair; a permutation needs the pairs it maps.
void refuse_unclaimed_traffic(const SimOptions& o, SimSetup& s) {
  const FaultSet& faults = *s.faults;
  if (faults.empty() || !s.routing->source_dependent()) return;
  const Topology& topo = *s.topology;
  const std::uint32_t n = topo.num_nodes();
  const TrafficPattern p = s.pattern->pattern();
  const bool every_pair = p == TrafficPattern::kUniform || p == TrafficPattern::kHotspot ||
                          p == TrafficPattern::kAllToAll;
  std::uint64_t unclaimed = 0;
  NodeId from;
  NodeId to;
  auto needs = [&](NodeId a, NodeId b) {
    if (a == b || s.routing->claims(a, b)) return;
    if (unclaimed++ == 0) {
      from = a;
      to = b;
    }
  };
  RandomStream rng(0, 0);  // a permutation draws nothing
  for (std::uint32_t a = 0; a < n; ++a) {
    if (faults.node_failed(NodeId(a))) continue;
    if (every_pair) {
      for (std::uint32_t b = 0; b < n; ++b) {
        if (!faults.node_failed(NodeId(b))) needs(NodeId(a), NodeId(b));
      }
    } else if (!s.pattern->silent(NodeId(a))) {
      const NodeId b = s.pattern->destination(NodeId(a), rng, 0);
      if (b.valid()) needs(NodeId(a), b);
    }
  }
  if (unclaimed == 0) return;
  if (o.config.traffic.drop_unroutable) {
    // Dropped and counted instead (the routing outlives the pattern: both are the setup's).
    const RoutingFunction* routing = s.routing.get();
    s.pattern->drop_unless([routing](NodeId a, NodeId b) { return routing->claims(a, b); });
    return;
  }
  throw InputError("--tables", o.config.network.tables,
                   "the traffic needs " + std::to_string(unclaimed) + " working pair" +
                       (unclaimed == 1 ? "" : "s") +
                       " without a route in this table (no legal Angara route around the "
                       "faults), e.g. " +
                       topo.node_label(from) + " -> " + topo.node_label(to) +
                       " (wormnet tables lists them; --drop-unroutable drops and counts such "
                       "messages; docs/tables.md)");
}

}  // namespace

SimSetup build_setup(const SimOptions& o, const Communicator& comm, bool need_saturation) {
  const auto t0 = std::chrono::steady_clock::now();
  SimSetup s;
  // A workload's messages, not --length-*, are the packets: the plan needs their lengths.
  MessageLengthsOf lengths_of;
  if (o.config.workload.active()) {
    lengths_of = [&](const Topology& topo) {
      s.workload = workload_on_every_rank(o, topo, comm);
      return workload_lengths(*s.workload, o.config.workload);
    };
  }
  if (o.config.workload.active() && o.config.network.faults.any()) {
    throw InputError("--workload", enum_name(o.config.workload.kind),
                     "does not run on a network with faults yet (--faults, --fail-links, "
                     "--fail-nodes): its processes would be placed on failed nodes "
                     "(docs/faults.md)");
  }
  static_cast<SimNetwork&>(s) = build_network(o.config, comm, lengths_of);
  const auto [walk_block, walk_skew] = walk_options(o);
  if (walk_block > 0) {
    // Test only (--walk-block-routers): blocks of that many routers on every rank, lagging.
    s.walk.blocked_min = 0;
    s.walk.skewed_min = 0;
    s.walk.block_shift = std::countr_zero(walk_block);
  }
  if (walk_skew > 0) s.walk.skew = walk_skew;
  // With faults: the working network's cut; its distances are not needed here.
  const bool faulty = !s.faults->empty();
  s.bounds.bisection = faulty ? compute_metrics(*s.topology, *s.faults, false).bisection.bound
                              : compute_metrics(*s.topology).bisection.bound;
  // On a network with faults the analysis is the delivery check that refuses a routing
  // which would route a working pair over a failed channel: never skipped.
  const bool need = need_saturation || o.config.traffic.load_fraction > 0.0 || faulty;
  if (faulty) refuse_unclaimed_traffic(o, s);
  if (s.table_saturation_rate > 0.0) {
    // A table's loads come with it (the table check): no per-pair routing analysis needed.
    s.bounds.saturation_rate = s.table_saturation_rate;
    s.bounds_from_loads = true;
    s.channel_load = s.table_loads;
    s.analysis = "(N-1)/pi " + fixed(s.bounds.saturation_rate, 5) + " from the table file";
  } else {
    // Whether the analysis runs depends on the network, routing and options only, never on
    // the rank count, so results files are the same on any number of ranks.
    AnalysisOptions ao;
    ao.cdg = false;
    ao.faults = s.faults.get();
    const AnalysisScope plan = analysis_scope(*s.topology, *s.routing, ao);
    if (need) {
      const bool fraction = o.config.traffic.load_fraction > 0.0;
      const std::string value = number_text(o.config.traffic.load_fraction);
      if (faulty && !fraction && !need_saturation) {
        const FaultOption f = fault_option(o.config.network.faults);
        require_affordable(plan, comm, f.option, f.value);
      } else {
        require_affordable(plan, comm, fraction ? "--load-fraction" : "--relative",
                           fraction ? value : std::string("set"));
      }
    }
    // A workload's length is not known before it runs (0: the state limit alone decides).
    const MeasureConfig& m = o.config.measure;
    const Cycle planned =
        o.config.workload.active() ? 0 : (m.cycles > 0 ? m.cycles : m.warmup + m.measure);
    const std::uint64_t nodes = s.topology->num_nodes();
    if (need || report_analysis_pays(plan.estimated_states, nodes, planned)) {
      TimedAnalysis a = timed_analysis(*s.topology, *s.routing, ao, comm);
      if (faulty) refuse_on_faults(s, a.analysis.delivery);
      s.bounds.saturation_rate = a.analysis.loads.saturation_rate;
      s.bounds_from_loads = true;
      s.analysis = "(N-1)/pi " + fixed(s.bounds.saturation_rate, 5) + " from " +
                   a.analysis.plan.summary(*s.topology) + "; " + fixed(a.seconds, 3) + " s on " +
                   std::to_string(comm.size()) + " rank" + (comm.size() > 1 ? "s" : "");
      s.channel_load = std::move(a.analysis.loads.gamma);
    } else {
      const std::string states = sci(static_cast<double>(plan.estimated_states));
      s.analysis =
          plan.estimated_states > kReportLoadStates
              ? "load analysis skipped: about " + states + " routing states, more than " +
                    sci(static_cast<double>(kReportLoadStates)) + " when no option needs (N-1)/pi"
              : "load analysis skipped: about " + states + " routing states would cost more than " +
                    std::to_string(kReportAnalysisPercent) + " % of the " +
                    std::to_string(planned) +
                    " cycles planned (wormnet info --load gives (N-1)/pi)";
    }
  }
  if (!o.config.workload.active()) pattern_ideal(o, s, comm);
  check_deadlock_freedom(s, comm);
  s.setup_seconds =
      comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return s;
}

std::string describe_setup(const SimSetup& setup, const Communicator& comm) {
  (void)comm;
  std::string out = "setup      " + fixed(setup.setup_seconds, 3) + " s; " + setup.analysis + "\n";
  if (!setup.pattern_analysis.empty()) out += "pattern    " + setup.pattern_analysis + "\n";
  if (!setup.deadlock_check.empty()) out += "verify     " + setup.deadlock_check + "\n";
  return out;
}

io::RunDescription describe_run(const SimOptions& o, const SimSetup& setup,
                                const Communicator& comm, const std::string& command,
                                const std::string& config_toml) {
  (void)comm;
  io::RunDescription d;
  d.command = command;
  d.config_toml = config_toml;
  d.version = WORMNET_VERSION;
  d.git_sha = build_git_sha();
  d.config = &o.config;
  d.topology = setup.topology.get();
  d.plan = &setup.plan;
  d.partition = &setup.partition;
  d.bounds = setup.bounds;
  d.channel_load = &setup.channel_load;
  if (setup.pattern_ideal) {
    d.pattern_ideal = *setup.pattern_ideal;
    d.pattern_ideal->channel_load = &setup.pattern_channel_load;  // where the setup keeps it
  }
  d.faults = setup.faults.get();
  d.silenced_sources = setup.pattern->silenced();
  return d;
}

double offered_rate(const SimOptions& o, const SimSetup& s, double value, bool is_fraction) {
  (void)o;
  return is_fraction ? value * s.bounds.saturation_rate : value;
}

std::string describe_partition(const SimSetup& setup) {
  const Partition& p = setup.partition;
  const auto lookahead = static_cast<long long>(setup.plan.lookahead);
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "partition  %s over %d rank%s: edge cut %llu links, parts of %llu..%llu routers, "
                "lookahead %lld cycles\n",
                p.method().c_str(), p.parts(), p.parts() > 1 ? "s" : "",
                static_cast<unsigned long long>(p.edge_cut(*setup.topology)),
                static_cast<unsigned long long>(p.smallest_part()),
                static_cast<unsigned long long>(p.largest_part()), lookahead);
  return buf;
}

std::string describe_config(const SimOptions& o, const SimSetup& setup) {
  const SimConfig& c = o.config;
  const int vcs = setup.plan.vcs;
  const std::string traffic = o.config.workload.active()
                                  ? "workload " + std::string(enum_name(o.config.workload.kind))
                                  : std::string(enum_name(c.traffic.process)) + " " +
                                        enum_name(c.traffic.pattern) + " traffic";
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s on %s, %d VC%s x %d flits%s, %s, messages of %d..%d flits, seed %llu\n",
                setup.routing->name().c_str(), setup.topology->spec().c_str(), vcs,
                vcs > 1 ? "s" : "", c.network.buffer_depth,
                c.network.vc_bandwidth == VcBandwidth::kPerVc ? " (a flit per cycle per VC)" : "",
                traffic.c_str(), setup.plan.lengths.shortest, setup.plan.lengths.longest,
                static_cast<unsigned long long>(c.measure.seed));
  std::string line = buf;
  std::string faults = fault_line(*setup.topology, *setup.faults, c.network.faults);
  if (!faults.empty() && setup.pattern->silenced() > 0) {
    faults.pop_back();
    const std::uint32_t silent = setup.pattern->silenced();
    faults += "; " + std::to_string(silent) +
              (silent == 1 ? " working source sends nothing (the pattern maps it"
                           : " working sources send nothing (the pattern maps them") +
              " onto failed nodes)\n";
  }
  return line + faults;
}

std::string format_summary(const RunSummary& s, const SimSetup& setup, bool workload) {
  std::string out;
  if (workload) {
    // A closed loop offers no load: what it delivered, over its run (the point's window is
    // the completion), is its traffic.
    out += "traffic    " + fixed(s.accepted, 5) + " flits/node/cycle delivered over " +
           std::to_string(s.window_cycles) + " cycles (the workload's messages, closed loop)";
  } else {
    out += "offered    " + fixed(s.offered_load, 5) + " flits/node/cycle (generated " +
           fixed(s.offered_measured, 5) + " in the window)\n";
    out += "accepted   " + fixed(s.accepted, 5) + " flits/node/cycle";
  }
  if (setup.bounds.saturation_rate > 0) {
    out += " = " + fixed(s.accepted_vs_saturation, 4) + " of (N-1)/pi (" +
           fixed(setup.bounds.saturation_rate, 5) + ")";
  }
  out += ", " + fixed(s.accepted_vs_bisection, 4) + " of the bisection bound (" +
         fixed(setup.bounds.bisection, 5) + ")";
  if (setup.pattern_ideal) {
    out += ", " + fixed(s.accepted / setup.pattern_ideal->saturation_rate, 4) + " of the " +
           setup.pattern_ideal->pattern + " ideal (" +
           fixed(setup.pattern_ideal->saturation_rate, 5) + ")";
  }
  out += "\n";
  out += latency_line("latency", s.latency, s.flit_rate);
  out += latency_line("  network", s.network, s.flit_rate);
  out += latency_line("  queueing", s.queueing, s.flit_rate);
  out += "hops       " + fixed(s.average_hops, 4) + " per packet; " +
         std::to_string(s.delivered_packets) + " of " + std::to_string(s.measured_packets) +
         (workload ? " messages delivered\n" : " labelled packets delivered\n");
  if (setup.pattern != nullptr && s.dropped_messages > 0) {
    out += "dropped    " + std::to_string(s.dropped_messages) +
           " messages to working pairs without a route in the table (--drop-unroutable), whole "
           "run\n";
  }
  if (s.deadlock) {
    out += "status     DEADLOCK at cycle " + std::to_string(s.deadlock_cycle) + ": a cycle of " +
           std::to_string(s.deadlock_cycle_hops.size()) + " waiting channels (channel, VC):\n";
    for (const auto& h : s.deadlock_cycle_hops) {
      out += "  " + h.channel + " vc" + std::to_string(h.vc) + "\n";
    }
  } else if (s.saturated) {
    out += "status     SATURATED: " + s.saturation_reason + "\n";
  } else {
    out += "status     ok\n";
  }
  // Speed of the cycle loop alone; building the model and merging the results come after.
  const double loop = s.sync.loop_seconds;
  const double secs = loop > 0 ? loop : 1e-9;
  const double routers_total = static_cast<double>(setup.topology->num_nodes());
  out += "speed      " + std::to_string(s.sync.loop_cycles) + " cycles in " + fixed(loop, 3) +
         " s: " + sci(static_cast<double>(s.sync.loop_cycles) * routers_total / secs) +
         " router-cycles/s, " + sci(static_cast<double>(s.sync.loop_flit_hops) / secs) +
         " flit-hops/s; setup and results " + fixed(std::max(0.0, s.wall_seconds - loop), 3) +
         " s more\n";
  if (s.sync.windows > 0) {
    const double per = 1e6 / static_cast<double>(s.sync.windows);
    out += "sync       " + std::to_string(s.sync.windows) + " windows; per window (largest rank) " +
           fixed(s.sync.compute_seconds * per, 2) + " us computing, " +
           fixed(s.sync.exchange_seconds * per, 2) + " us exchanging, " +
           fixed(s.sync.collective_seconds * per, 2) + " us in reductions\n";
  }
  if (s.sync.exchange_messages > 0) {
    // Volumes, not times: what a weak-scaling comparison on an oversubscribed machine can
    // trust (docs/scaling.md). Wire bytes are the size classes the messages went out in.
    const double rank_windows =
        static_cast<double>(s.sync.windows) * static_cast<double>(setup.partition.parts());
    out += "exchange   per rank and window " +
           fixed(static_cast<double>(s.sync.exchange_messages) / rank_windows, 2) + " messages, " +
           fixed(static_cast<double>(s.sync.exchange_payload_bytes) / rank_windows, 1) +
           " bytes of flits and credits (" +
           fixed(static_cast<double>(s.sync.exchange_wire_bytes) / rank_windows, 1) +
           " sent); the busiest rank " +
           fixed(static_cast<double>(s.sync.exchange_wire_bytes_rank_max) /
                     static_cast<double>(s.sync.windows),
                 1) +
           " bytes per window\n";
  }
  const double routers = static_cast<double>(setup.topology->num_nodes());
  out += "memory     " + fixed(static_cast<double>(s.model_bytes) / routers, 0) +
         " bytes/router of model state; peak resident " +
         fixed(static_cast<double>(s.peak_rss_bytes) / 1048576.0, 1) +
         " MiB over all ranks = " + fixed(static_cast<double>(s.peak_rss_bytes) / routers, 0) +
         " bytes/router; per rank " +
         fixed(static_cast<double>(s.peak_rss_rank_min) / 1048576.0, 1) +
         (s.peak_rss_rank_min == s.peak_rss_rank_max
              ? std::string()
              : " to " + fixed(static_cast<double>(s.peak_rss_rank_max) / 1048576.0, 1)) +
         " MiB; " + fixed(static_cast<double>(s.huge_page_bytes) / 1048576.0, 0) +
         " MiB in huge pages\n";
  return out;
}

}  // namespace wormnet::cli
