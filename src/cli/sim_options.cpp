#include "sim_options.hpp"

#include <bit>
#include <cstdio>
#include <map>

#include "choice_option.hpp"
#include "commands.hpp"
#include "fault_options.hpp"
#include "toml_string.hpp"
#include "wormnet/config/config_validation.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/number_text.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet::cli {

void add_sim_options(CLI::App& app, SimOptions& o, bool single_load) {
  o.single_load = single_load;
  NetworkConfig& n = o.config.network;
  TrafficConfig& t = o.config.traffic;
  MeasureConfig& m = o.config.measure;
  app.add_option("--topology,-t", n.topology, topology_forms())
      ->capture_default_str()
      ->group("Network");
  app.add_option("--routing,-r", n.routing, "routing function: " + routing_catalog())
      ->capture_default_str()
      ->group("Network");
  app.add_option("--vcs", n.vcs, "virtual channels per channel (0 = what the routing needs)")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--buffer", n.buffer_depth, "flits per VC buffer")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--link-latency", n.link_latency, "cycles per link")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--credit-latency", n.credit_latency, "cycles for a credit to return")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--injection-latency", n.injection_latency,
                 "injection channel: cycles from a message's creation to its head entering the "
                 "router (a pure delay)")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--ejection-latency", n.ejection_latency,
                 "ejection channel: cycles added to a packet's delivery after its tail leaves "
                 "the router (a pure delay)")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--routing-delay", n.routing_delay, "router pipeline: route computation cycles")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--vc-alloc-delay", n.vc_alloc_delay, "router pipeline: VC allocation cycles")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--switch-alloc-delay", n.switch_alloc_delay,
                 "router pipeline: switch allocation cycles")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--switch-delay", n.switch_delay, "router pipeline: crossbar traversal cycles")
      ->capture_default_str()
      ->group("Network");
  app.add_option("--flow-control", n.flow_control, "credit or bubble (one-VC torus rings)")
      ->transform(choice_of<FlowControl>())
      ->default_str(enum_name(n.flow_control))
      ->group("Network");
  app.add_option("--selection", n.selection,
                 "among the free choices: priority (the routing's order, XYZ), random, or "
                 "least-occupied (most free buffer slots downstream); with duato, among the "
                 "free adaptive VCs first")
      ->transform(choice_of<SelectionPolicy>())
      ->default_str(enum_name(n.selection))
      ->group("Network");
  app.add_option("--vc-bandwidth", n.vc_bandwidth,
                 "shared (the VCs of a channel share its flit per cycle) or per-vc (each VC "
                 "moves a flit per cycle, like a physical channel of its own)")
      ->transform(choice_of<VcBandwidth>())
      ->default_str(enum_name(n.vc_bandwidth))
      ->group("Network");
  add_ring_tie_option(&app, n.ring_tie)->group("Network");
  app.add_option("--tables", n.tables, "routing tables file (routing = table)")->group("Network");
  app.add_option("--partition", n.partition,
                 "how routers are spread over ranks: geometric (boxes / stripes), blocks, metis")
      ->transform(choice_of<PartitionMethod>())
      ->default_str(enum_name(n.partition))
      ->group("Network");
  add_fault_options(app, n.faults);

  app.add_option("--traffic", t.pattern,
                 "uniform, transpose, neighbor, tornado, bit-complement, hotspot, all-to-all")
      ->transform(choice_of<TrafficPattern>())
      ->default_str(enum_name(t.pattern))
      ->group("Traffic");
  app.add_option("--process", t.process, "poisson or bernoulli message generation")
      ->transform(choice_of<InjectionProcess>())
      ->default_str(enum_name(t.process))
      ->group("Traffic");
  app.add_flag("--self-traffic", t.self_traffic,
               "uniform traffic also sends packets to their own source (BookSim's uniform)")
      ->group("Traffic");
  app.add_flag("--drop-unroutable", t.drop_unroutable,
               "with a table made around faults: drop (and count) the messages to working "
               "pairs it has no route for, instead of refusing the traffic")
      ->group("Faults");
  if (single_load) {
    app.add_option("--load", t.load, "offered load, flits/node/cycle, in (0, 1]")
        ->capture_default_str()
        ->group("Traffic");
    app.add_option("--load-fraction", t.load_fraction,
                   "offered load as a fraction of the routing's saturation rate (N-1)/pi")
        ->group("Traffic");
  }
  app.add_option("--length", o.length, "message length in flits (sets --length-min and -max)")
      ->group("Traffic");
  app.add_option("--length-min", t.length_min, "shortest message, flits")
      ->capture_default_str()
      ->group("Traffic");
  app.add_option("--length-max", t.length_max, "longest message, flits")
      ->capture_default_str()
      ->group("Traffic");
  app.add_option("--hotspot-fraction", t.hotspot_fraction, "share of messages to hotspots")
      ->capture_default_str()
      ->group("Traffic");
  app.add_option("--hotspot-nodes", t.hotspot_nodes, "hotspot node ids (default 0)")
      ->delimiter(',')
      ->group("Traffic");

  app.add_option("--warmup", m.warmup, "cycles before packets are labelled")
      ->capture_default_str()
      ->group("Measurement");
  app.add_option("--measure", m.measure, "cycles of the measurement window")
      ->capture_default_str()
      ->group("Measurement");
  app.add_option("--cycles", m.cycles, "total cycles before the drain (instead of --measure)")
      ->group("Measurement");
  app.add_option(
         "--drain-limit", m.drain_limit,
         "cycles after the measurement allowed to deliver labelled packets (the point stops there, "
         "flagged saturated)")
      ->capture_default_str()
      ->group("Measurement");
  app.add_option("--stats-window", m.stats_window, "cycles per time-series row")
      ->capture_default_str()
      ->group("Measurement");
  app.add_option("--congestion", m.congestion,
                 "where packets wait: totals (per channel and VC over the measurement window: "
                 "cycles waiting for a VC, a credit, the switch; mean buffer occupancy; "
                 "flits per VC), series (totals, and the flits each channel carried in every "
                 "statistics window of the run, and the cycles its VCs waited in each, inside "
                 "the measurement window) or off")
      ->transform(choice_of<CongestionMode>())
      ->default_str(enum_name(m.congestion))
      ->group("Measurement");
  app.add_option("--deadlock-threshold", m.deadlock_threshold,
                 "cycles an input VC may hold flits without moving one before the deadlock "
                 "detector asks whether it waits in a cycle (above the credit round trip)")
      ->capture_default_str()
      ->group("Measurement");
  app.add_option("--flit-rate", m.flit_rate, "flits per microsecond per channel (for us units)")
      ->capture_default_str()
      ->group("Measurement");
  app.add_option("--stop-backlog", m.stop_backlog,
                 "early stop of a saturated point: at the end of a statistics window after the "
                 "warm-up, stop it (flagged saturated) when the sources hold more than this "
                 "many flits per node (0 = never)")
      ->group("Measurement");
  app.add_option("--stop-latency", m.stop_latency,
                 "early stop of a saturated point: stop it (flagged saturated) when the "
                 "packets ejected in a statistics window after the warm-up took more than "
                 "this many cycles on average (BookSim's latency threshold; 0 = never)")
      ->group("Measurement");
  app.add_option("--seed", m.seed, "random seed")->capture_default_str()->group("Measurement");

  app.add_option("--preset", o.preset,
                 "booksim: BookSim2's timing and traffic for the options not given (credit "
                 "latency = link latency + 1, injection latency 2, ejection latency 1, "
                 "self-traffic, Bernoulli process, random half-ring ties; docs/fidelity.md)")
      ->group("Network");
  app.add_option("--config", o.config_file,
                 "TOML file of options (keys = long option names; the command "
                 "line wins)")
      ->group("Output");
  app.add_option("--output,-o", o.output, "HDF5 results file")->group("Output");
  app.add_flag("--quiet,-q", o.quiet, "no progress or summary on stdout")->group("Output");
  // Test-only (an empty group hides them from --help): the differential harness compares the
  // skewed walk on small networks with the level walk (docs/differential-testing.md).
  app.add_option("--walk-block-routers", o.walk_block_routers,
                 "test only: ranks of more than N routers walk them in blocks of N (a power of "
                 "two >= 64) in lagging layers")
      ->group("");
  app.add_option("--walk-skew", o.walk_skew,
                 "test only: cycles between the catch-ups of the skewed walk's layers (1..64)")
      ->group("");
}

