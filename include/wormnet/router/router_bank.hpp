// The routers of one rank and their pipeline, over structure-of-arrays state (one InputUnit,
// OutputUnit and allocator pair for all of them, indexed by local router). A router step runs
// the stages in order: injection (source queue to injection buffer), VC allocation (route,
// pick a free output VC by the selection policy and the VC rules, arbitrate), and switch
// allocation with traversal (one flit per input and output port, or per VC). Each flit that
// wins the switch is handed to the caller's `on_move` as it leaves (a template parameter, so
// the call inlines): carrying it over a link or ejecting it is the rank's (RankModel), so the
// bank never sees a link, a wheel or another rank.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/router/input_unit.hpp"
#include "wormnet/router/output_unit.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/router/router_params.hpp"
#include "wormnet/router/switch_allocator.hpp"
#include "wormnet/router/vc_allocator.hpp"
#include "wormnet/router/vc_choice.hpp"
#include "wormnet/router/vc_rules.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/traffic/traffic_sources.hpp"

namespace wormnet {

class RouterBank {
 public:
  /// What the injection stage did at a router in one cycle.
  struct Injected {
    std::uint32_t packets = 0;  ///< packets that left the source queue (0 or 1)
    std::uint32_t flits = 0;    ///< flits written to the injection buffer (0 or 1)
  };
  /// The packet being written into a router's injection buffer (kept by the input unit).
  using Injection = wormnet::Injection;

  /// The routers `nodes` (global ids; local index = position) of `topo`, routed by
  /// `routing`; their packets live in `packets` (shared with the rank's links).
  RouterBank(const RouterParams& params, const Topology& topo, const RoutingFunction& routing,
             std::vector<std::uint32_t> nodes, PacketTable& packets);

