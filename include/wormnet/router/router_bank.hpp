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

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/router/injection_stage.hpp"
#include "wormnet/router/input_unit.hpp"
#include "wormnet/router/output_unit.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/router/router_core.hpp"
#include "wormnet/router/router_params.hpp"
#include "wormnet/router/router_rows.hpp"
#include "wormnet/router/switch_stage.hpp"
#include "wormnet/router/vc_allocation_stage.hpp"
#include "wormnet/router/vc_choice.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/traffic/traffic_sources.hpp"

namespace wormnet {

/// The parts of a router's state that RouterBank::prefetch() asks for.
enum class RouterPart : std::uint8_t {
  kDeposit,   ///< input VC local_vc's record and the router's header: what a deposit writes
  kRoute,     ///< the router's output VC records: what a head's route and VC allocation read
  kHeader,    ///< the router's header (its stage masks): the first thing its step reads
  kInputs,    ///< the records of its input VCs that hold flits (reads the header)
  kOutputVc,  ///< an output VC's record: what a credit back to it, or a move through it, writes
};

class RouterBank {
 public:
  using Injected = InjectionStage::Injected;
  /// The routers `nodes` (global ids; local index = position) of `topo`, routed by
  /// `routing`; their packets live in `packets` (shared with the rank's links).
  RouterBank(const RouterParams& params, const Topology& topo, const RoutingFunction& routing,
             std::vector<std::uint32_t> nodes, PacketTable& packets)
      : core_(params, topo, routing, std::move(nodes), packets),
        switch_(core_.routers(), params.ports + 1) {}

