// The switch stage: switch allocation and traversal. Separable input-first allocation (one
// VC per input port, then one input port per output port, both round robin), or with per-VC
// bandwidth every eligible VC at once; the winners leave their input buffer and go to the
// caller's on_move. Templates on on_move, so that carrying a flit on inlines into the
// per-cycle loop over routers.
//
// Its arbiter state is its own: the round-robin pointers of every router's input and output
// ports (SwitchAllocator). It also keeps the input unit's eligibility masks (blocked,
// settling) in step with the credits and delays they summarize.
#pragma once

#include <bit>
#include <cstdint>

#include "wormnet/core/error.hpp"
#include "wormnet/router/router_core.hpp"
#include "wormnet/router/router_rows.hpp"
#include "wormnet/router/switch_allocator.hpp"

namespace wormnet {

class SwitchStage {
 public:
  SwitchStage() = default;
  /// The arbiters of `routers` routers of `ports` ports each (the terminal's included).
  SwitchStage(std::uint32_t routers, int ports) : allocator_(routers, ports) {}

  /// Input VCs holding an output VC, with a flit and a credit (`movable`: the active,
  /// nonempty, unblocked ones), compete for the switch at router r in cycle t once past
  /// their VC allocation delay; the winners traverse it and go to on_move(in_port, in_vc,
  /// out_port, out_vc, flit). Inlined into the caller's loop over routers: nearly every
  /// active router gets here each cycle, and a call cost it the saving and restoring of
  /// every register it uses. kCounted: counts each move where packets wait (the counted
  /// walk: CongestionCounters at cycle t).
  /// W: the layout of the header's masks (MaskWidth::kNarrow or kWide: the walk's).
  template <bool kCounted, MaskWidth W, class OnMove>
  [[gnu::always_inline]] inline void step(RouterCore& c, std::uint32_t r, Cycle t,
                                          std::uint64_t movable, OnMove& on_move);
  /// Sets the masks of eligibility (InputUnit::blocked() and settling()) from the input VCs'
  /// stages and the output VCs' credits, after a restore wrote those directly.
  static void rebuild_masks(RouterCore& c);

  /// Its arbiter state in checkpoint form (RouterRows::sa_last_vc, sa_last_port) for
  /// `routers` routers of `ports` ports (the terminal's included), and back.
  void save(RouterRows& rows, std::uint32_t routers, int ports) const;
  void restore(const RouterRows& rows, std::uint32_t routers, int ports);
  /// The round-robin pointers (tests).
  [[nodiscard]] SwitchAllocator& allocator() { return allocator_; }
  [[nodiscard]] const SwitchAllocator& allocator() const { return allocator_; }
  [[nodiscard]] std::size_t bytes() const { return allocator_.bytes(); }

 private:
  /// Of the movable input VCs `unsure` (settling), those whose VC allocation delay is over
  /// stop settling; returns those still in it (not yet eligible). Out of line: a VC is
  /// checked this way once per packet and hop, when it has a flit to send.
  template <MaskWidth W>
  [[gnu::noinline]] static std::uint64_t still_settling(RouterCore& c, std::uint32_t r, Cycle t,
                                                        std::uint64_t unsure);
  /// The flit at the front of input VC local_vc = (in_port, vc) crosses the switch to its
  /// output VC; returns that output port.
  template <bool kCounted, MaskWidth W, class OnMove>
  [[gnu::always_inline]] static inline int traverse(RouterCore& c, std::uint32_t r, int local_vc,
                                                    int in_port, int vc, Cycle t, OnMove& on_move);