std::string traffic_option_text(const SimConfig& c, std::string_view option) {
  const TrafficConfig& t = c.traffic;
  const MeasureConfig& m = c.measure;
  const auto number = [](double v) { return number_text(v); };
  if (option == "--load") return number(t.load);
  if (option == "--load-fraction") return number(t.load_fraction);
  if (option == "--traffic") return enum_name(t.pattern);
  if (option == "--process") return enum_name(t.process);
  if (option == "--length" || option == "--length-min") return std::to_string(t.length_min);
  if (option == "--length-max") return std::to_string(t.length_max);
  if (option == "--self-traffic") return t.self_traffic ? "true" : "false";
  if (option == "--drop-unroutable") return t.drop_unroutable ? "true" : "false";
  if (option == "--hotspot-fraction") return number(t.hotspot_fraction);
  if (option == "--hotspot-nodes") {
    std::string nodes;
    for (const int h : t.hotspot_nodes) nodes += (nodes.empty() ? "" : ",") + std::to_string(h);
    return nodes;
  }
  if (option == "--warmup") return std::to_string(m.warmup);
  if (option == "--measure") return std::to_string(m.measure);
  if (option == "--cycles") return std::to_string(m.cycles);
  return "";
}

std::string to_toml(const SimOptions& o) {
  const NetworkConfig& n = o.config.network;
  const TrafficConfig& t = o.config.traffic;
  const MeasureConfig& m = o.config.measure;
  std::string s;
  char buf[128];
  const auto str = [&](const char* key, const std::string& v) {
    s += std::string(key) + " = " + toml_string(v) + "\n";
  };
  const auto num = [&](const char* key, long long v) {
    s += std::string(key) + " = " + std::to_string(v) + "\n";
  };
  const auto count = [&](const char* key, std::uint64_t v) {
    s += std::string(key) + " = " + std::to_string(v) + "\n";
  };
  const auto real = [&](const char* key, double v) {
    std::snprintf(buf, sizeof buf, "%s = %.17g\n", key, v);
    s += buf;
  };
  s += "# wormnet effective configuration: readable back with --config\n";
  str("topology", n.topology);
  str("routing", n.routing);
  if (!n.tables.empty()) str("tables", n.tables);
  num("vcs", n.vcs);
  num("buffer", n.buffer_depth);
  num("link-latency", n.link_latency);
  num("credit-latency", n.credit_latency);
  num("routing-delay", n.routing_delay);
  num("vc-alloc-delay", n.vc_alloc_delay);
  num("switch-alloc-delay", n.switch_alloc_delay);
  num("switch-delay", n.switch_delay);
  str("flow-control", enum_name(n.flow_control));
  str("selection", enum_name(n.selection));
  str("vc-bandwidth", enum_name(n.vc_bandwidth));
  num("injection-latency", n.injection_latency);
  num("ejection-latency", n.ejection_latency);
  str("ring-tie", enum_name(n.ring_tie));
  if (!o.preset.empty()) str("preset", o.preset);
  str("partition", enum_name(n.partition));
  s += fault_toml(n.faults);
  // A workload's messages and run length are its own: the open-loop traffic keys, which it
  // refuses, are left out.
  const bool traffic = !o.config.workload.active();
  if (traffic) str("traffic", enum_name(t.pattern));
  if (traffic) str("process", enum_name(t.process));
  if (!o.single_load || !traffic) {
    // A sweep's loads are its own keys (loads, load-range, relative).
  } else if (t.load_fraction > 0) {
    real("load-fraction", t.load_fraction);
  } else {
    real("load", t.load);
  }
  if (traffic) {
    num("length-min", t.length_min);
    num("length-max", t.length_max);
    s += std::string("self-traffic = ") + (t.self_traffic ? "true" : "false") + "\n";
    if (t.drop_unroutable) s += "drop-unroutable = true\n";  // only when set: files as before
  }
  if (traffic && t.pattern == TrafficPattern::kHotspot)
    real("hotspot-fraction", t.hotspot_fraction);
  if (traffic && t.pattern == TrafficPattern::kHotspot && !t.hotspot_nodes.empty()) {
    std::string list;
    for (int h : t.hotspot_nodes) list += (list.empty() ? "" : ", ") + std::to_string(h);
    s += "hotspot-nodes = [" + list + "]\n";
  }
  if (traffic) {
    count("warmup", m.warmup);
    if (m.cycles > 0) {
      count("cycles", m.cycles);
    } else {
      count("measure", m.measure);
    }
  }
  count("drain-limit", m.drain_limit);
  count("stats-window", m.stats_window);
  count("deadlock-threshold", m.deadlock_threshold);
  real("flit-rate", m.flit_rate);
  count("seed", m.seed);
  // The early stop only when asked for: a configuration without it reads as it always did.
  if (m.stop_backlog > 0) real("stop-backlog", m.stop_backlog);
  if (m.stop_latency > 0) count("stop-latency", m.stop_latency);
  // Only when not the default: a configuration without it reads as it always did.
  if (m.congestion != MeasureConfig{}.congestion) str("congestion", enum_name(m.congestion));
  const WorkloadConfig& w = o.config.workload;
  if (!w.active()) return s;
  str("workload", enum_name(w.kind));
  // The options added with processes per node and computation appear when they are not at
  // their defaults (or define the workload: npb-*), so that the configuration of a run
  // without them reads as it always did.
  const bool local_latency =
      w.local_latency != WorkloadConfig{}.local_latency || w.processes_per_node > 1;
  if (w.is_trace()) {
    str("trace", w.trace);
    if (local_latency) count("local-latency", w.local_latency);
    return s;
  }
  count("iterations", w.iterations);
  if (w.is_npb()) {
    str("npb-class", enum_name(w.npb_class));
    count("npb-scale", w.npb_scale);
    if (w.compute_rate > 0) real("compute-rate", w.compute_rate);
  } else {
    num("message-size", w.message_size);
    if (!w.grid.empty()) str("grid", w.grid);
    if (w.compute_cycles > 0) count("compute-cycles", w.compute_cycles);
  }
  str("mapping", enum_name(w.mapping));
  if (w.processes_per_node > 1) count("processes-per-node", w.processes_per_node);
  if (local_latency) count("local-latency", w.local_latency);
  return s;
}

