// The reference router against the engine, cycle for cycle (docs/simulator.md, "The
// reference router: read this first"; docs/differential-testing.md). A seed draws a
// configuration of the router (topology kind and size, routing and its table, VCs, VC
// bandwidth, flow control, ring ties, buffer depth, every latency and pipeline delay,
// selection policy, message lengths, traffic pattern and load) and a way to run the engine
// (one to three parts exchanging like ranks, overlapped or not, small blocks for the
// skewed walk). Both models simulate it; every flit move, credit arrival and delivery is
// recorded, and the first cycle whose events differ is reported with the seed, the router
// (id and coordinates), its port and VC, and both models' events at that router.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "scripted_network.hpp"
#include "wormnet/config/config_validation.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/rng.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/rank_model.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/plan/run_plan.hpp"
#include "wormnet/router/reference/reference_network.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/routing/routing_registry.hpp"
#include "wormnet/tables/table_generator.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/topology/torus.hpp"
#include "wormnet/traffic/destination_pattern.hpp"

namespace wormnet::test {

/// One event of either model, comparable: a flit move, a credit arrival or a delivery.
struct RouterEvent {
  enum class Kind { kCredit, kMove, kDelivery };
  Cycle cycle = 0;
  std::uint32_t node = 0;
  Kind kind = Kind::kMove;
  int port = 0;  ///< move: input port; credit: output port; delivery: hops
  int vc = 0;    ///< move: input VC; credit: output VC; delivery: the injection cycle
  int out_port = 0;
  int out_vc = 0;
  std::uint64_t packet = 0;
  bool head = false;
  bool tail = false;
  auto operator<=>(const RouterEvent&) const = default;
};

inline std::string port_name(int port, int ports) {
  return port == ports ? "terminal" : Topology::port_label(static_cast<PortId>(port));
}

inline std::string describe(const RouterEvent& e, int ports) {
  std::ostringstream s;
  const auto packet = [&] {
    std::ostringstream p;
    p << "packet " << (e.packet >> 32) << "#" << (e.packet & 0xFFFFFFFFULL);
    return p.str();
  };
  switch (e.kind) {
    case RouterEvent::Kind::kCredit:
      s << "credit back at output " << port_name(e.port, ports) << " VC " << e.vc;
      break;
    case RouterEvent::Kind::kMove:
      s << (e.head ? (e.tail ? "head+tail" : "head") : (e.tail ? "tail" : "body")) << " flit of "
        << packet() << " from input " << port_name(e.port, ports) << " VC " << e.vc << " to output "
        << port_name(e.out_port, ports) << " VC " << e.out_vc;
      break;
    case RouterEvent::Kind::kDelivery:
      s << "delivery of " << packet() << " (" << e.port << " hops, injected at cycle " << e.vc
        << ")";
      break;
  }
  return s.str();
}

/// Records a model's events by cycle.
class EventLog : public RouterObserver {
 public:
  void moved(const FlitMove& m) override {
    add(RouterEvent{m.cycle, m.node, RouterEvent::Kind::kMove, m.in_port, m.in_vc, m.out_port,
                    m.out_vc, m.packet, m.head, m.tail});
  }
  void credited(const CreditArrival& c) override {
    add(RouterEvent{c.cycle, c.node, RouterEvent::Kind::kCredit, c.port, c.vc, 0, 0, 0, false,
                    false});
  }
  void delivered(std::uint64_t packet, std::uint32_t dest, Cycle done, int hops, Cycle injected) {
    add(RouterEvent{done, dest, RouterEvent::Kind::kDelivery, hops, static_cast<int>(injected), 0,
                    0, packet, false, false});
  }
  /// The events of cycle c, sorted; forgets them.
  std::vector<RouterEvent> take(Cycle c) {
    std::vector<RouterEvent> out;
    if (auto it = by_cycle_.find(c); it != by_cycle_.end()) {
      out = std::move(it->second);
      by_cycle_.erase(it);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  [[nodiscard]] Cycle last_cycle() const {
    return by_cycle_.empty() ? 0 : by_cycle_.rbegin()->first;
  }
  [[nodiscard]] std::uint64_t count() const { return count_; }

 private:
  void add(const RouterEvent& e) {
    by_cycle_[e.cycle].push_back(e);
    ++count_;
  }
  std::map<Cycle, std::vector<RouterEvent>> by_cycle_;
  std::uint64_t count_ = 0;
};

/// The option names of `wormnet run` for the enumerations a case draws.
inline const char* option_name(FlowControl f) {
  return f == FlowControl::kBubble ? "bubble" : "credit";
}
inline const char* option_name(RingTie t) {
  return std::array{"plus", "random", "alternating"}[static_cast<std::size_t>(t)];
}
inline const char* option_name(SelectionPolicy p) {
  return std::array{"priority", "random", "least-occupied"}[static_cast<std::size_t>(p)];
}
inline const char* option_name(VcBandwidth b) {
  return b == VcBandwidth::kPerVc ? "per-vc" : "shared";
}
inline const char* option_name(TrafficPattern p) {
  return std::array{"uniform",        "transpose", "neighbor",  "tornado",
                    "bit-complement", "hotspot",   "all-to-all"}[static_cast<std::size_t>(p)];
}
inline const char* option_name(InjectionProcess p) {
  return p == InjectionProcess::kBernoulli ? "bernoulli" : "poisson";
}

/// A drawn configuration: the router's options and how the engine runs it.
struct DifferentialCase {
  std::uint64_t seed = 0;
  std::string topology;
  std::string routing;
  SimConfig config;
  double rate = 0.0;  ///< flits/node/cycle
  Cycle cycles = 0;
  int parts = 1;  ///< RankModels the engine is split into
  bool geometric = true;
  bool overlap = false;  ///< exchange in the middle of a window's first cycle
  bool small_blocks = false;
  Cycle skew = 1;
  /// The engine's state moves onto `restart_parts` new models at this cycle, as a checkpoint
  /// and a restart on another rank count do (0: never).
  Cycle restart_at = 0;
  int restart_parts = 1;

  [[nodiscard]] std::string describe() const {
    const NetworkConfig& n = config.network;
    const TrafficConfig& tr = config.traffic;
    std::ostringstream s;
    s << "seed " << seed << ": -t " << topology << " -r " << routing << " --vcs " << n.vcs
      << " --buffer " << n.buffer_depth << " --vc-bandwidth " << option_name(n.vc_bandwidth)
      << " --flow-control " << option_name(n.flow_control) << " --ring-tie "
      << option_name(n.ring_tie) << " --selection " << option_name(n.selection)
      << " --link-latency " << n.link_latency << " --credit-latency " << n.credit_latency
      << " --routing-delay " << n.routing_delay << " --vc-alloc-delay " << n.vc_alloc_delay
      << " --switch-alloc-delay " << n.switch_alloc_delay << " --switch-delay " << n.switch_delay
      << " --injection-latency " << n.injection_latency << " --ejection-latency "
      << n.ejection_latency << " --length-min " << tr.length_min << " --length-max "
      << tr.length_max << " --traffic " << option_name(tr.pattern)
      << (tr.self_traffic ? " --self-traffic" : "") << " --process " << option_name(tr.process)
      << " --load " << rate << " --seed " << config.measure.seed << "; " << cycles
      << " cycles; engine: " << parts << " part(s) " << (geometric ? "geometric" : "blocks")
      << (overlap ? ", overlapped" : "")
      << (small_blocks ? ", blocks of 64, skew " + std::to_string(skew) : "")
      << (restart_at > 0 ? ", restarted at cycle " + std::to_string(restart_at) + " on " +
                               std::to_string(restart_parts) + " part(s)"
                         : "");
    return s.str();
  }
};

/// The network both models simulate (built once, shared).
struct DifferentialNetwork {
  std::unique_ptr<Topology> topo;
  std::shared_ptr<const RouteTable> table;
  std::unique_ptr<RoutingFunction> routing;
  RunPlan plan;
  std::unique_ptr<DestinationPattern> pattern;
};

/// Builds c's network; throws InputError when wormnet would refuse the configuration.
inline DifferentialNetwork build_network(const DifferentialCase& c) {
  DifferentialNetwork n;
  n.topo = make_topology(c.topology);
  if (c.routing == "table") {
    tables::GeneratorOptions o;
    o.algorithm = tables::TableAlgorithm::kBfs;
    n.table =
        tables::generate_table(static_cast<const Torus&>(*n.topo), o, Communicator::self()).table;
  }
  n.routing = make_routing(c.routing, *n.topo, c.config.network.flow_control, n.table,
                           c.config.network.ring_tie);
  validate_values(c.config);
  n.plan = make_run_plan(c.config, *n.topo, *n.routing);
  n.pattern = std::make_unique<DestinationPattern>(*n.topo, c.config.traffic);
  return n;
}

/// Draws a case from `seed`: a valid configuration (redrawn until wormnet would accept it).
inline DifferentialCase draw_case(std::uint64_t seed) {
  RandomStream rng(seed, 0x7265666572656E63ULL);  // "referenc"
  const auto pick = [&](int lo, int hi) {
    return static_cast<int>(
        rng.uniform_int(static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi)));
  };
  for (;;) {
    DifferentialCase c;
    c.seed = seed;
    // Topology: the honeycomb H_t, meshes and tori of 1 to 4 dimensions, the honeycomb tori;
    // mostly of a few dozen nodes, one in five up to 150 (several blocks of the skewed walk).
    const bool large = pick(0, 4) == 0;
    const int kind = pick(0, 9);
    if (kind <= 1) {
      c.topology = "honeycomb:" + std::to_string(pick(1, large ? 5 : 3));
    } else if (kind <= 7) {
      const int dims = pick(1, 4);
      const std::array<int, 5> small_sizes{0, 9, 6, 4, 3};
      const std::array<int, 5> large_sizes{0, 16, 12, 5, 3};
      const int max_size = (large ? large_sizes : small_sizes)[static_cast<std::size_t>(dims)];
      c.topology = kind <= 4 ? "torus:" : "mesh:";
      for (int d = 0; d < dims; ++d) {
        c.topology += (d > 0 ? "x" : "") + std::to_string(pick(2, max_size));
      }
    } else {
      static const std::array<const char*, 7> kHoneycombTori{
          "honeycomb-torus:1",    "honeycomb-torus:2",  "honeycomb-torus:3",
          "honeycomb-rect:2x4",   "honeycomb-rect:4x4", "honeycomb-rhombic:2x4",
          "honeycomb-rhombic:4x4"};
      c.topology = kHoneycombTori[static_cast<std::size_t>(pick(0, 6))];
    }
    const std::unique_ptr<Topology> topo = make_topology(c.topology);
    // Every routing the registry has for the topology (west-first on 2-D meshes only).
    std::vector<std::string> routings;
    for (const std::string& name : routing_names(*topo)) {
      const RoutingEntry* e = find_routing(name);
      if (e->dims == 0 || e->dims == topo->num_dims()) routings.push_back(name);
    }
    c.routing = routings[static_cast<std::size_t>(pick(0, static_cast<int>(routings.size()) - 1))];
    NetworkConfig& n = c.config.network;
    TrafficConfig& tr = c.config.traffic;
    n.topology = c.topology;
    n.routing = c.routing;
    n.flow_control = pick(0, 3) == 0 ? FlowControl::kBubble : FlowControl::kCredit;
    if (topo->kind() == TopologyKind::kTorus && takes_ring_tie(c.routing)) {
      n.ring_tie = static_cast<RingTie>(pick(0, 2));
    }
    const bool bubble =
        n.flow_control == FlowControl::kBubble || c.routing == "angara" || c.routing == "table";
    tr.length_min = pick(1, bubble ? 4 : 8);
    tr.length_max = pick(tr.length_min, bubble ? 5 : 10);
    n.buffer_depth = bubble ? 2 * tr.length_max + pick(0, 3) : pick(1, 6);
    n.vcs = pick(0, 1) == 0 ? 0 : pick(1, 8);  // below the routing's need: refused, redrawn
    n.vc_bandwidth = pick(0, 2) == 0 ? VcBandwidth::kPerVc : VcBandwidth::kShared;
    n.selection = static_cast<SelectionPolicy>(pick(0, 2));
    n.link_latency = pick(1, 3);
    n.credit_latency = pick(1, 3);
    n.routing_delay = pick(0, 2);
    n.vc_alloc_delay = pick(0, 2);
    n.switch_alloc_delay = pick(0, 2);
    n.switch_delay = pick(0, 2);
    n.injection_latency = pick(0, 1) == 0 ? 0 : pick(1, 2);
    n.ejection_latency = pick(0, 1) == 0 ? 0 : pick(1, 2);
    tr.pattern =
        pick(0, 1) == 0 ? TrafficPattern::kUniform : static_cast<TrafficPattern>(pick(0, 6));
    tr.self_traffic = tr.pattern == TrafficPattern::kUniform && pick(0, 4) == 0;
    tr.process = pick(0, 3) == 0 ? InjectionProcess::kBernoulli : InjectionProcess::kPoisson;
    // From nearly idle to far past saturation, log-uniform.
    c.rate = 0.005 * std::pow(200.0, rng.uniform());
    tr.load = c.rate;
    c.config.measure.seed = rng.next_u64() % 1000000;
    c.config.measure.deadlock_threshold = 1000000;
    c.config.measure.drain_limit = 0;
    // A few thousand router-cycles per node: short, yet long enough to fill the network.
    c.cycles =
        static_cast<Cycle>(std::clamp(60000 / static_cast<int>(topo->num_nodes()), 300, 2000));
    c.config.measure.warmup = 0;
    c.config.measure.measure = c.cycles;
    c.parts = topo->num_nodes() >= 4 ? pick(1, 3) : 1;
    c.geometric = pick(0, 1) == 0;
    c.overlap = c.parts > 1 && pick(0, 1) == 0;
    c.small_blocks = topo->num_nodes() > 64 && pick(0, 1) == 0;
    c.skew = static_cast<Cycle>(pick(1, 4));
    if (pick(0, 3) == 0) {
      c.restart_at = static_cast<Cycle>(pick(1, static_cast<int>(c.cycles) - 1));
      c.restart_parts = topo->num_nodes() >= 4 ? pick(1, 3) : 1;
    }
    try {
      const DifferentialNetwork net = build_network(c);
      // A permutation that maps every node to itself (transpose on a ring) sends nothing.
      bool silent = true;
      for (std::uint32_t v = 0; v < net.topo->num_nodes() && silent; ++v) {
        silent = net.pattern->silent(NodeId(v));
      }
      if (silent) continue;
    } catch (const InputError&) {
      continue;  // wormnet refuses it (too few VCs, a pattern the topology lacks, ...)
    }
    return c;
  }
}

/// The engine's RankModels of c, stepped in lockstep and exchanging their outboxes like the
/// ranks of an MPI run (tests/support/scripted_network.hpp does the same for scripted
/// traffic).
class EngineNetwork {
 public:
  EngineNetwork(const DifferentialCase& c, const DifferentialNetwork& n, EventLog& log)
      : c_(c), n_(n), log_(log), lookahead_(n.plan.lookahead), overlap_(c.overlap) {
    build(partition(c.parts));
  }