  /// Flit f enters input VC local_vc (port * vcs + vc) of router r at its arrival cycle t.
  /// Inline: the rank calls it for every flit it takes off a link.
  void deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) {
    const std::uint32_t i = inputs_.index(r, local_vc);
    InputVcState& s = inputs_.state(i);
    const VcMask escape = params_.escape_vcs;
    if (escape != 0 && f.head() && port_of_[static_cast<std::size_t>(local_vc)] != params_.ports &&
        ((escape >> vc_of_[static_cast<std::size_t>(local_vc)]) & 1U) == 0) {
      require(s.count == 0, "a head flit joined another packet in an adaptive VC (Duato)");
    }
    // Into an empty buffer its wait starts now; without a branch, since whether the buffer
    // was empty is data (a third of the mesh:16x16 bench case's deposits mispredicted that
    // branch, cachegrind's model). A head at an idle VC (empty, and kIdle is 0) starts its
    // route: once per packet and hop, one branch on both fields.
    inputs_.mark_if(i, t, s.count == 0);
    static_assert(static_cast<int>(VcStage::kIdle) == 0);
    if ((static_cast<unsigned>(s.count) | static_cast<unsigned>(s.stage)) == 0) [[unlikely]] {
      require(f.head(), "a body flit arrived at an idle input VC");
      inputs_.set_stage(r, local_vc, VcStage::kWaitVc);
      s.set_ready(t + params_.routing_delay);
    }
    inputs_.push(r, local_vc, f);
  }
  /// Cycle t at router r: injection from `source` (r's queue, marked filled here when it
  /// holds messages), then allocate(). Each flit
  /// that crosses the switch is passed on as on_move(in_port, in_vc, out_port, out_vc, flit)
  /// (port P: injection / ejection).
  template <class OnMove>
  Injected step(std::uint32_t r, Cycle t, SourceQueue& source, OnMove&& on_move) {
    if (!source.empty()) source_filled(r);
    const Injected injected = has_injection(r) ? inject(r, t, source) : Injected{};
    allocate(r, t, on_move);
    return injected;
  }
  /// Router r's source queue received a message (its owner pushed one): the injection stage
  /// has work until inject() takes the last one. The bit lives in the router's header, so
  /// a router step never reads the queue unless it holds messages.
  void source_filled(std::uint32_t r) { inputs_.injection(r).queued = 1; }
  /// Whether router r's injection stage has work: a packet being written or a message
  /// queued. Most routers of a busy network have none, and skip the stage.
  [[nodiscard]] bool has_injection(std::uint32_t r) const {
    const Injection& inj = inputs_.injection(r);
    return (inj.length | inj.queued) != 0;
  }
  /// The stages after injection at router r in cycle t: VC allocation, then switch
  /// allocation and traversal (on_move as for step()). Inlined into the caller's loop over
  /// routers, like allocate_switch().
  template <class OnMove>
  [[gnu::always_inline]] inline void allocate(std::uint32_t r, Cycle t, OnMove&& on_move) {
    // VCs granted now wait out the VC allocation delay: a delay of 1 (the default) ends by
    // the next cycle, so those need no `settling` bit and its check (longer delays set it).
    // Parked heads (every output VC they may take is owned) wait for a tail to free one.
    const std::uint64_t granted = inputs_.requesting(r) != 0 ? allocate_vcs(r, t) : 0;
    const std::uint64_t movable =
        inputs_.active(r) & inputs_.nonempty(r) & ~inputs_.blocked(r) & ~granted;
    if (movable != 0) allocate_switch(r, t, movable, on_move);
  }
  /// Output VC o (an OutputUnit index) of router r is free again at cycle t (its packet's
  /// tail left through it): the heads parked at r for want of a free output VC request
  /// again from the next cycle. Every release goes through here, so that none stays parked.
  [[gnu::always_inline]] inline void release_output(std::uint32_t r, std::uint32_t o, Cycle t) {
    outputs_.set_owner(o, OutputUnit::kFree);
    if (inputs_.parked(r) != 0) [[unlikely]]
      inputs_.unpark(r, t);
  }
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
    const std::uint64_t unblocked = outputs_.return_credit_unblocking(o);
    if constexpr (kSparse) {
      if (unblocked == 0) [[likely]]
        return;
    }
    inputs_.unblock(outputs_.router_of(o), unblocked);
  }
  /// Hints for what deposit(r, local_vc, ...) and return_credit(o) will write, issued a
  /// while before them so that the fetches from memory overlap other work. No effect on
  /// the state.
  void prefetch_deposit(std::uint32_t r, int local_vc) const { inputs_.prefetch(r, local_vc); }
  /// Hint for what a head's route and VC allocation at router r read besides its packet
  /// and the router's header: its output VC records (the owners of those the route allows).
  void prefetch_route(std::uint32_t r) const {
    outputs_.prefetch_span(outputs_.index(r, 0),
                           outputs_.index(r, (params_.ports + 1) * params_.vcs - 1));
  }
  /// Hint for router r's header (its stage masks: the first thing its step reads).
  void prefetch_header(std::uint32_t r) const { inputs_.prefetch_header(r); }
  /// Hint for the records of router r's input VCs that hold flits (reads its header).
  void prefetch_inputs(std::uint32_t r) const {
    for (std::uint64_t m = inputs_.nonempty(r); m != 0; m &= m - 1) {
      inputs_.prefetch_record(inputs_.index(r, std::countr_zero(m)));
    }
  }
  /// Hint for what return_credit<true>(o) reads and writes: o's record (its router's header
  /// only when the credit unblocks a VC, which the hint cannot know and which is rare).
  void prefetch_credit(std::uint32_t o) const { outputs_.prefetch(o); }
  /// Sets the switch stage's masks (InputUnit::blocked() and settling()) from the input
  /// VCs' stages and the output VCs' credits, after a restore wrote those directly.
  void rebuild_switch_masks();
  /// Whether router r has nothing to do until a flit or a message arrives.
  [[nodiscard]] bool idle(std::uint32_t r) const {
    return inputs_.nonempty(r) == 0 && !has_injection(r);
  }

  // The stages, in pipeline order (step() runs them; public for their tests).
  /// Starts the next message of `source` on a free injection VC when its injection channel
  /// delivered it (creation + injection latency <= t), and writes one flit of the packet
  /// being injected when the buffer has room.
  Injected inject(std::uint32_t r, Cycle t, SourceQueue& source);
  /// Every head waiting at r whose routing delay is over requests one free output VC its
  /// routing allows (selection policy, bubble and Duato rules); the VC allocator grants at
  /// most one head per output VC. Returns the input VCs granted (bit port * vcs + vc) when
  /// the VC allocation delay keeps them from the switch this cycle, else 0.
  std::uint64_t allocate_vcs(std::uint32_t r, Cycle t);
  /// Input VCs holding an output VC, with a flit and a credit (`movable`: the active,
  /// nonempty, unblocked ones), compete for the switch once past their VC allocation delay;
  /// the winners traverse it and go to `on_move` (defined in router/switch_stage.hpp).
  /// Inlined into the caller's loop over routers: nearly every active router gets here each
  /// cycle, and a call cost it the saving and restoring of every register it uses.
  template <class OnMove>
  [[gnu::always_inline]] inline void allocate_switch(std::uint32_t r, Cycle t,
                                                     std::uint64_t movable, OnMove& on_move);

  /// The VC-choice function: for head p at input port in_port of router r, whose routing
  /// offered `options`, calls visit(const VcChoice&) for each output VC the options allow,
  /// in the options' order and within an option by VC number, with the VC rules' verdict
  /// (vc_choice.hpp); stops at the first call that returns false. The VC allocation stage
  /// takes from it, and the deadlock detector's wait-for edges are read from it (wait_for()):
  /// the rules are stated once. Inlined into both (a visitor, no call per VC).
  template <class Visit>
  [[gnu::always_inline]] inline void choose_vcs(std::uint32_t r, int in_port, const Packet& p,
                                                const RouteOptions& options, Visit&& visit) const {
    const int ports = params_.ports;
    const int vcs = params_.vcs;
    const VcMask escape = params_.escape_vcs;
    for (int k = 0; k < options.size(); ++k) {
      const RouteOption& o = options[k];
      // Ejection takes any VC; a network port's VC classes stand for their physical VCs.
      const VcMask allowed = o.port == ports ? o.vcs : class_vcs_[o.vcs];
      for (int w = 0; w < vcs; ++w) {
        if (!((allowed >> w) & 1U)) continue;
        const int local = o.port * vcs + w;
        const std::uint32_t out = outputs_.index(r, local);
        // Each verdict calls the visitor from a place of its own, so that the inlined
        // visitor is specialized for it (no second branch on the verdict).
        const auto tell = [&](VcVerdict v) __attribute__((always_inline)) {
          const bool adaptive = escape != 0 && o.port != ports && ((escape >> w) & 1U) == 0;
          return visit(VcChoice{k, o.port, w, local, out, adaptive, v});
        };
        bool go_on;
        if (outputs_.owner(out) != OutputUnit::kFree) {
          go_on = tell(VcVerdict::kOwned);
        } else if (!bubble_allows(r, in_port, o.port, w, p)) {
          go_on = tell(VcVerdict::kBubble);
        } else if (escape != 0 && o.port != ports && ((escape >> w) & 1U) == 0 &&
                   !adaptive_vc_takes_new_packet(outputs_.credits(out), params_.depth)) {
          go_on = tell(VcVerdict::kAdaptiveNeedsEmpty);
        } else {
          go_on = tell(VcVerdict::kTake);
        }
        if (!go_on) return;
      }
    }
  }
  /// What input VC local_vc of router r, stuck at cycle t, waits for (appended to `waits`):
  /// holding an output VC without a credit, the VC downstream; a routed head, for each
  /// output VC its route allows, the owner's input VC or, refused by bubble flow control, the
  /// VC downstream (the VC-choice function's verdicts). Nothing when it has a way to move: a
  /// credit, a free output VC it may take (Duato's empty-buffer rule is not applied: a free
  /// adaptive VC counts as a way out, so a knot is never reported falsely), the ejection
  /// channel, or a pipeline delay still running.
  void wait_for(std::uint32_t r, int local_vc, Cycle t, std::vector<VcWait>& waits) const;

  [[nodiscard]] const RouterParams& params() const { return params_; }
  [[nodiscard]] std::uint32_t routers() const { return static_cast<std::uint32_t>(nodes_.size()); }
  [[nodiscard]] const std::vector<std::uint32_t>& nodes() const { return nodes_; }
  /// port * vcs + vc -> port, and -> vc (no division in the hot loop).
  [[nodiscard]] int port_of(std::uint32_t local_vc) const { return port_of_[local_vc]; }
  [[nodiscard]] int vc_of(std::uint32_t local_vc) const { return vc_of_[local_vc]; }

  // The state, for the rank's queries, checkpoints and restores.
  [[nodiscard]] InputUnit& inputs() { return inputs_; }
  [[nodiscard]] const InputUnit& inputs() const { return inputs_; }
  [[nodiscard]] OutputUnit& outputs() { return outputs_; }
  [[nodiscard]] const OutputUnit& outputs() const { return outputs_; }
  [[nodiscard]] SwitchAllocator& switch_allocator() { return switch_allocator_; }
  [[nodiscard]] const SwitchAllocator& switch_allocator() const { return switch_allocator_; }
  [[nodiscard]] Injection& injection(std::uint32_t r) { return inputs_.injection(r); }
  [[nodiscard]] const Injection& injection(std::uint32_t r) const { return inputs_.injection(r); }
  /// Empties every input buffer (wait stamps at 0, no injection in progress) and frees every
  /// output VC, with `depth` credits each (the ejection port's too): a restore then sets every
  /// VC and injection from the checkpoint.
  void clear_buffers();

  /// Bytes of router state (buffers, VC states, allocators, stamps, injections).
  [[nodiscard]] std::size_t bytes() const;

 private:
  /// Which of the routing's initial choices packet `packet_id` (message `sequence` of its
  /// source) takes: by --ring-tie, alternating with the sequence or a seeded hash of the id.
  [[nodiscard]] int initial_choice(std::uint64_t packet_id, std::uint64_t sequence) const;
  /// The routing's options for the front packet p of input VC (in_port, vc) of router r.
  void routing_options(std::uint32_t r, int in_port, int vc, const Packet& p,
                       RouteOptions& out) const;
  /// Whether bubble flow control lets p leave input port in_port of router r by output VC
  /// (out_port, out_vc) (always true when bubble flow control is off or out_port is ejection).
  [[nodiscard]] bool bubble_allows(std::uint32_t r, int in_port, int out_port, int out_vc,
                                   const Packet& p) const {
    if (!params_.bubble || out_port == params_.ports) return true;
    const int free = outputs_.credits(outputs_.index(r, out_port * params_.vcs + out_vc));
    const bool ring = ring_port_[static_cast<std::size_t>(out_port)] != 0;
    return wormnet::bubble_allows(free, p.length, params_.max_length,
                                  enters_ring(in_port, out_port, params_.ports, ring));
  }
  /// Index among `candidates` (output VCs port * vcs + vc) whose port has the most free
  /// buffer slots downstream; the first among equals.
  [[nodiscard]] int least_occupied(std::uint32_t r, const int* candidates, int found) const;
  /// Of the movable input VCs `unsure` (settling), those whose VC allocation delay is over
  /// stop settling; returns those still in it (not yet eligible). Out of line: a VC is
  /// checked this way once per packet and hop, when it has a flit to send.
  [[gnu::noinline]] std::uint64_t still_settling(std::uint32_t r, Cycle t, std::uint64_t unsure);
  /// The flit at the front of input VC local_vc = (in_port, vc) crosses the switch to its
  /// output VC; returns that output port.
  template <class OnMove>
  [[gnu::always_inline]] inline int traverse(std::uint32_t r, int local_vc, int in_port, int vc,
                                             Cycle t, OnMove& on_move);

  RouterParams params_;
  const RoutingFunction& routing_;
  std::vector<std::uint32_t> nodes_;  ///< local index -> global node id
  PacketTable& packets_;
  std::vector<std::uint8_t> ring_port_;  ///< [port]: 1 if the port's dimension is a ring
  std::array<VcMask, 256> class_vcs_{};  ///< routing VC-class mask -> physical VCs
  std::array<std::uint8_t, 64> port_of_{};
  std::array<std::uint8_t, 64> vc_of_{};
  /// VC -> the routing's VC class (VC mod vcs_required()): a head's route at every hop
  /// needed a virtual call and a division for it (a tenth of the routing stage's time on
  /// torus:100x100x100).
  std::array<std::uint8_t, 64> class_of_{};

  InputUnit inputs_;
  OutputUnit outputs_;
  SwitchAllocator switch_allocator_;
};

}  // namespace wormnet

#include "wormnet/router/switch_stage.hpp"  // IWYU pragma: export