void apply_preset(SimOptions& o) {
  if (o.preset != "booksim") throw InputError("--preset", o.preset, "allowed: booksim");
  NetworkConfig& n = o.config.network;
  TrafficConfig& t = o.config.traffic;
  // BookSim's credit round trip, measured with 1-flit buffers, matches wormnet's when a
  // credit takes one cycle more than a flit's link (docs/fidelity.md).
  if (o.given.count("--credit-latency") == 0) n.credit_latency = n.link_latency + 1;
  // BookSim's terminals: a 1-cycle injection channel plus the cycle between a packet's
  // creation and its first flit leaving the source, and a 1-cycle ejection channel.
  if (o.given.count("--injection-latency") == 0) n.injection_latency = 2;
  if (o.given.count("--ejection-latency") == 0) n.ejection_latency = 1;
  if (o.given.count("--self-traffic") == 0 && t.pattern == TrafficPattern::kUniform)
    t.self_traffic = true;
  if (o.given.count("--process") == 0) t.process = InjectionProcess::kBernoulli;
  // dim_order_torus picks a random direction when a destination is half a ring away.
  if (o.given.count("--ring-tie") == 0 && takes_ring_tie(n.routing) &&
      n.topology.rfind("torus:", 0) == 0) {
    n.ring_tie = RingTie::kRandom;
  }
}

