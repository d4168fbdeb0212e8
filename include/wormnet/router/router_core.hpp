// What the stages of a rank's routers share: the parameters, the routing, the numbering of
// a router's VCs (port * vcs + vc) and its tables, the input and output units (structure of
// arrays over all the rank's routers, indexed by local router) and the packet table. The
// stage classes (injection_stage.hpp, vc_allocation_stage.hpp, switch_stage.hpp) keep their
// own arbiter state and take this by reference; RouterBank owns it and them, and is all the
// rank sees.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/router/congestion_counters.hpp"
#include "wormnet/router/input_unit.hpp"
#include "wormnet/router/output_unit.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/router/router_params.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

struct RouterCore {
  /// The routers `nodes` (global ids; local index = position) of `topo`, routed by
  /// `routing`; their packets live in `packets` (shared with the rank's links). Every input
  /// buffer empty, every output VC free with `depth` credits (the ejection port's unlimited).
  RouterCore(const RouterParams& params, const Topology& topo, const RoutingFunction& routing,
             std::vector<std::uint32_t> nodes, PacketTable& packets);

  [[nodiscard]] std::uint32_t routers() const { return static_cast<std::uint32_t>(nodes.size()); }
  /// port * vcs + vc -> port, and -> vc (no division in the hot loop).
  [[nodiscard]] int port_of(std::uint32_t local_vc) const { return port_of_[local_vc]; }
  [[nodiscard]] int vc_of(std::uint32_t local_vc) const { return vc_of_[local_vc]; }
  /// VC -> the routing's VC class (VC mod vcs_required()): a head's route at every hop
  /// needed a virtual call and a division for it.
  [[nodiscard]] int class_of(std::uint32_t local_vc) const { return class_of_[local_vc]; }
  /// The physical VCs (bit per VC) of a routing VC-class mask on a network port.
  [[nodiscard]] VcMask class_vcs(VcMask classes) const { return class_vcs_[classes]; }
  /// Whether output port p's dimension is a ring (a torus dimension; bubble flow control).
  [[nodiscard]] bool ring_port(int p) const { return ring_port_[static_cast<std::size_t>(p)] != 0; }
  /// The whole vc_of() table (prefer_adaptive() reads it by candidate).
  [[nodiscard]] const std::uint8_t* vc_table() const { return vc_of_.data(); }

