// `wormnet info`: static properties of a topology (and, with --load, of a routing on it).
#include <cstdio>
#include <memory>
#include <set>
#include <string>

#include "choice_option.hpp"
#include "commands.hpp"
#include "fault_options.hpp"
#include "json_writer.hpp"
#include "option_rules.hpp"
#include "rank_analysis.hpp"
#include "sim_options.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/number_text.hpp"
#include "wormnet/driver/network_faults.hpp"
#include "wormnet/driver/routing_choice.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/topology/topology_metrics.hpp"
#include "wormnet/traffic/destination_pattern.hpp"
#include "wormnet/traffic/traffic_matrix.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::cli {

namespace {

struct InfoOptions {
  FaultConfig faults;
  std::string topology;
  std::string routing;
  FlowControl flow = FlowControl::kCredit;
  RingTie tie = RingTie::kPlus;
  bool load = false;
  bool json = false;
  std::string tables;
  TrafficConfig traffic;  ///< --traffic and the hotspot options (with --load)
  std::set<std::string> given;
};

/// The ideal of a traffic pattern that is not uniform (pattern_loads.hpp).
struct PatternInfo {
  std::string name;
  bool fixed = false;        ///< every source sends to one node (a permutation on tori)
  std::uint64_t silent = 0;  ///< nodes that send nothing
  PatternLoadReport loads;
  double seconds = 0.0;
};

/// Load analysis of a routing on the topology (the Angara paper's metrics).
struct LoadInfo {
  std::string routing;
  std::string plan;          ///< how the pairs were covered
  bool exact = true;         ///< false for a sampled estimate
  std::uint64_t states = 0;  ///< routing states explored
  double seconds = 0.0;      ///< the analysis alone
  DeliveryReport delivery;
  LoadReport loads;
};

void print_load_text(const LoadInfo& li, const TopologyMetrics& m) {
  const LoadReport& l = li.loads;
  const DeliveryReport& d = li.delivery;
  std::printf("routing           %s\n", li.routing.c_str());
  if (!d.ok) std::printf("delivery          FAILED: %s\n", d.defect.c_str());
  std::printf("path length       max %d, mean %.6f hops (minimal mean %.6f, stretch %.6f)\n",
              d.max_path, d.average_path, d.average_minimal, d.stretch());
  std::printf("edge-forwarding   pi = %.6f routes on the busiest channel\n", l.pi);
  std::printf("minimum load      %.6f\n", l.min_load);
  std::printf("perfect load      %.6f (minimal routes, all directed channels)\n", l.perfect_load);
  std::printf("mean load         %.6f (this routing's routes)\n", l.mean_load);
  std::printf("sigma(4,R)        %.6f\n", l.sigma4);
  std::printf("saturation rate   %.6f flits/node/cycle = (N-1)/pi, uniform traffic\n",
              l.saturation_rate);
  if (d.unclaimed > 0) {
    std::printf(
        "unclaimed         %llu working pairs have no route in the table: the uniform figures "
        "are over the %llu it claims (run refuses uniform traffic unless --drop-unroutable)\n",
        static_cast<unsigned long long>(d.unclaimed), static_cast<unsigned long long>(d.pairs));
  }
  std::printf("bisection bound   %.6f flits/node/cycle (topology)\n", m.bisection.bound);
  std::printf("load analysis     %.3f s: %s; %llu routing states\n", li.seconds, li.plan.c_str(),
              static_cast<unsigned long long>(li.states));
}

void print_pattern_text(const PatternInfo& p, std::uint64_t nodes) {
  const PatternLoadReport& l = p.loads;
  std::printf("traffic           %s: %llu pairs", p.name.c_str(),
              static_cast<unsigned long long>(l.pairs));
  if (p.fixed) {
    std::printf(" (one destination per source; %llu silent nodes)",
                static_cast<unsigned long long>(p.silent));
  }
  std::printf("\n");
  if (l.unclaimed_pairs > 0) {
    std::printf(
        "unclaimed         %llu working pairs of the traffic have no route in the table: left "
        "out (run refuses this traffic; --drop-unroutable drops their messages)\n",
        static_cast<unsigned long long>(l.unclaimed_pairs));
  }
  if (!l.defect.empty()) {
    std::printf("pattern loads     FAILED: %s\n", l.defect.c_str());
    return;
  }
  std::printf(
      "pattern pi        %.6f on the busiest channel: its pairs' routes, each weighted by "
      "its share of the source's messages\n",
      l.pi);
  std::printf("pattern load      min %.6f, mean %.6f over all directed channels\n", l.min_load,
              l.mean_load);
  std::printf(
      "pattern ideal     %.6f flits/node/cycle accepted = %llu senders / (N pi); each "
      "sending node offers 1/pi = %.6f\n",
      l.saturation_rate, static_cast<unsigned long long>(l.senders), l.offered_at_ideal);
  std::printf(
      "pattern analysis  %.3f s: every destination from its own sources, %llu routing "
      "states (of %llu nodes)\n",
      p.seconds, static_cast<unsigned long long>(l.states), static_cast<unsigned long long>(nodes));
}

/// The working network's lines (a topology with faults): counts, connectivity, distances.
void print_faulty_text(const Topology& topo, const TopologyMetrics& m, const std::string& faults,
                       const std::string& no_distances) {
  const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("faults            %s\n", faults.c_str());
  std::printf("nodes             %llu working of %u\n", u(m.nodes), topo.num_nodes());
  std::printf("links             %llu working of %u\n", u(m.links), topo.num_links());
  std::printf("channels          %llu working (directed)\n", u(m.channels));
  std::printf("degree histogram ");
  for (const auto& [deg, count] : m.degree_histogram) std::printf(" %d:%llu", deg, u(count));
  std::printf(" (working nodes, working links)\n");
  const WorkingConnectivity& c = m.connectivity;
  if (c.connected()) {
    std::printf("connectivity      connected: every working node reaches every other\n");
  } else {
    std::printf(
        "connectivity      NOT connected: %u groups of working nodes, the largest of %u; "
        "%s cannot reach %s\n",
        c.components, c.largest, topo.node_label(c.from).c_str(),
        topo.node_label(c.unreachable).c_str());
  }
  if (!m.distances_known) {
    std::printf("diameter          not computed: %s\n", no_distances.c_str());
    std::printf("average distance  not computed\n");
    return;
  }
  std::printf("diameter          %d hops (over the working links)\n", m.diameter);
  std::printf("average distance  %.6f hops (%llu ordered working pairs s != d%s)\n",
              m.average_distance, u(m.distance_pairs),
              c.connected() ? "" : " that reach each other");
}

void print_text(const Topology& topo, const TopologyMetrics& m, const LoadInfo* li,
                const PatternInfo* pi, const std::string& faults, const std::string& no_distances) {
  std::printf("topology          %s\n", topo.spec().c_str());
  if (m.faulty) {
    print_faulty_text(topo, m, faults, no_distances);
  } else {
    std::printf("nodes             %llu\n", static_cast<unsigned long long>(m.nodes));
    std::printf("links             %llu\n", static_cast<unsigned long long>(m.links));
    std::printf("channels          %llu (directed)\n", static_cast<unsigned long long>(m.channels));
    std::printf("degree histogram ");
    for (const auto& [deg, count] : m.degree_histogram) {
      std::printf(" %d:%llu", deg, static_cast<unsigned long long>(count));
    }
    std::printf("\n");
    std::printf("diameter          %d hops\n", m.diameter);
    std::printf("average distance  %.6f hops (ordered pairs s != d)\n", m.average_distance);
  }
  std::printf("bisection cut     %s: %llu | %llu nodes, %llu channels each way\n",
              m.bisection.description.c_str(), static_cast<unsigned long long>(m.bisection.side_a),
              static_cast<unsigned long long>(m.bisection.side_b),
              static_cast<unsigned long long>(m.bisection.channels_ab));
  std::printf("bisection bound   %.6f flits/node/cycle (uniform traffic)\n", m.bisection.bound);
  std::string names;
  for (const auto& n : routing_names(topo)) names += (names.empty() ? "" : ", ") + n;
  std::printf("routings          %s\n", names.c_str());
  if (li != nullptr) print_load_text(*li, m);
  if (pi != nullptr) print_pattern_text(*pi, m.nodes);
}

void print_json(const Topology& topo, const TopologyMetrics& m, const LoadInfo* li,
                const PatternInfo* pi, const std::string& faults) {
  JsonWriter j;
  j.begin_object();
  j.field("topology", topo.spec());
  j.field("nodes", m.nodes).field("links", m.links).field("channels", m.channels);
  if (m.faulty) {
    // nodes, links, channels, degrees, distances and the cut above are the working network's.
    const WorkingConnectivity& c = m.connectivity;
    j.key("faults").begin_object();
    j.field("description", faults);
    j.field("failed_nodes", m.failed_nodes).field("failed_links", m.failed_links);
    j.field("topology_nodes", static_cast<std::uint64_t>(topo.num_nodes()));
    j.field("topology_links", static_cast<std::uint64_t>(topo.num_links()));
    j.field("connected", c.connected()).field("components", c.components);
    j.field("largest_component", c.largest);
    j.field("distances_known", m.distances_known).field("distance_pairs", m.distance_pairs);
    j.end_object();
  }
  j.key("degree_histogram").begin_object();
  for (const auto& [deg, count] : m.degree_histogram) j.field(std::to_string(deg), count);
  j.end_object();
  j.field("diameter", m.diameter).field("average_distance", m.average_distance);
  j.key("bisection").begin_object();
  j.field("cut", m.bisection.description)
      .field("side_a", m.bisection.side_a)
      .field("side_b", m.bisection.side_b)
      .field("channels_each_way", m.bisection.channels_ab)
      .field("bound", m.bisection.bound);
  j.end_object();
  j.field("bisection_bound", m.bisection.bound);
  j.key("routings").begin_array();
  for (const auto& n : routing_names(topo)) j.value(n);
  j.end_array();
  if (li != nullptr) {
    const LoadReport& l = li->loads;
    const DeliveryReport& d = li->delivery;
    j.field("routing", li->routing);
    j.field("pi", l.pi).field("sigma4", l.sigma4).field("min_load", l.min_load);
    j.field("perfect_load", l.perfect_load).field("mean_load", l.mean_load);
    j.field("saturation_rate", l.saturation_rate);
    j.field("analysis", li->plan).field("states", li->states);
    j.field("analysis_seconds", li->seconds);
    j.key("delivery").begin_object();
    j.field("ok", d.ok).field("defect", d.defect).field("max_path", d.max_path);
    j.field("average_path", d.average_path).field("average_minimal", d.average_minimal);
    j.field("stretch", d.stretch()).field("all_minimal", d.all_minimal);
    j.field("pairs", d.pairs).field("unclaimed", d.unclaimed);
    j.end_object();
  }
  if (pi != nullptr) {
    const PatternLoadReport& l = pi->loads;
    j.key("pattern").begin_object();
    j.field("traffic", pi->name).field("fixed", pi->fixed);
    j.field("pairs", l.pairs).field("unclaimed", l.unclaimed_pairs);
    j.field("senders", l.senders).field("silent", pi->silent);
    j.field("pi", l.pi).field("min_load", l.min_load).field("mean_load", l.mean_load);
    j.field("saturation_rate", l.saturation_rate).field("offered_at_ideal", l.offered_at_ideal);
    j.field("states", l.states).field("analysis_seconds", pi->seconds);
    j.field("defect", l.defect);
    j.end_object();
  }
  j.end_object();
  std::printf("%s\n", j.str().c_str());
}

/// The metrics of `topo` with `faults`: without faults the closed forms; with them the
/// working network's, its distances searched from every working node split over the ranks
/// (skipped, with `why`, when the search would take more than about two minutes per rank).
TopologyMetrics faulty_metrics_on_ranks(const Topology& topo, const FaultSet& faults,
                                        const Communicator& comm, std::string& why) {
  if (faults.empty()) return compute_metrics(topo);
  TopologyMetrics m = compute_metrics(topo, faults, false);
  // Node visits of the all-pairs search: one per working source and node reached.
  const auto working = static_cast<std::uint64_t>(faults.working_nodes());
  const std::uint64_t visits = working * working;
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  if (visits > kExactLoadStatesPerRank * ranks) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "a search from every working node visits about %.3g nodes, more than %.3g per "
                  "rank on %d rank%s; run on at least %llu ranks",
                  static_cast<double>(visits), static_cast<double>(kExactLoadStatesPerRank),
                  comm.size(), ranks > 1 ? "s" : "",
                  static_cast<unsigned long long>((visits + kExactLoadStatesPerRank - 1) /
                                                  kExactLoadStatesPerRank));
    why = buf;
    return m;
  }
  DistanceTotals d = working_distance_totals(topo, faults, static_cast<std::uint32_t>(comm.rank()),
                                             static_cast<std::uint32_t>(comm.size()));
  std::uint64_t sums[2] = {d.sum, d.pairs};
  comm.sum(std::span<std::uint64_t>(sums, 2));
  d.sum = sums[0];
  d.pairs = sums[1];
  d.diameter = static_cast<int>(comm.max(static_cast<std::uint64_t>(d.diameter)));
  set_distances(m, d);
  return m;
}

}  // namespace

