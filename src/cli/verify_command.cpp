// `wormnet verify`: proves a routing deadlock-free on a topology (acyclic channel dependency
// graph, every pair delivered) or prints a shortest dependency cycle. Exit 0 = deadlock-free,
// 1 = cycle found or routing defect, 2 = bad input.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "json_writer.hpp"
#include "routing_setup.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::cli {

namespace {

struct VerifyOptions {
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

int run_verify(const VerifyOptions& o) {
  const auto topo = make_topology(o.topology);
  const auto routing =
      make_cli_routing(o.routing, o.tables, *topo, o.flow, Communicator::world(), o.tie).routing;
  const auto t0 = std::chrono::steady_clock::now();
  AnalysisOptions ao;
  ao.loads = false;
  const RoutingAnalysis a = analyze_routing(*topo, *routing, ao);
  auto cycle = a.cdg.shortest_cycle();
  // With rings set aside, a cycle can still run along a ring between two turns; bubble flow
  // control does not break that one, so it is searched with the ring dependencies kept.
  if (cycle.empty() && a.cdg.rings_set_aside()) cycle = a.cdg.cycle_through_turn();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool free = cycle.empty();
  const DeliveryReport& d = a.delivery;

  if (o.json) {
    JsonWriter j;
    j.begin_object();
    j.field("topology", topo->spec()).field("routing", routing->name());
    j.field("vcs", routing->vcs_required());
    j.field("deadlock_free", free);
    j.field("rings_set_aside", a.cdg.rings_set_aside());
    j.field("cdg_vertices", a.cdg.num_vertices()).field("cdg_edges", a.cdg.num_edges());
    j.field("set_aside_edges", a.cdg.num_set_aside());
    j.key("cycle").begin_array();
    for (const auto& v : cycle) {
      const NodeId src = topo->channel_source(v.channel);
      j.begin_object();
      j.key("from");
      write_coords(j, *topo, src);
      j.key("to");
      write_coords(j, *topo, topo->channel_dest(v.channel));
      j.field("direction", Topology::port_label(topo->channel_port(v.channel)));
      j.field("vc", static_cast<int>(v.vc));
      j.end_object();
    }
    j.end_array();
    j.key("delivery").begin_object();
    j.field("ok", d.ok).field("defect", d.defect).field("pairs", d.pairs);
    j.field("max_path", d.max_path).field("average_path", d.average_path);
    j.field("average_minimal", d.average_minimal).field("stretch", d.stretch());
    j.field("all_minimal", d.all_minimal);
    j.end_object();
    j.field("seconds", seconds);
    j.end_object();
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf("routing    %s on %s, %d VC%s per channel\n", routing->name().c_str(),
                topo->spec().c_str(), routing->vcs_required(),
                routing->vcs_required() > 1 ? "s" : "");
    if (d.ok) {
      std::printf(
          "delivery   ok: %llu pairs, every allowed choice arrives; max path %d hops, "
          "mean %.4f (minimal %.4f, stretch %.4f)%s\n",
          static_cast<unsigned long long>(d.pairs), d.max_path, d.average_path, d.average_minimal,
          d.stretch(), d.all_minimal ? ", all routes minimal" : "");
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
    if (free) {
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
    std::printf("time       %.3f s\n", seconds);
  }
  return free && d.ok ? 0 : 1;
}

}  // namespace

Command add_verify_command(CLI::App& root) {
  auto opts = std::make_shared<VerifyOptions>();
  CLI::App* app = root.add_subcommand(
      "verify", "Prove a routing deadlock-free (acyclic channel dependency graph) or show a cycle");
  app->add_option("--topology,-t", opts->topology, "honeycomb:T, torus:AxB..., mesh:AxB...")
      ->required();
  app->add_option("--routing,-r", opts->routing, "routing function (see README)")->required();
  add_flow_control_option(app, opts->flow, "credit (default) or bubble (one-VC torus rings)");
  add_ring_tie_option(app, opts->tie);
  app->add_option("--tables", opts->tables, "routing-table file, for --routing table");
  app->add_flag("--json", opts->json, "Print one JSON object");
  return {app, [opts] { return run_verify(*opts); }};
}

}  // namespace wormnet::cli