  /// Flit f enters input VC local_vc (port * vcs + vc) of router r at its arrival cycle t.
  /// Inline: the rank calls it for every flit it takes off a link.
  void deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) { core_.deposit(r, local_vc, f, t); }
  /// The same in the walk: kCounted, counted at the cycle the counters were set to
  /// (count_cycle()); otherwise nothing of the counting at all.
  /// W: the layout of the headers' masks (MaskWidth: the walk's, which matches the unit's).
  template <bool kCounted, MaskWidth W>
  void deposit(std::uint32_t r, int local_vc, Flit f, Cycle t) {
    core_.deposit<kCounted, W>(r, local_vc, f, t);
  }
  /// Where packets wait: the counted walk is about to step routers at cycle t (its events'
  /// clipped cycles; CongestionCounters::set_cycle). Only with params().congestion.
  void count_cycle(Cycle t) { core_.congestion.set_cycle(t); }
  /// Cycle t at router r, its stages in the pipeline's order: injection from `source` (r's
  /// queue, marked filled here when it holds messages), then allocate(). Each flit that
  /// crosses the switch is passed on as on_move(in_port, in_vc, out_port, out_vc, flit)
  /// (port P: injection / ejection).
  template <class OnMove>
  Injected step(std::uint32_t r, Cycle t, SourceQueue& source, OnMove&& on_move) {
    return core_.inputs.wide() ? step<MaskWidth::kWide>(r, t, source, on_move)
                               : step<MaskWidth::kNarrow>(r, t, source, on_move);
  }
  template <MaskWidth W, class OnMove>
  Injected step(std::uint32_t r, Cycle t, SourceQueue& source, OnMove&& on_move) {
    if (!source.empty()) source_filled<W>(r);
    if (core_.congestion.counting()) {
      count_cycle(t);
      const Injected injected = has_injection<W>(r) ? inject<true, W>(r, t, source) : Injected{};
      allocate<true, W>(r, t, on_move);
      return injected;
    }
    const Injected injected = has_injection<W>(r) ? inject<false, W>(r, t, source) : Injected{};
    allocate<false, W>(r, t, on_move);
    return injected;
  }
  /// Router r's source queue received a message (its owner pushed one).
  template <MaskWidth W = MaskWidth::kAny>
  void source_filled(std::uint32_t r) {
    InjectionStage::source_filled<W>(core_, r);
  }
  /// Whether router r's injection stage has work: a packet being written or a message queued.
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] bool has_injection(std::uint32_t r) const {
    return InjectionStage::has_work<W>(core_, r);
  }
  /// The injection stage at router r in cycle t (step() runs it when it has work);
  /// kCounted as for deposit().
  template <bool kCounted, MaskWidth W>
  Injected inject(std::uint32_t r, Cycle t, SourceQueue& source) {
    return InjectionStage::step<kCounted, W>(core_, r, t, source);
  }
  /// The stages after injection at router r in cycle t: VC allocation, then switch
  /// allocation and traversal (on_move as for step()). Inlined into the caller's loop over
  /// routers, like the switch stage. kCounted as for deposit().
  template <bool kCounted, MaskWidth W, class OnMove>
  [[gnu::always_inline]] inline void allocate(std::uint32_t r, Cycle t, OnMove&& on_move) {
    const InputUnit& in = core_.inputs;
    // VCs granted now wait out the VC allocation delay: a delay of 1 (the default) ends by
    // the next cycle, so those need no `settling` bit and its check (longer delays set it).
    // Parked heads (every output VC they may take is owned) wait for a tail to free one.
    const std::uint64_t granted =
        in.requesting<W>(r) != 0 ? VcAllocationStage::step<kCounted, W>(core_, r, t) : 0;
    const std::uint64_t movable =
        in.active<W>(r) & in.nonempty<W>(r) & ~in.blocked<W>(r) & ~granted;
    if (movable != 0) switch_.step<kCounted, W>(core_, r, t, movable, on_move);
  }
  /// Output VC o (an OutputUnit index) of router r is free again: the heads
  /// parked at r request again from the next cycle (RouterCore::release_output).
  void release_output(std::uint32_t r, std::uint32_t o) { core_.release_output(r, o); }
  /// A credit comes back to output VC o (an OutputUnit index): its downstream buffer has a
  /// free slot again, and the input VC that owns o may move if it was blocked for want of
  /// one. Every credit returns through here, so that InputUnit::blocked() stays true.
  ///
  /// kSparse: the router's header is written only when the credit unblocks a VC. On a large
  /// rank most credits come back after their packet has left the router, to a header no
  /// other work touches in that cycle and which is in no cache: a line from memory for a
  /// write that changes nothing. Where the headers are cached (a small rank), whether a credit
  /// unblocks is data (often about half do), and the unconditional
  /// write costs less than the branch's mispredictions.
  /// The credit arrives at the cycle the walk steps. kCounted: the counted walk's, which sets
  /// the counters to that cycle and calls count_unblocked() after the block's credits
  /// (where packets wait: CongestionCounters); the non-template return_credit() asks the flag.
  template <bool kSparse, bool kCounted, MaskWidth W>
  void return_credit(std::uint32_t o, Cycle /*t*/) {
    const std::uint64_t unblocked = core_.outputs.return_credit_unblocking(o);
    if constexpr (kSparse) {
      if (unblocked == 0) [[likely]]
        return;
    }
    const std::uint32_t r = core_.outputs.router_of(o);
    if constexpr (kCounted && CongestionCounters::kShortcuts) {
      // At most one bit (the owner's); none: the VC noted is dropped. Counted when the
      // block's credits are in (count_unblocked()).
      core_.congestion.note_unblocked_now(core_.inputs.index(r, std::countr_zero(unblocked)),
                                          unblocked != 0);
    } else if constexpr (kCounted) {
      core_.count_unblock(r, unblocked, core_.congestion.cycle());  // at once, by the rule
    }
    core_.inputs.unblock<W>(r, unblocked);
  }
  /// The counted walk: `credits` credits of a block are about to return
  /// (return_credit<kSparse, true>()), and they are in (count_unblocked()).
  void reserve_unblocks(std::size_t credits) { core_.congestion.reserve_noted(credits); }
  void count_unblocked() { core_.count_unblocked_now(); }
  /// Outside the walk (a credit from another rank, at any cycle t): counts at once.
  void return_credit(std::uint32_t o, Cycle t) {
    const std::uint64_t unblocked = core_.outputs.return_credit_unblocking(o);
    const std::uint32_t r = core_.outputs.router_of(o);
    if (core_.congestion.counting()) [[unlikely]]
      core_.count_unblock(r, unblocked, t);
    core_.inputs.unblock(r, unblocked);
  }
  /// A hint for one part of the routers' state, asked for a while before the work that
  /// touches it so that the fetch from memory overlaps other work (the rank's prefetch plan,
  /// engine/prefetch_plan.hpp, decides what and when). `index` is a local router, except
  /// for kOutputVc (an OutputUnit index). No effect on the state.
  /// W: the layout of the headers' masks (MaskWidth), where kPart reads or asks for a header.
  template <RouterPart kPart, MaskWidth W = MaskWidth::kAny>
  void prefetch(std::uint32_t index, int local_vc = 0) const {
    const InputUnit& in = core_.inputs;
    if constexpr (kPart == RouterPart::kDeposit) {
      in.prefetch<W>(index, local_vc);
    } else if constexpr (kPart == RouterPart::kRoute) {
      core_.outputs.prefetch_span(
          core_.outputs.index(index, 0),
          core_.outputs.index(index, (params().ports + 1) * params().vcs - 1));
    } else if constexpr (kPart == RouterPart::kHeader) {
      in.prefetch_header<W>(index);
    } else if constexpr (kPart == RouterPart::kInputs) {
      for (std::uint64_t m = in.nonempty<W>(index); m != 0; m &= m - 1) {
        in.prefetch_record(in.index(index, std::countr_zero(m)));
      }
    } else {
      static_assert(kPart == RouterPart::kOutputVc);
      core_.outputs.prefetch(index);
    }
  }
  /// Whether router r has nothing to do until a flit or a message arrives.
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] bool idle(std::uint32_t r) const {
    return core_.inputs.nonempty<W>(r) == 0 && !has_injection<W>(r);
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

  // Questions about the state, for the rank's reports and hints.
  /// The index of input VC local_vc of router r among the rank's (InputUnit), and of output
  /// VC local_vc (OutputUnit; credits on the wheel name it).
  [[nodiscard]] std::uint32_t input_vc(std::uint32_t r, int local_vc) const {
    return core_.inputs.index(r, local_vc);
  }
  [[nodiscard]] std::uint32_t output_vc(std::uint32_t r, int local_vc) const {
    return core_.outputs.index(r, local_vc);
  }
  /// Output VC o's router and its number there (port * vcs + vc).
  struct OutputPlace {
    std::uint32_t router;
    std::uint32_t local_vc;
  };
  [[nodiscard]] OutputPlace output_place(std::uint32_t o) const {
    const std::uint32_t r = core_.outputs.router_of(o);
    return OutputPlace{r, o - core_.outputs.index(r, 0)};
  }
  /// Where the front flit of input VC local_vc of router r leaves, if its packet holds an
  /// output VC: that output VC (an OutputUnit index), its port, and the flits buffered.
  struct Outlet {
    bool holds = false;  ///< the VC holds an output VC (the fields below are meaningful)
    int port = 0;
    std::uint32_t output = 0;
    std::uint32_t flits = 0;
  };
  [[nodiscard]] Outlet outlet(std::uint32_t r, int local_vc) const {
    const InputUnit& in = core_.inputs;
    const std::uint32_t i = in.index(r, local_vc);
    if (in.stage(i) != VcStage::kActive) return Outlet{};
    const int port = in.out_port(i);
    return Outlet{true, port, core_.outputs.index(r, port * params().vcs + in.out_vc(i)),
                  in.count(i)};
  }
  /// Calls f(local_vc) for every input VC of router r that holds flits and has moved none for
  /// `threshold` cycles (< 2^31) before cycle t.
  template <class F>
  void for_each_stuck_vc(std::uint32_t r, Cycle t, Cycle threshold, F&& f) const {
    const InputUnit& in = core_.inputs;
    for (std::uint64_t mask = in.nonempty(r); mask != 0; mask &= mask - 1) {
      const int lv = std::countr_zero(mask);
      if (in.stuck(in.index(r, lv), t, threshold)) f(lv);
    }
  }
  /// Flits in router r's input buffers.
  [[nodiscard]] std::uint64_t buffered_flits(std::uint32_t r) const {
    const InputUnit& in = core_.inputs;
    std::uint64_t n = 0;
    for (std::uint64_t mask = in.nonempty(r); mask != 0; mask &= mask - 1) {
      n += in.count(in.index(r, std::countr_zero(mask)));
    }
    return n;
  }
  /// Flits of the packet being injected at router r not yet written to its buffer.
  [[nodiscard]] std::uint64_t unsent_flits(std::uint32_t r) const {
    const Injection& inj = core_.inputs.injection(r);
    return inj.length != 0 ? static_cast<std::uint64_t>(inj.length - inj.sent) : 0;
  }
  /// Calls f(r, out_port, out_vc, packet slot) for every output VC of a network port whose
  /// packet streams over its link: its head has left, so its later flits will follow on the
  /// link (a checkpoint records them; the rank that receives them may change on restart).
  /// Routers ascending, then output VCs.
  template <class F>
  void for_each_stream(F&& f) const {
    const InputUnit& in = core_.inputs;
    const OutputUnit& out = core_.outputs;
    const auto network_vcs = static_cast<std::uint32_t>(params().ports * params().vcs);
    for (std::uint32_t r = 0; r < routers(); ++r) {
      for (std::uint32_t lv = 0; lv < network_vcs; ++lv) {
        const std::uint32_t o = out.index(r, static_cast<int>(lv));
        if (out.owner(o) == OutputUnit::kFree) continue;
        // The owner's front flit, if any, is its packet's (RouterCore::owner_packet).
        const std::uint32_t owner = in.index(r, out.owner(o));
        const bool head_waiting = in.count(owner) > 0 && in.front(owner).head();
        if (!head_waiting) f(r, port_of(lv), vc_of(lv), core_.owner_packet(o));
      }
    }
  }

  /// Appends the state of every router, unit by unit, to `rows` (checkpoint form; `now`: the
  /// next cycle to simulate; id_of names the packets).
  void save(RouterRows& rows, Cycle now, const PacketIdOf& id_of) const;
  /// Replaces the state of every router with `rows` (row r is router r), unit by unit;
  /// slot_of gives the packet slot of a packet id found at an input VC.
  void restore(const RouterRows& rows, const PacketSlotOf& slot_of);

  /// Where packets wait, closed at cycle T (every layer has simulated the cycles before T):
  /// the totals over the measurement window of input VC local_vc of router r, and the flits
  /// output VC local_vc of router r sent in it. Only with params().congestion.
  [[nodiscard]] VcCongestion congestion(std::uint32_t r, int local_vc, Cycle T) const;
  /// The accumulators (CongestionCounters::InputVc) of input VC local_vc of router r that
  /// counting from cycle 0 gives at T <= params().measure_begin, from the VC's state alone:
  /// minus its stays still open at T.
  [[nodiscard]] CongestionCounters::InputVc counted_from_zero(std::uint32_t r, int local_vc,
                                                              Cycle T) const;
  /// The measurement window opens (`--congestion totals`, before its first cycle is stepped):
  /// sets every accumulator to counted_from_zero(..., measure_begin), so that what was or was
  /// not counted before does not matter. The walk runs uncounted until then: the counts of
  /// cycles before the window are all 0. Only with params().congestion.
  void open_congestion();
  /// The measurement window is over (`--congestion totals`, at a cycle >= measure_end): adds
  /// each VC's open stays, closed at the end, to its accumulators, which then hold the
  /// window's totals (congestion() returns them), and stops counting
  /// (CongestionCounters::counting()); the walk runs uncounted from then on. A save()
  /// writes what counting on would hold; a restore() counts again until closed again.
  void close_congestion();
  [[nodiscard]] std::uint64_t congestion_flits(std::uint32_t r, int local_vc) const {
    return core_.congestion.output(core_.outputs.index(r, local_vc));
  }
  /// The flits output VC local_vc of router r sent since the last call (any cycle), zeroed:
  /// a statistics window ends (--congestion series). Only with params().congestion.
  std::uint64_t take_window_flits(std::uint32_t r, int local_vc) {
    return core_.congestion.take_window(core_.outputs.index(r, local_vc));
  }
  /// The same summed over each network channel's VCs, appended to `out` as (global channel
  /// id of `topo`, flits), router by router and port by port.
  void take_channel_window(const Topology& topo,
                           std::vector<std::pair<std::uint32_t, std::uint64_t>>& out) {
    const int ports = params().ports;
    const int vcs = params().vcs;
    for (std::uint32_t r = 0; r < routers(); ++r) {
      for (int p = 0; p < ports; ++p) {
        const ChannelId c = topo.channel(NodeId(nodes()[r]), static_cast<PortId>(p));
        if (!c.valid()) continue;
        std::uint64_t flits = 0;
        for (int v = 0; v < vcs; ++v) flits += take_window_flits(r, p * vcs + v);
        out.emplace_back(c.value(), flits);
      }
    }
  }

  /// The cycles each network channel's input VCs (at this rank's routers, the channel's
  /// downstream end) waited since the last call: vc_wait + credit_wait + switch_wait summed
  /// over the channel's VCs, of the measurement window's cycles before T (every layer has
  /// simulated the cycles before T), appended to `out` as (global channel id of `topo`,
  /// cycles), router by router and input port by input port; each VC's reading at T is kept
  /// for the next call (CongestionCounters::blocked_mark()). O(input VCs); only with
  /// params().congestion_series.
  void take_channel_blocked(const Topology& topo, Cycle T,
                            std::vector<std::pair<std::uint32_t, std::uint64_t>>& out);

  /// Read-only view of the units, for tests.
  [[nodiscard]] const RouterCore& core() const { return core_; }

  /// Bytes of router state (buffers, VC states, allocators, stamps, injections).
  [[nodiscard]] std::size_t bytes() const {
    return core_.inputs.bytes() + core_.outputs.bytes() + switch_.bytes() +
           core_.congestion.bytes() + core_.nodes.capacity() * sizeof(std::uint32_t);
  }

 private:
  /// Where packets wait: what the stays of input VC local_vc of router r still open at T add
  /// when they end there (held: with the credit wait).
  [[nodiscard]] CongestionCounters::InputVc open_stays(std::uint32_t r, int local_vc,
                                                       Cycle T) const;
  RouterCore core_;
  SwitchStage switch_;  ///< the injection and VC allocation stages keep their state in core_
};

}  // namespace wormnet
