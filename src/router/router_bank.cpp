#include "wormnet/router/router_bank.hpp"

#include <bit>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

RouterBank::RouterBank(const RouterParams& params, const Topology& topo,
                       const RoutingFunction& routing, std::vector<std::uint32_t> nodes,
                       PacketTable& packets)
    : params_(params), routing_(routing), nodes_(std::move(nodes)), packets_(packets) {
  const int ports = params_.ports;
  const int vcs = params_.vcs;
  const auto routers = static_cast<std::uint32_t>(nodes_.size());
  const int terminal_ports = ports + 1;
  // VCs are numbered port * vcs + vc (the terminal port last) in 64-bit masks and 64-entry
  // tables (port_of_, vc_of_, the VC allocator's requests), and VC sets are 8-bit masks. The
  // run plan refuses larger routers as bad input (make_run_plan); a bank built past these
  // bounds anyway would index past those tables, so it is refused here, once.
  require(
      vcs >= 1 && vcs <= kMaxVcs && ports >= 1 && ports <= kMaxPorts && terminal_ports * vcs <= 64,
      "RouterBank: (ports + 1) x VCs must be at most 64, VCs at most kMaxVcs");

  ring_port_.assign(static_cast<std::size_t>(ports), 0);
  if (topo.kind() == TopologyKind::kTorus) {
    const auto& torus = static_cast<const Torus&>(topo);
    for (int p = 0; p < ports; ++p) {
      ring_port_[static_cast<std::size_t>(p)] =
          torus.is_ring(Topology::port_dim(static_cast<PortId>(p))) ? 1 : 0;
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
  params_.escape_vcs = class_vcs_[routing.escape_vcs()];
  for (int lv = 0; lv < 64; ++lv) {
    port_of_[static_cast<std::size_t>(lv)] = static_cast<std::uint8_t>(lv / vcs);
    vc_of_[static_cast<std::size_t>(lv)] = static_cast<std::uint8_t>(lv % vcs);
    class_of_[static_cast<std::size_t>(lv)] = static_cast<std::uint8_t>(lv % classes);
  }

  clear_buffers();
  // The ejection channel never runs out of credits (a terminal sinks a flit a cycle).
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (int v = 0; v < vcs; ++v) outputs_.set_credits(outputs_.index(r, ports * vcs + v), 0xFFFF);
  }
  switch_allocator_ = SwitchAllocator(routers, terminal_ports);
}

void RouterBank::clear_buffers() {
  const auto routers = static_cast<std::uint32_t>(nodes_.size());
  inputs_ = InputUnit(routers, params_.ports + 1, params_.vcs, params_.depth);
  for (std::uint32_t r = 0; r < routers; ++r) inputs_.set_node(r, nodes_[r]);
  outputs_ = OutputUnit(routers, params_.ports + 1, params_.vcs, params_.depth);
}

void RouterBank::rebuild_switch_masks() {
  const int vcs = params_.vcs;
  for (std::uint32_t r = 0; r < routers(); ++r) {
    const std::uint64_t active = inputs_.active(r);
    inputs_.unblock(r, ~std::uint64_t{0});
    inputs_.settled(r, ~std::uint64_t{0});
    // Every active VC checks its `ready` once more: whatever it is, the check is exact.
    inputs_.settle(r, active);
    for (std::uint64_t mask = active; mask != 0; mask &= mask - 1) {
      const int lv = std::countr_zero(mask);
      const InputVcState& s = inputs_.state(inputs_.index(r, lv));
      const std::uint32_t o = outputs_.index(r, s.out_port * vcs + s.out_vc);
      if (outputs_.credits(o) == 0) inputs_.block(r, std::uint64_t{1} << lv);
    }
  }
}

std::uint64_t RouterBank::still_settling(std::uint32_t r, Cycle t, std::uint64_t unsure) {
  const std::uint32_t first = inputs_.index(r, 0);
  std::uint64_t waiting = 0;
  for (std::uint64_t mask = unsure; mask != 0; mask &= mask - 1) {
    const int lv = std::countr_zero(mask);
    if (!inputs_.state(first + static_cast<std::uint32_t>(lv)).ready_by(t)) {
      waiting |= std::uint64_t{1} << lv;
    }
  }
  inputs_.settled(r, unsure & ~waiting);
  return waiting;
}

void RouterBank::routing_options(std::uint32_t r, int in_port, int vc, const Packet& p,
                                 RouteOptions& out) const {
  out.clear();
  const int ports = params_.ports;
  const std::uint32_t node = inputs_.node(r);  // in the header the step has read
  if (p.dest == node) {
    out.add(static_cast<PortId>(ports), all_vcs(params_.vcs), p.state);  // the state stays
    return;
  }
  RouteRequest req;
  req.node = NodeId(node);
  req.source = NodeId(p.source);
  req.dest = NodeId(p.dest);
  req.in_port = in_port == ports ? kInjectionPort : static_cast<PortId>(in_port);
  req.in_vc = in_port == ports ? 0 : static_cast<VcId>(class_of_[static_cast<std::size_t>(vc)]);
  req.state = p.state;
  routing_.route(req, out);
}

std::size_t RouterBank::bytes() const {
  return inputs_.bytes() + outputs_.bytes() + switch_allocator_.bytes() +
         nodes_.capacity() * sizeof(std::uint32_t);
}

}  // namespace wormnet