  /// Moves the whole state onto `parts` new models, as a checkpoint and a restart on another
  /// rank count do: every model's snapshot, merged, restored part by part.
  void restart(int parts) {
    if (pending_) exchange();  // a checkpoint is taken with nothing in flight between ranks
    pending_ = false;
    std::vector<ModelSnapshot> snapshots;
    for (const auto& m : models_) snapshots.push_back(m->state().snapshot());
    const Partition next = partition(parts);
    build(next);
    for (int p = 0; p < next.parts(); ++p) {
      models_[static_cast<std::size_t>(p)]->restore(merge_snapshots(snapshots, next.nodes_of(p)),
                                                    p == 0);
    }
  }

  void run_until(Cycle end) {
    for (auto& m : models_) m->set_level_at(end);
    while (now_ < end) {
      const Cycle chunk = std::min(end, now_ + lookahead_);
      for (auto& m : models_) m->set_window_end(chunk);
      if (overlap_ && pending_) {
        for (auto& m : models_) m->step_interior(now_);
        exchange();
        for (auto& m : models_) m->step_boundary(now_);
        ++now_;
      }
      for (; now_ < chunk; ++now_) {
        for (auto& m : models_) m->step(now_);
      }
      if (overlap_) {
        pending_ = true;
      } else {
        exchange();
      }
    }
  }

