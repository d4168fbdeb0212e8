// The routers of one rank and their pipeline, over structure-of-arrays state (one InputUnit
// and OutputUnit for all of them, indexed by local router: RouterCore). A router step runs
// the stages in the pipeline's order, each a class of its own with its arbiter state:
// injection (source queue to injection buffer, InjectionStage), VC allocation (route, pick a
// free output VC by the selection policy and the VC rules, arbitrate: VcAllocationStage),
// and switch allocation with traversal (one flit per input and output port, or per VC:
// SwitchStage). Each flit that wins the switch is handed to the caller's `on_move` as it
// leaves (a template parameter, so the call inlines): carrying it over a link or ejecting it
// is the rank's (RankModel), so the bank never sees a link, a wheel or another rank.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/router/injection_stage.hpp"
#include "wormnet/router/input_unit.hpp"
#include "wormnet/router/output_unit.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/router/router_core.hpp"
#include "wormnet/router/router_params.hpp"
#include "wormnet/router/switch_stage.hpp"
#include "wormnet/router/vc_allocation_stage.hpp"
#include "wormnet/router/vc_choice.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/traffic/traffic_sources.hpp"

namespace wormnet {

class RouterBank {
 public:
  using Injected = InjectionStage::Injected;
  /// The packet being written into a router's injection buffer (kept by the input unit).
  using Injection = wormnet::Injection;

  /// The routers `nodes` (global ids; local index = position) of `topo`, routed by
  /// `routing`; their packets live in `packets` (shared with the rank's links).
  RouterBank(const RouterParams& params, const Topology& topo, const RoutingFunction& routing,
             std::vector<std::uint32_t> nodes, PacketTable& packets)
      : core_(params, topo, routing, std::move(nodes), packets),
        switch_(core_.routers(), params.ports + 1) {}

  /// Flit f enters input VC local_vc (port * vcs + vc) of router r at its arrival cycle t.
  /// Inline: the rank calls it for every flit it takes off a link.
  void deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) { core_.deposit(r, local_vc, f, t); }
  /// Cycle t at router r, its stages in the pipeline's order: injection from `source` (r's
  /// queue, marked filled here when it holds messages), then allocate(). Each flit that
  /// crosses the switch is passed on as on_move(in_port, in_vc, out_port, out_vc, flit)
  /// (port P: injection / ejection).
  template <class OnMove>
  Injected step(std::uint32_t r, Cycle t, SourceQueue& source, OnMove&& on_move) {
    if (!source.empty()) source_filled(r);
    const Injected injected = has_injection(r) ? inject(r, t, source) : Injected{};
    allocate(r, t, on_move);
    return injected;
  }
  /// Router r's source queue received a message (its owner pushed one).
  void source_filled(std::uint32_t r) { InjectionStage::source_filled(core_, r); }
  /// Whether router r's injection stage has work: a packet being written or a message queued.
  [[nodiscard]] bool has_injection(std::uint32_t r) const {
    return InjectionStage::has_work(core_, r);
  }
  /// The injection stage at router r in cycle t (step() runs it when it has work).
  Injected inject(std::uint32_t r, Cycle t, SourceQueue& source) {
    return InjectionStage::step(core_, r, t, source);
  }
  /// The stages after injection at router r in cycle t: VC allocation, then switch
  /// allocation and traversal (on_move as for step()). Inlined into the caller's loop over
  /// routers, like the switch stage.
  template <class OnMove>
  [[gnu::always_inline]] inline void allocate(std::uint32_t r, Cycle t, OnMove&& on_move) {
    const InputUnit& in = core_.inputs;
    // VCs granted now wait out the VC allocation delay: a delay of 1 (the default) ends by
    // the next cycle, so those need no `settling` bit and its check (longer delays set it).
    // Parked heads (every output VC they may take is owned) wait for a tail to free one.
    const std::uint64_t granted = in.requesting(r) != 0 ? VcAllocationStage::step(core_, r, t) : 0;
    const std::uint64_t movable = in.active(r) & in.nonempty(r) & ~in.blocked(r) & ~granted;
    if (movable != 0) switch_.step(core_, r, t, movable, on_move);
  }
  /// Output VC o (an OutputUnit index) of router r is free again at cycle t: the heads
  /// parked at r request again from the next cycle (RouterCore::release_output).
  void release_output(std::uint32_t r, std::uint32_t o, Cycle t) { core_.release_output(r, o, t); }
  /// A credit comes back to output VC o (an OutputUnit index): its downstream buffer has a
  /// free slot again, and the input VC that owns o may move if it was blocked for want of
  /// one. Every credit returns through here, so that InputUnit::blocked() stays true.
  ///
  /// kSparse: the router's header is written only when the credit unblocks a VC. On a large
  /// rank most credits come back after their packet has left the router, to a header no
  /// other work touches in that cycle and which is in no cache: a line from memory for a
  /// write that changes nothing. Where the headers are cached (a small rank), whether a credit
  /// unblocks is data (about half of the mesh:16x16 bench case's do), and the unconditional
  /// write costs less than the branch's mispredictions.
  template <bool kSparse = false>
  void return_credit(std::uint32_t o) {
    const std::uint64_t unblocked = core_.outputs.return_credit_unblocking(o);
    if constexpr (kSparse) {
      if (unblocked == 0) [[likely]]
        return;
    }
    core_.inputs.unblock(core_.outputs.router_of(o), unblocked);
  }
  /// Hints for what deposit(r, local_vc, ...) and return_credit(o) will write, issued a
  /// while before them so that the fetches from memory overlap other work. No effect on
  /// the state.
  void prefetch_deposit(std::uint32_t r, int local_vc) const { core_.inputs.prefetch(r, local_vc); }
  /// Hint for what a head's route and VC allocation at router r read besides its packet
  /// and the router's header: its output VC records (the owners of those the route allows).
  void prefetch_route(std::uint32_t r) const {
    core_.outputs.prefetch_span(core_.outputs.index(r, 0),
                                core_.outputs.index(r, (params().ports + 1) * params().vcs - 1));
  }
  /// Hint for router r's header (its stage masks: the first thing its step reads).
  void prefetch_header(std::uint32_t r) const { core_.inputs.prefetch_header(r); }
  /// Hint for the records of router r's input VCs that hold flits (reads its header).
  void prefetch_inputs(std::uint32_t r) const {
    for (std::uint64_t m = core_.inputs.nonempty(r); m != 0; m &= m - 1) {
      core_.inputs.prefetch_record(core_.inputs.index(r, std::countr_zero(m)));
    }
  }
  /// Hint for what return_credit<true>(o) reads and writes: o's record (its router's header
  /// only when the credit unblocks a VC, which the hint cannot know and which is rare).
  void prefetch_credit(std::uint32_t o) const { core_.outputs.prefetch(o); }
  /// Sets the switch stage's masks (InputUnit::blocked() and settling()) from the input
  /// VCs' stages and the output VCs' credits, after a restore wrote those directly.
  void rebuild_switch_masks() { SwitchStage::rebuild_masks(core_); }
  /// Whether router r has nothing to do until a flit or a message arrives.
  [[nodiscard]] bool idle(std::uint32_t r) const {
    return core_.inputs.nonempty(r) == 0 && !has_injection(r);
  }