Command add_info_command(CLI::App& root) {
  auto opts = std::make_shared<InfoOptions>();
  CLI::App* app = root.add_subcommand("info", "Print properties of a topology");
  app->add_option("--topology,-t", opts->topology,
                  std::string(topology_forms()) + " (e.g. honeycomb:6, torus:8x8x8)")
      ->required();
  app->add_option("--routing,-r", opts->routing,
                  "routing function, for --load: " + routing_catalog());
  app->add_flag("--load", opts->load,
                "Channel loads of --routing over all ordered pairs: pi, sigma(4), saturation rate");
  add_flow_control_option(app, opts->flow, "credit (default) or bubble");
  add_ring_tie_option(app, opts->tie);
  app->add_option("--tables", opts->tables, "routing-table file, for --routing table");
  app->add_option("--traffic", opts->traffic.pattern,
                  "with --load, also the loads and ideal saturation rate of this traffic "
                  "pattern (uniform, transpose, neighbor, tornado, bit-complement, hotspot, "
                  "all-to-all: the routes of its pairs, each weighted by its share)")
      ->transform(choice_of<TrafficPattern>())
      ->default_str(enum_name(opts->traffic.pattern));
  app->add_option("--hotspot-fraction", opts->traffic.hotspot_fraction,
                  "share of messages to hotspots (--traffic hotspot)")
      ->capture_default_str();
  app->add_option("--hotspot-nodes", opts->traffic.hotspot_nodes,
                  "hotspot node ids (--traffic hotspot; default 0)")
      ->delimiter(',');
  app->add_flag("--json", opts->json, "Print one JSON object instead of text");
  add_fault_options(*app, opts->faults);
  return {app, [opts, app] {
            check_fault_options(opts->faults, given_options(*app));
            const auto topo = make_topology(opts->topology);
            const Communicator comm = Communicator::world();
            const auto faults = build_faults(*topo, opts->faults, comm);
            if (opts->load && opts->routing.empty()) {
              throw InputError("--load", "set", "needs --routing");
            }
            if (!opts->tables.empty() && opts->routing.empty()) {
              throw InputError("--tables", opts->tables, "is read with --routing table only");
            }
            // The pattern options describe traffic for --load; with another pattern than
            // hotspot the hotspot ones are refused, as run refuses them.
            SimConfig shown_config;
            shown_config.traffic = opts->traffic;
            const auto shown = [&](const char* option) {
              return traffic_option_text(shown_config, option);
            };
            for (const char* option : {"--traffic", "--hotspot-fraction", "--hotspot-nodes"}) {
              if (app->count(option) > 0 && !opts->load) {
                throw InputError(option, shown(option), "is read with --load only");
              }
            }
            if (opts->traffic.pattern != TrafficPattern::kHotspot) {
              for (const char* option : {"--hotspot-fraction", "--hotspot-nodes"}) {
                if (app->count(option) > 0) {
                  throw InputError(option, shown(option),
                                   std::string("is read with --traffic hotspot only (the "
                                               "traffic is ") +
                                       enum_name(opts->traffic.pattern) + ")");
                }
              }
            }
            const TrafficConfig& tc = opts->traffic;
            if (!(tc.hotspot_fraction >= 0.0 && tc.hotspot_fraction <= 1.0)) {
              throw InputError("--hotspot-fraction", number_text(tc.hotspot_fraction),
                               "must be in [0, 1]");
            }
            for (const int h : tc.hotspot_nodes) {
              if (h < 0 || static_cast<std::uint32_t>(h) >= topo->num_nodes()) {
                throw InputError(
                    "--hotspot-nodes", std::to_string(h),
                    "node ids must be in [0, " + std::to_string(topo->num_nodes() - 1) + "]");
              }
            }
            std::unique_ptr<RoutingFunction> routing;
            if (!opts->routing.empty()) {
              routing = load_routing(opts->routing, opts->tables, *topo, opts->flow, comm,
                                     opts->tie, faults.get())
                            .routing;
            }
            std::string no_distances;
            const TopologyMetrics m = faulty_metrics_on_ranks(*topo, *faults, comm, no_distances);
            // InputError when the pattern is not defined on the topology (or its faults).
            const DestinationPattern traffic(*topo, opts->traffic, faults.get());
            LoadInfo li;
            if (opts->load) {
              AnalysisOptions ao;
              ao.cdg = false;
              ao.faults = faults.get();
              require_affordable(analysis_scope(*topo, *routing, ao), comm, "--load", "set");
              TimedAnalysis t = timed_analysis(*topo, *routing, ao, comm);
              RoutingAnalysis& a = t.analysis;
              if (!faults->empty() && !a.delivery.ok) {
                throw InputError("--routing", routing->name(),
                                 "cannot run on this network with faults: " + a.delivery.defect +
                                     " (wormnet verify with the same faults shows it; "
                                     "docs/faults.md)");
              }
              li.seconds = t.seconds;
              li.plan = a.plan.summary(*topo);
              li.states = a.states_explored;
              li.routing = routing->name();
              li.delivery = a.delivery;
              li.loads = std::move(a.loads);
            }
            PatternInfo pi;
            const TrafficMatrix matrix(*topo, traffic);
            const bool pattern = opts->load && !matrix.uniform();
            if (pattern) {
              require_affordable(pattern_states(*topo, *routing, matrix), comm, "--traffic",
                                 enum_name(opts->traffic.pattern));
              TimedPatternAnalysis pa =
                  timed_pattern_analysis(*topo, *routing, matrix, 0, comm, faults.get());
              pi.name = enum_name(opts->traffic.pattern);
              pi.fixed = matrix.fixed();
              pi.silent = matrix.silent();
              pi.loads = std::move(pa.loads);
              pi.seconds = pa.seconds;
            }
            const LoadInfo* lp = opts->load ? &li : nullptr;
            const PatternInfo* pp = pattern ? &pi : nullptr;
            const std::string described = describe_faults(*topo, *faults, opts->faults);
            if (!comm.is_root()) {
            } else if (opts->json) {
              print_json(*topo, m, lp, pp, described);
            } else {
              print_text(*topo, m, lp, pp, described, no_distances);
            }
            return 0;
          }};
}

}  // namespace wormnet::cli