 private:
  void exchange() {
    for (std::size_t a = 0; a < models_.size(); ++a) {
      for (std::size_t b = 0; b < models_.size(); ++b) {
        if (a == b) continue;
        models_[b]->receive(models_[a]->outboxes()[b]);
        models_[a]->outboxes()[b].clear();
      }
    }
  }

  [[nodiscard]] Partition partition(int parts) const {
    return c_.geometric ? Partition::geometric(*n_.topo, parts)
                        : Partition::blocks(*n_.topo, parts);
  }
  void build(const Partition& partition) {
    partition_ = partition;
    WalkLayout layout;
    if (c_.small_blocks) {
      layout.blocked_min = 0;
      layout.block_shift = 6;
      layout.skewed_min = 0;
      layout.skew = c_.skew;
    }
    models_.clear();
    for (int p = 0; p < partition_.parts(); ++p) {
      models_.push_back(std::make_unique<RankModel>(c_.config, n_.plan, *n_.topo, *n_.routing,
                                                    *n_.pattern, partition_, p, c_.rate, layout));
      models_.back()->set_router_observer(&log_);
      models_.back()->set_delivery_observer([this](const Packet& pk, Cycle done) {
        log_.delivered(pk.id, pk.dest, done, pk.hops, pk.injected);
      });
    }
  }