  SwitchAllocator allocator_;
};

template <bool kCounted, MaskWidth W, class OnMove>
void SwitchStage::step(RouterCore& c, std::uint32_t r, Cycle t, std::uint64_t movable,
                       OnMove& on_move) {
  const int vcs = c.params.vcs;
  // Eligible input VCs (bit port * vcs + vc): holding an output VC, past their pipeline
  // delay, with a flit, and with a credit downstream. The masks say all but the delay
  // (InputUnit::blocked() follows the credits; the ejection port's never run out), and
  // only VCs granted with a VC allocation delay and not yet seen past it (settling) need
  // their `ready` compared: no per-VC loop, whose exit branch the count of VCs made hard
  // to predict. Flits enter buffers at their arrival cycle, so a buffered flit is ready.
  std::uint64_t eligible = movable;
  if (const std::uint64_t unsure = movable & c.inputs.settling<W>(r); unsure != 0) [[unlikely]] {
    eligible &= ~still_settling<W>(c, r, t, unsure);
    if (eligible == 0) return;
  }
  if (c.params.per_vc_bandwidth) {
    // Every VC is a channel of its own: each eligible VC moves a flit. Nothing conflicts,
    // since wormhole ownership gives every output VC to one input VC at a time.
    for (; eligible != 0; eligible &= eligible - 1) {
      const auto lv = static_cast<std::uint32_t>(std::countr_zero(eligible));
      traverse<kCounted, W>(c, r, static_cast<int>(lv), c.port_of(lv), c.vc_of(lv), t, on_move);
    }
    return;
  }
  if ((eligible & (eligible - 1)) == 0) {
    // One eligible VC, the common case of a lightly loaded router: it wins its input port
    // and its output port, and both round-robin pointers move to it, as arbitration would.
    const int lv = std::countr_zero(eligible);
    const int p = c.port_of(static_cast<std::uint32_t>(lv));
    const int v = c.vc_of(static_cast<std::uint32_t>(lv));
    const int q = traverse<kCounted, W>(c, r, lv, p, v, t, on_move);
    allocator_.commit(r, p, v, q);
    return;
  }
  // Input stage: one VC per input port, round robin. A lone requester would win without
  // the arbiter, but whether a port has one or several is data, and the arbiter's pick
  // costs less than the branch that skips it mispredicts; the same in the output stage.
  const std::uint32_t first = c.inputs.index(r, 0);
  const std::uint64_t port_vcs = all_vcs(vcs);
  std::uint32_t requested = 0;              // output ports with at least one request
  std::uint32_t requesters[kMaxPorts + 1];  // per requested output port: input ports (bits)
  int chosen_vc[kMaxPorts + 1];
  // The router's round-robin pointers, found once for both stages.
  SwitchAllocator::Row pointers = allocator_.row(r);
  // The stages' steps as lambdas, always inlined (a call saved and restored every register
  // in use). Input stage: the next input port with eligible VCs picks one.
  auto request = [&]() __attribute__((always_inline)) {
    const int p = c.port_of(static_cast<std::uint32_t>(std::countr_zero(eligible)));
    const int shift = p * vcs;
    const std::uint64_t port_eligible = (eligible >> shift) & port_vcs;
    eligible &= ~(port_vcs << shift);
    const int v = SwitchAllocator::pick_vc(pointers, p, port_eligible);
    chosen_vc[p] = v;
    const int q = c.inputs.template out_port<W>(first + static_cast<std::uint32_t>(shift + v));
    // Its first request sets an output port's requesters (no clearing of all of them first).
    requesters[q] = ((requested >> q) & 1U) != 0 ? requesters[q] | 1U << p : 1U << p;
    requested |= 1U << q;
  };
  // Output stage: the next requested output port picks one of its input ports, which moves.
  auto grant = [&]() __attribute__((always_inline)) {
    const int q = std::countr_zero(requested);
    requested &= requested - 1;
    const int p = SwitchAllocator::pick_input(pointers, q, requesters[q]);
    SwitchAllocator::commit(pointers, p, chosen_vc[p], q);
    traverse<kCounted, W>(c, r, p * vcs + chosen_vc[p], p, chosen_vc[p], t, on_move);
  };
  // Both stages' loops run their body at least once, and most often exactly twice (two
  // input ports with flits for two output ports): written as a first pass, a second under
  // a test and a loop for the rest, each branch goes mostly one way. As plain loops, the
  // exit of each mispredicted at nearly every router step, since a loop's back edge is
  // predicted taken after most passes (docs/scaling.md, "Measured figures behind the
  // engine's rules").
  request();
  if (eligible != 0) {
    request();
    while (eligible != 0) request();
  }
  grant();
  if (requested != 0) {
    grant();
    while (requested != 0) grant();
  }
}

template <bool kCounted, MaskWidth W, class OnMove>
inline int SwitchStage::traverse(RouterCore& c, std::uint32_t r, int local_vc, int in_port, int vc,
                                 Cycle t, OnMove& on_move) {
  const int ports = c.params.ports;
  const std::uint32_t i = c.inputs.index(r, local_vc);
  const int out_port = c.inputs.template out_port<W>(i);
  const int out_vc = c.inputs.template out_vc<W>(i);
  const Flit f = c.inputs.pop<W>(r, local_vc);
  c.inputs.mark(i, t);
  c.inputs.template set_past<W>(i);  // a flit left: past its delay (a tail's next stage clears it)
  const std::uint32_t o = c.outputs.index(r, out_port * c.params.vcs + out_vc);
  if (f.tail()) c.release_output<W>(r, o);
  bool no_credit = false;  // o has no credit left (network ports; kCounted only)
  if (out_port != ports) {
    c.outputs.take_credit(o);  // a slot of the downstream buffer
    // Its last one: the VC waits for a credit (a tail's VC stops being active below, which
    // clears the bit again).
    no_credit = c.outputs.credits(o) == 0;
    c.inputs.block<W>(r, std::uint64_t{no_credit} << local_vc);
  }
  on_move(in_port, vc, out_port, out_vc, f);
  if constexpr (kCounted) {
    // Where packets wait (CongestionCounters::popped): the VC's held spell goes on while
    // its packet has flits behind this one.
    const std::uint32_t left = c.inputs.template count<W>(i);
    c.congestion.popped_now(i, o, !f.tail() && left != 0, no_credit);
  }
  if (f.tail()) {
    if (c.inputs.template count<W>(i) > 0) {
      require(c.inputs.template front<W>(i).head(), "a packet's flits are not contiguous in a VC");
      c.inputs.set_stage<W>(r, local_vc, VcStage::kWaitVc);   // ready at t + routing delay
      if constexpr (kCounted) c.congestion.tail_left_now(i);  // the head behind waits
    } else {
      c.inputs.set_stage<W>(r, local_vc, VcStage::kIdle);
    }
  }
  return out_port;
}

}  // namespace wormnet