void finish_sim_options(SimOptions& o) {
  const auto given = [&](const char* option) { return o.given.count(option) > 0; };
  if (given("--load-fraction") && !(o.config.traffic.load_fraction > 0.0)) {
    throw InputError("--load-fraction", number_text(o.config.traffic.load_fraction),
                     "must be in (0, 1]");
  }
  // --length is copied into --length-min and -max further down: until then its own value.
  const auto shown = [&](const char* option) {
    return std::string_view(option) == "--length" ? std::to_string(o.length)
                                                  : traffic_option_text(o.config, option);
  };
  check_workload_options(o.workload, o.config.workload, o.given, shown);
  check_fault_options(o.config.network.faults, o.given);
  if (o.config.traffic.drop_unroutable &&
      (!o.config.network.faults.any() || o.config.network.routing != "table")) {
    throw InputError("--drop-unroutable", "true",
                     "is read with --routing table on a network with faults only (--faults, "
                     "--fail-links, --fail-nodes): only a table made around faults leaves "
                     "pairs without a route");
  }
  // Options that only one traffic pattern reads are refused with another (they were ignored
  // silently); the effective configuration writes them for that pattern only.
  if (o.config.traffic.pattern != TrafficPattern::kHotspot) {
    for (const char* option : {"--hotspot-fraction", "--hotspot-nodes"}) {
      if (!given(option)) continue;
      throw InputError(option, shown(option),
                       std::string("is read with --traffic hotspot only (the traffic is ") +
                           enum_name(o.config.traffic.pattern) + ")");
    }
  }
  const MeasureConfig& m = o.config.measure;
  if (o.config.workload.active()) {
    // A workload runs to its completion (or --drain-limit): it has no saturated point.
    for (const char* option : {"--stop-backlog", "--stop-latency"}) {
      if (!given(option)) continue;
      const bool backlog = std::string_view(option) == "--stop-backlog";
      throw InputError(
          option, number_text(backlog ? m.stop_backlog : static_cast<double>(m.stop_latency)),
          std::string("stops a saturated load point; a --workload ") +
              enum_name(o.config.workload.kind) + " runs to its completion or --drain-limit");
    }
  }
  if (given("--cycles") && m.cycles <= m.warmup) {
    throw InputError("--cycles", std::to_string(m.cycles),
                     "must be longer than --warmup (" + std::to_string(m.warmup) +
                         " cycles): the measurement window is --cycles - --warmup");
  }
  if (given("--length") || o.length != 0) {
    if (o.length < 1) throw InputError("--length", std::to_string(o.length), "must be >= 1 flit");
    o.config.traffic.length_min = o.length;
    o.config.traffic.length_max = o.length;
  }
  if (o.given.count("--preset") > 0 || !o.preset.empty()) apply_preset(o);
  validate_values(o.config);
  check_channel_series_bound(o.config.measure, o.config.workload.active());
  static_cast<void>(walk_options(o));
}

std::pair<std::uint32_t, std::uint32_t> walk_options(const SimOptions& o) {
  // A whole number in [low, high], or 0 when not given.
  const auto number = [](const char* option, const std::string& text, std::uint32_t low,
                         std::uint32_t high, const std::string& rule) -> std::uint32_t {
    if (text.empty()) return 0;
    if (text.size() > 10 || text.find_first_not_of("0123456789") != std::string::npos ||
        std::stoull(text) < low || std::stoull(text) > high) {
      throw InputError(option, text, rule);
    }
    return static_cast<std::uint32_t>(std::stoull(text));
  };
  const std::uint32_t block = number("--walk-block-routers", o.walk_block_routers, 64, 1U << 30,
                                     "a power of two from 64 to 2^30 routers per block");
  if (block != 0 && !std::has_single_bit(block)) {
    throw InputError("--walk-block-routers", o.walk_block_routers,
                     "a power of two from 64 to 2^30 routers per block");
  }
  return {block, number("--walk-skew", o.walk_skew, 1, 64, "1 to 64 cycles")};
}

}  // namespace wormnet::cli