  const DifferentialCase& c_;
  const DifferentialNetwork& n_;
  EventLog& log_;
  Cycle lookahead_;
  bool overlap_;
  bool pending_ = false;
  Cycle now_ = 0;
  Partition partition_;
  std::vector<std::unique_ptr<RankModel>> models_;
};

/// What a comparison found.
struct DifferentialResult {
  std::optional<std::string> failure;  ///< the first difference, described
  std::uint64_t events = 0;            ///< events compared (each model's)
};

/// Both models of case c, compared cycle by cycle.
inline DifferentialResult run_differential(const DifferentialCase& c) {
  const DifferentialNetwork n = build_network(c);
  EventLog engine_log;
  EventLog reference_log;
  EngineNetwork engine(c, n, engine_log);
  reference::ReferenceParams params;
  params.vcs = n.plan.vcs;
  params.bubble = n.plan.bubble;
  params.rate = c.rate;
  params.measure_begin = n.plan.window.begin;
  params.measure_end = n.plan.window.end();
  reference::ReferenceNetwork ref(c.config, params, *n.topo, *n.routing, *n.pattern);
  ref.set_observer(&reference_log);
  ref.set_delivery_observer([&](const reference::PacketRecord& p, Cycle done) {
    reference_log.delivered(p.id, p.dest, done, p.hops, p.injected);
  });
  const int ports = n.topo->num_ports();
  // The first difference of cycle t, if any: where, and both models' events there.
  const auto compare = [&](Cycle t) -> std::optional<std::string> {
    const std::vector<RouterEvent> a = engine_log.take(t);
    const std::vector<RouterEvent> b = reference_log.take(t);
    if (a == b) return std::nullopt;
    const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    const RouterEvent& first = ia == a.end() ? *ib : ib == b.end() ? *ia : std::min(*ia, *ib);
    std::ostringstream s;
    s << c.describe() << "\nfirst difference at cycle " << t << ", router " << first.node << " "
      << n.topo->node_label(NodeId(first.node)) << ", " << describe(first, ports);
    const auto list = [&](const char* who, const std::vector<RouterEvent>& events) {
      s << "\n  " << who << " at router " << first.node << " in cycle " << t << ":";
      bool any = false;
      for (const RouterEvent& e : events) {
        if (e.node != first.node) continue;
        s << "\n    " << describe(e, ports);
        any = true;
      }
      if (!any) s << " nothing";
    };
    list("engine", a);
    list("reference", b);
    s << "\nrerun: WORMNET_REFERENCE_SEEDS=" << c.seed
      << " build/release/tests/wormnet_unit_tests --gtest_filter='ReferenceRouterSoak.*'";
    return s.str();
  };
  DifferentialResult result;
  constexpr Cycle kChunk = 64;
  for (Cycle t0 = 0; t0 < c.cycles;) {
    Cycle t1 = std::min(c.cycles, t0 + kChunk);
    if (t0 < c.restart_at && c.restart_at < t1) t1 = c.restart_at;
    engine.run_until(t1);
    if (t1 == c.restart_at) engine.restart(c.restart_parts);
    for (Cycle t = t0; t < t1; ++t) ref.step(t);
    for (Cycle t = t0; t < t1; ++t) {
      if (auto f = compare(t)) {
        result.failure = f;
        return result;
      }
    }
    t0 = t1;
  }
  // Deliveries announced for after the last cycle (the ejection channel's latency).
  const Cycle last = std::max(engine_log.last_cycle(), reference_log.last_cycle());
  for (Cycle t = c.cycles; t <= last; ++t) {
    if (auto f = compare(t)) {
      result.failure = f;
      return result;
    }
  }
  result.events = engine_log.count();
  return result;
}

}  // namespace wormnet::test
