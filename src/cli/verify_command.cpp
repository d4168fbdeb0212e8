// `wormnet verify`: proves a routing deadlock-free on a topology (acyclic channel dependency
// graph, every pair delivered) or prints a shortest dependency cycle. Exit 0 = deadlock-free,
// 1 = cycle found or routing defect, 2 = bad input.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "fault_options.hpp"
#include "json_writer.hpp"
#include "option_rules.hpp"
#include "rank_analysis.hpp"
#include "wormnet/driver/network_faults.hpp"
#include "wormnet/driver/routing_choice.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/verify/extended_dependency_graph.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::cli {

namespace {

struct VerifyOptions {
  FaultConfig faults;
  std::string topology;
  std::string routing;
  FlowControl flow = FlowControl::kCredit;
  RingTie tie = RingTie::kPlus;
  std::string tables;
  bool json = false;
};

void write_coords(JsonWriter& j, const Topology& topo, NodeId n) {
  const Coord c = topo.coords(n);
  j.begin_array();
  for (int i = 0; i < c.n; ++i) j.value(c[i]);
  j.end_array();
}

std::string vc_list(VcMask m) {
  std::string s;
  for (int v = 0; v < kMaxVcs; ++v) {
    if ((m >> v) & 1U) s += (s.empty() ? "" : ",") + std::to_string(v);
  }
  return s;
}

/// The plain CDG cycle: {from, to, direction, vc} per channel.
void write_cycle(JsonWriter& j, const Topology& topo,
                 const std::vector<ChannelDependencyGraph::Vertex>& cycle) {
  j.begin_array();
  for (const auto& v : cycle) {
    j.begin_object();
    j.key("from");
    write_coords(j, topo, topo.channel_source(v.channel));
    j.key("to");
    write_coords(j, topo, topo.channel_dest(v.channel));
    j.field("direction", Topology::port_label(topo.channel_port(v.channel)));
    j.field("vc", static_cast<int>(v.vc));
    j.end_object();
  }
  j.end_array();
}

/// Duato's cycle: the same per channel, plus whether it is an escape channel and, for the
/// adaptive channels of an indirect dependency, the packet's destination.
void write_duato_cycle(JsonWriter& j, const Topology& topo, const DuatoReport& dr) {
  j.begin_array();
  for (const auto& s : dr.cycle) {
    j.begin_object();
    j.key("from");
    write_coords(j, topo, topo.channel_source(s.channel));
    j.key("to");
    write_coords(j, topo, topo.channel_dest(s.channel));
    j.field("direction", Topology::port_label(topo.channel_port(s.channel)));
    j.field("vc", static_cast<int>(s.vc)).field("escape", s.escape);
    if (!s.escape) {
      j.key("dest");
      write_coords(j, topo, s.dest);
    }
    j.end_object();
  }
  j.end_array();
}

void write_duato_json(JsonWriter& j, const DuatoReport& dr) {
  j.key("duato").begin_object();
  j.field("escape_vcs", vc_list(dr.escape_vcs));
  j.field("connected", dr.connected()).field("disconnected", dr.disconnected);
  j.field("escape_vertices", dr.escape_vertices).field("direct", dr.direct);
  j.field("adaptive_states", dr.adaptive_states).field("indirect_edges", dr.indirect_edges);
  j.field("holds", dr.holds()).field("shortest", dr.shortest);
  j.end_object();
}

void print_duato_text(const Topology& topo,
                      const std::vector<ChannelDependencyGraph::Vertex>& plain_cycle,
                      const DuatoReport& dr) {
  std::printf("plain CDG  %s (not the criterion for an adaptive routing with escape channels)\n",
              plain_cycle.empty()
                  ? "acyclic"
                  : ("cyclic, a " + std::to_string(plain_cycle.size()) + "-channel cycle").c_str());
  std::printf(
      "escape     VCs %s: %llu channel-VC vertices used, %llu direct dependencies; "
      "%llu adaptive (channel, VC, state, destination) states bridge the indirect "
      "ones (%llu edges)\n",
      vc_list(dr.escape_vcs).c_str(), static_cast<unsigned long long>(dr.escape_vertices),
      static_cast<unsigned long long>(dr.direct),
      static_cast<unsigned long long>(dr.adaptive_states),
      static_cast<unsigned long long>(dr.indirect_edges));
  if (!dr.connected()) {
    std::printf(
        "verdict    NOT PROVEN: the escape sub-function is not connected: no escape "
        "step %s\n",
        dr.disconnected.c_str());
    return;
  }
  std::printf("connected  every state a packet can reach has an escape step\n");
  if (dr.cycle.empty()) {
    std::printf(
        "verdict    DEADLOCK-FREE (Duato): the escape sub-function is connected and its "
        "extended channel dependency graph (direct and indirect dependencies) is "
        "acyclic\n");
    return;
  }
  int escapes = 0;
  for (const auto& s : dr.cycle) escapes += s.escape ? 1 : 0;
  std::printf(
      "verdict    CYCLE: the extended channel dependency graph has a %scycle through %d "
      "escape channels (adaptive channels of indirect dependencies in between):\n",
      dr.shortest ? "shortest " : "", escapes);
  for (const auto& s : dr.cycle) {
    std::printf("  %s -> %s\n", describe_step(topo, s).c_str(),
                topo.node_label(topo.channel_dest(s.channel)).c_str());
  }
}

int run_verify(const VerifyOptions& o) {
  const auto topo = make_topology(o.topology);
  const Communicator comm = Communicator::world();
  const auto faults = build_faults(*topo, o.faults, comm);
  const auto routing =
      load_routing(o.routing, o.tables, *topo, o.flow, comm, o.tie, faults.get()).routing;
  // Every rank explores its share of the destinations; all get the whole graph.
  const auto t0 = std::chrono::steady_clock::now();
  AnalysisOptions ao;
  ao.loads = false;
  ao.faults = faults.get();
  const RoutingAnalysis a = analyze_on_ranks(*topo, *routing, ao, comm);
  auto cycle = a.cdg.shortest_cycle();
  // With rings set aside, a cycle can still run along a ring between two turns; bubble flow
  // control does not break that one, so it is searched with the ring dependencies kept.
  if (cycle.empty() && a.cdg.rings_set_aside()) cycle = a.cdg.cycle_through_turn();
  // An adaptive routing with escape channels is judged by Duato's condition instead (its
  // plain CDG is cyclic by design).
  const bool duato = routing->escape_vcs() != 0;
  DuatoReport dr;
  if (duato) dr = check_duato(*topo, *routing, 0, faults.get());
  const double seconds =
      comm.max(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  const bool free = duato ? dr.holds() : cycle.empty();
  const DeliveryReport& d = a.delivery;

  if (!comm.is_root()) {
  } else if (o.json) {
    JsonWriter j;
    j.begin_object();
    j.field("topology", topo->spec()).field("routing", routing->name());
    if (o.faults.any()) {
      j.key("faults").begin_object();
      j.field("description", describe_faults(*topo, *faults, o.faults));
      j.field("failed_nodes", static_cast<std::uint64_t>(faults->failed_nodes().size()));
      j.field("failed_links", static_cast<std::uint64_t>(faults->failed_links().size()));
      j.end_object();
    }
    j.field("vcs", routing->vcs_required());
    j.field("deadlock_free", free);
    j.field("rings_set_aside", a.cdg.rings_set_aside());
    j.field("cdg_vertices", a.cdg.num_vertices()).field("cdg_edges", a.cdg.num_edges());
    j.field("set_aside_edges", a.cdg.num_set_aside());
    // "cycle" refutes deadlock freedom under the criterion used: the plain CDG's, or for an
    // adaptive routing with escape channels the extended CDG's (the plain one is then
    // "plain_cycle").
    j.key("cycle");
    if (duato) {
      write_duato_cycle(j, *topo, dr);
      j.key("plain_cycle");
    }
    write_cycle(j, *topo, cycle);
    if (duato) write_duato_json(j, dr);
    j.key("delivery").begin_object();
    j.field("ok", d.ok).field("defect", d.defect).field("pairs", d.pairs);
    if (d.unclaimed > 0) j.field("unclaimed", d.unclaimed);
    j.field("max_path", d.max_path).field("average_path", d.average_path);
    j.field("average_minimal", d.average_minimal).field("stretch", d.stretch());
    j.field("all_minimal", d.all_minimal);
    j.end_object();
    j.field("states", a.states_explored).field("analysis", a.plan.summary(*topo));
    j.field("seconds", seconds);
    j.end_object();
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf("routing    %s on %s, %d VC%s per channel\n", routing->name().c_str(),
                topo->spec().c_str(), routing->vcs_required(),
                routing->vcs_required() > 1 ? "s" : "");
    std::printf("%s", fault_line(*topo, *faults, o.faults).c_str());
    if (d.ok) {
      std::printf(
          "delivery   ok: %llu pairs, every allowed choice arrives; max path %d hops, "
          "mean %.4f (minimal %.4f, stretch %.4f)%s\n",
          static_cast<unsigned long long>(d.pairs), d.max_path, d.average_path, d.average_minimal,
          d.stretch(), d.all_minimal ? ", all routes minimal" : "");
      if (d.unclaimed > 0) {
        std::printf(
            "unclaimed  %llu working pairs have no route in the table (no legal route around "
            "the faults): not checked; traffic that needs them is refused by run\n",
            static_cast<unsigned long long>(d.unclaimed));
      }
    } else {
      std::printf("delivery   FAILED: %s\n", d.defect.c_str());
    }
    std::printf("CDG        %llu channel-VC vertices, %llu dependencies\n",
                static_cast<unsigned long long>(a.cdg.num_vertices()),
                static_cast<unsigned long long>(a.cdg.num_edges()));
    if (a.cdg.rings_set_aside()) {
      std::printf(
          "rings      %llu dependencies inside rings (same dimension and direction) set "
          "aside: bubble flow control keeps each ring moving, so only the dependencies "
          "between rings must be acyclic, and no cycle may leave its ring\n",
          static_cast<unsigned long long>(a.cdg.num_set_aside()));
    }
    if (duato) {
      print_duato_text(*topo, cycle, dr);
    } else if (free) {
      std::printf("verdict    DEADLOCK-FREE: the channel dependency graph%s is acyclic%s\n",
                  a.cdg.rings_set_aside() ? " without ring-internal dependencies" : "",
                  a.cdg.rings_set_aside() ? "; with them, every cycle stays inside one ring" : "");
    } else {
      std::printf("verdict    CYCLE: a %sdependency cycle has %zu channels:\n",
                  a.cdg.shortest_cycle().empty() ? "ring-leaving " : "shortest ", cycle.size());
      for (const auto& v : cycle) {
        std::printf("  %s -> %s\n", a.cdg.describe(v).c_str(),
                    topo->node_label(topo->channel_dest(v.channel)).c_str());
      }
    }
    std::printf("time       %.3f s: %s; %llu routing states\n", seconds,
                a.plan.summary(*topo).c_str(), static_cast<unsigned long long>(a.states_explored));
  }
  return free && d.ok ? 0 : 1;
}

}  // namespace

Command add_verify_command(CLI::App& root) {
  auto opts = std::make_shared<VerifyOptions>();
  CLI::App* app = root.add_subcommand(
      "verify", "Prove a routing deadlock-free (acyclic channel dependency graph) or show a cycle");
  app->add_option("--topology,-t", opts->topology, topology_forms())->required();
  app->add_option("--routing,-r", opts->routing, "routing function: " + routing_catalog())
      ->required();
  add_flow_control_option(app, opts->flow, "credit (default) or bubble (one-VC torus rings)");
  add_ring_tie_option(app, opts->tie);
  app->add_option("--tables", opts->tables, "routing-table file, for --routing table");
  app->add_flag("--json", opts->json, "Print one JSON object");
  add_fault_options(*app, opts->faults);
  return {app, [opts, app] {
            check_fault_options(opts->faults, given_options(*app));
            return run_verify(*opts);
          }};
}

}  // namespace wormnet::cli
