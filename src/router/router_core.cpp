#include "wormnet/router/router_core.hpp"

#include <bit>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

RouterCore::RouterCore(const RouterParams& p, const Topology& topo, const RoutingFunction& r,
                       std::vector<std::uint32_t> ids, PacketTable& table)
    : params(p), routing(r), nodes(std::move(ids)), packets(table) {
  const int ports = params.ports;
  const int vcs = params.vcs;
  // VCs are numbered port * vcs + vc (the terminal port last) in 64-bit masks and 64-entry
  // tables (port_of_, vc_of_, the VC allocator's requests), and VC sets are 8-bit masks. The
  // run plan refuses larger routers as bad input (make_run_plan); a router built past these
  // bounds anyway would index past those tables, so it is refused here, once.
  require(vcs >= 1 && vcs <= kMaxVcs && ports >= 1 && ports <= kMaxPorts && (ports + 1) * vcs <= 64,
          "RouterBank: (ports + 1) x VCs must be at most 64, VCs at most kMaxVcs");

  ring_port_.assign(static_cast<std::size_t>(ports), 0);
  if (topo.kind() == TopologyKind::kTorus) {
    const auto& torus = static_cast<const Torus&>(topo);
    for (int q = 0; q < ports; ++q) {
      ring_port_[static_cast<std::size_t>(q)] =
          torus.is_ring(Topology::port_dim(static_cast<PortId>(q))) ? 1 : 0;
    }
  }
  // VC classes: a routing that needs R VCs sees class c = VC mod R; configuring more VCs
  // than it needs gives each class several interchangeable VCs.
  const int classes = routing.vcs_required();
  for (int m = 0; m < 256; ++m) {
    unsigned expanded = 0;
    for (int w = 0; w < vcs; ++w) {
      if ((m >> (w % classes)) & 1) expanded |= 1U << w;
    }
    class_vcs_[static_cast<std::size_t>(m)] = static_cast<VcMask>(expanded);
  }
  params.escape_vcs = class_vcs_[routing.escape_vcs()];
  for (int lv = 0; lv < 64; ++lv) {
    port_of_[static_cast<std::size_t>(lv)] = static_cast<std::uint8_t>(lv / vcs);
    vc_of_[static_cast<std::size_t>(lv)] = static_cast<std::uint8_t>(lv % vcs);
    class_of_[static_cast<std::size_t>(lv)] = static_cast<std::uint8_t>(lv % classes);
  }
  clear();
}

void RouterCore::clear() {
  const auto n = routers();
  inputs = InputUnit(n, params.ports + 1, params.vcs, params.depth, params.wide_masks,
                     StageDelays{static_cast<std::uint32_t>(params.routing_delay),
                                 static_cast<std::uint32_t>(params.vc_alloc_delay)});
  for (std::uint32_t r = 0; r < n; ++r) inputs.set_node(r, nodes[r]);
  outputs = OutputUnit(n, params.ports + 1, params.vcs, params.depth);
  if (params.congestion) {
    // Input and output VCs are numbered alike (router x (P + 1) x V): one count of each.
    congestion = CongestionCounters(inputs.vcs_per_router() * std::size_t{n},
                                    outputs.vcs_per_router() * std::size_t{n}, params.measure_begin,
                                    params.measure_end, params.routing_delay, params.vc_alloc_delay,
                                    params.congestion_series);
  }
  // The ejection channel never runs out of credits (a terminal sinks a flit a cycle).
  for (std::uint32_t r = 0; r < n; ++r) {
    for (int v = 0; v < params.vcs; ++v) {
      outputs.set_credits(outputs.index(r, params.ports * params.vcs + v), 0xFFFF);
    }
  }
}

void RouterCore::count_deposit(std::uint32_t r, int local_vc, Cycle t) {
  const std::uint32_t i = inputs.index(r, local_vc);
  const std::uint32_t count = inputs.count(i);
  const VcStage stage = inputs.stage(i);
  // The VC before the flit: empty and idle (the flit is a head, now at the front and
  // waiting) or empty and active (the flit follows its packet's flits); otherwise it held
  // flits, and the stage did not change.
  const bool was_empty = count == 1;
  congestion.deposited(i, t, count - 1U, was_empty && stage == VcStage::kWaitVc,
                       was_empty && stage == VcStage::kActive,
                       ((inputs.blocked(r) >> local_vc) & 1U) != 0, t + params.routing_delay);
}

void RouterCore::routing_options(std::uint32_t r, int in_port, int vc, const Packet& p,
                                 RouteOptions& out) const {
  out.clear();
  const int ports = params.ports;
  const std::uint32_t node = inputs.node(r);  // in the header the step has read
  if (p.dest == node) {
    out.add(static_cast<PortId>(ports), all_vcs(params.vcs), p.state);  // the state stays
    return;
  }
  RouteRequest req;
  req.node = NodeId(node);
  req.source = NodeId(p.source);
  req.dest = NodeId(p.dest);
  req.in_port = in_port == ports ? kInjectionPort : static_cast<PortId>(in_port);
  req.in_vc = in_port == ports ? 0 : static_cast<VcId>(class_of_[static_cast<std::size_t>(vc)]);
  req.state = p.state;
  routing.route(req, out);
}

}  // namespace wormnet