  /// What input VC local_vc of router r, stuck at cycle t, waits for (appended to `waits`;
  /// VcAllocationStage::wait_for(), from the VC-choice function).
  void wait_for(std::uint32_t r, int local_vc, Cycle t, std::vector<VcWait>& waits) const {
    VcAllocationStage::wait_for(core_, r, local_vc, t, waits);
  }

  [[nodiscard]] const RouterParams& params() const { return core_.params; }
  [[nodiscard]] std::uint32_t routers() const { return core_.routers(); }
  [[nodiscard]] const std::vector<std::uint32_t>& nodes() const { return core_.nodes; }
  /// port * vcs + vc -> port, and -> vc (no division in the hot loop).
  [[nodiscard]] int port_of(std::uint32_t local_vc) const { return core_.port_of(local_vc); }
  [[nodiscard]] int vc_of(std::uint32_t local_vc) const { return core_.vc_of(local_vc); }

  // The state, for the rank's queries, checkpoints and restores.
  [[nodiscard]] InputUnit& inputs() { return core_.inputs; }
  [[nodiscard]] const InputUnit& inputs() const { return core_.inputs; }
  [[nodiscard]] OutputUnit& outputs() { return core_.outputs; }
  [[nodiscard]] const OutputUnit& outputs() const { return core_.outputs; }
  [[nodiscard]] SwitchAllocator& switch_allocator() { return switch_.allocator(); }
  [[nodiscard]] const SwitchAllocator& switch_allocator() const { return switch_.allocator(); }
  [[nodiscard]] Injection& injection(std::uint32_t r) { return core_.inputs.injection(r); }
  [[nodiscard]] const Injection& injection(std::uint32_t r) const {
    return core_.inputs.injection(r);
  }
  /// Empties every input buffer (wait stamps at 0, no injection in progress) and frees every
  /// output VC: a restore then sets every VC and injection from the checkpoint.
  void clear_buffers() { core_.clear(); }

  /// Bytes of router state (buffers, VC states, allocators, stamps, injections).
  [[nodiscard]] std::size_t bytes() const {
    return core_.inputs.bytes() + core_.outputs.bytes() + switch_.bytes() +
           core_.nodes.capacity() * sizeof(std::uint32_t);
  }

 private:
  RouterCore core_;
  SwitchStage switch_;  ///< the injection and VC allocation stages keep their state in core_
};

}  // namespace wormnet