  /// Flit f enters input VC local_vc (port * vcs + vc) of router r at its arrival cycle t.
  /// Inline: the rank calls it for every flit it takes off a link. kCounted: counts where
  /// packets wait, at the cycle the counters were set to (CongestionCounters::set_cycle, the
  /// counted walk); the non-template deposit() below asks the flag (any t).
  /// W: the layout of the header's masks and VC states (MaskWidth; the walk's, or kAny to ask
  /// the unit).
  template <bool kCounted, MaskWidth W = MaskWidth::kAny>
  [[gnu::always_inline]] inline void deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) {
    if constexpr (W == MaskWidth::kAny) {
      inputs.wide() ? deposit<kCounted, MaskWidth::kWide>(r, local_vc, f, t)
                    : deposit<kCounted, MaskWidth::kNarrow>(r, local_vc, f, t);
    } else {
      const std::uint32_t i = inputs.index(r, local_vc);
      const auto& s = inputs.template state<W>(i);
      const VcMask escape = params.escape_vcs;
      if (escape != 0 && f.head() && port_of_[static_cast<std::size_t>(local_vc)] != params.ports &&
          ((escape >> vc_of_[static_cast<std::size_t>(local_vc)]) & 1U) == 0) {
        require(s.count == 0, "a head flit joined another packet in an adaptive VC (Duato)");
      }
      // Into an empty buffer its wait starts now; without a branch, since whether the buffer
      // was empty is data (the branch mispredicted often: docs/scaling.md, "Measured figures
      // behind the engine's rules"). A head at an idle VC (empty, and kIdle is 0) starts its
      // route: once per packet and hop, one branch on both fields.
      inputs.mark_if(i, t, s.count == 0);
      static_assert(static_cast<int>(VcStage::kIdle) == 0);
      if ((static_cast<unsigned>(s.count) | static_cast<unsigned>(s.stage)) == 0) [[unlikely]] {
        require(f.head(), "a body flit arrived at an idle input VC");
        inputs.set_stage<W>(r, local_vc, VcStage::kWaitVc);  // ready at t + routing delay
        if constexpr (kCounted) congestion.deposited_now(i, true, false, false);
      } else if constexpr (kCounted) {
        // A flit into an empty active VC: past its delay, held (and blocked) from now.
        const bool joined = s.count == 0 && s.stage == VcStage::kActive;
        congestion.deposited_now(i, false, joined, ((inputs.blocked<W>(r) >> local_vc) & 1U) != 0);
      }
      inputs.push<W>(r, local_vc, f);
    }
  }
  void deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) {
    deposit<false>(r, local_vc, f, t);
    if (congestion.counting()) [[unlikely]]
      count_deposit(r, local_vc, t);
  }
  /// Where packets wait (CongestionCounters), for the callers outside the counted walk (at
  /// any cycle: a remote flit's past arrival, the tests): a flit has entered input VC
  /// local_vc of router r at t; a credit arriving at t unblocked router r's input VCs
  /// `bits`. Out of line: those paths are not the walk's.
  [[gnu::noinline, gnu::cold]] void count_deposit(std::uint32_t r, int local_vc, Cycle t);
  /// The counted walk counts its credits' unblocks later, together (count_unblocked_now()).
  void count_unblock(std::uint32_t r, std::uint64_t bits, Cycle t) {
    for (; bits != 0; bits &= bits - 1) {
      const std::uint32_t i = inputs.index(r, std::countr_zero(bits));
      if (inputs.count(i) != 0) congestion.unblocked(i, t, inputs.ready_near(i, t));
    }
  }
  /// The counted walk's credits of a block are in: counts the input VCs they unblocked
  /// (CongestionCounters::note_unblocked_now) that hold flits, as count_unblock() would have.
  void count_unblocked_now() {
    congestion.unblocked_noted([this](std::uint32_t i) {
      if (inputs.count(i) != 0)
        congestion.unblocked_now(i, inputs.ready_near(i, congestion.cycle()));
    });
  }
  /// Output VC o (an OutputUnit index) of router r is free again (its packet's
  /// tail left through it): the heads parked at r for want of a free output VC request
  /// again from the next cycle. Every release goes through here, so that none stays parked.
  template <MaskWidth W = MaskWidth::kAny>
  [[gnu::always_inline]] inline void release_output(std::uint32_t r, std::uint32_t o) {
    outputs.set_owner(o, OutputUnit::kFree);
    if (inputs.parked<W>(r) != 0) [[unlikely]]
      inputs.unpark<W>(r);
  }
  /// The packet slot of output VC o's owner (o owned): found at the owning input VC.
  [[nodiscard]] std::uint32_t owner_packet(std::uint32_t o) const {
    return inputs.sending_packet(inputs.index(outputs.router_of(o), outputs.owner(o)));
  }
  /// The routing's options for the front packet p of input VC (in_port, vc) of router r.
  void routing_options(std::uint32_t r, int in_port, int vc, const Packet& p,
                       RouteOptions& out) const;
  /// Empties every input buffer (wait stamps at 0, no injection in progress) and frees every
  /// output VC, with `depth` credits each (the ejection port's unlimited).
  void clear();

  RouterParams params;
  const RoutingFunction& routing;
  std::vector<std::uint32_t> nodes;  ///< local index -> global node id
  PacketTable& packets;
  InputUnit inputs;
  OutputUnit outputs;
  /// Where packets wait (off unless params.congestion: then nothing is allocated).
  CongestionCounters congestion;

 private:
  std::vector<std::uint8_t> ring_port_;  ///< [port]: 1 if the port's dimension is a ring
  std::array<VcMask, 256> class_vcs_{};  ///< routing VC-class mask -> physical VCs
  std::array<std::uint8_t, 64> port_of_{};
  std::array<std::uint8_t, 64> vc_of_{};
  std::array<std::uint8_t, 64> class_of_{};
};

}  // namespace wormnet
