// Input units of all routers of a rank: per input port and VC a FIFO of B flits, the
// packet-level state of the VC at its front and its wait stamp, in one record per VC; per
// router a header with the stage masks and the injection in progress. Input port P (the
// last) is the injection channel from the local terminal.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "wormnet/core/error.hpp"
#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/core/opaque.hpp"
#include "wormnet/core/prefetch.hpp"
#include "wormnet/router/flit.hpp"
#include "wormnet/router/router_rows.hpp"

namespace wormnet {

/// Stage of the packet at the front of an input VC.
enum class VcStage : std::uint8_t {
  kIdle,    ///< no head at the front
  kWaitVc,  ///< head at the front: route computation, then VC allocation from `ready`
  kActive,  ///< output VC granted: flits compete for the switch from `ready`
};

/// The deadlock detector's wait stamp of an input VC: the low 32 bits of the cycle it last
/// moved (or started waiting, or was granted an output VC). Not std::uint32_t, whose stores
/// may alias every 32-bit field of the router bank and the rank (GCC reloaded the index
/// arithmetic's factors after each stamp written in the per-flit paths); an enumeration
/// aliases only itself.
enum class WaitStamp : std::uint32_t {};

/// An input VC's packet-level state, at the front of its record (then its ring of flits),
/// in one of two layouts (MaskWidth): NarrowVcState, 8 bytes, where the router's input VCs
/// fit 16-bit masks and buffers hold at most 255 flits, else WideVcState, 12. Both have the
/// same members and methods, so that the stages, templated on the layout, read either.
/// When its stage's next step may run (its `ready` cycle) is not stored: the stage starts
/// with a mark of the stamp (a head reaching the front, a grant), so it is the stamp plus the
/// stage's delay (the routing delay while a head waits, the VC allocation delay once it holds
/// an output VC; InputUnit::ready_by) until past() says the delay has run out (the VC stage
/// saw the head ready, or a flit left): from then on the stamp moves with the flits and no
/// longer tells.
struct NarrowVcState {
  WaitStamp since{};       ///< the wait stamp (InputUnit::mark)
  std::uint8_t head = 0;   ///< ring-buffer index of the front flit
  std::uint8_t count = 0;  ///< flits buffered
  VcStage stage = VcStage::kIdle;
  /// Bits 0-3 the granted output port (kActive; < 16, since (ports + 1) x vcs <= 16), 4-6 its
  /// VC (< kMaxVcs = 8), 7 past().
  std::uint8_t out = 0;
  [[nodiscard]] int out_port() const { return out & 0xF; }
  [[nodiscard]] int out_vc() const { return (out >> 4) & 0x7; }
  void set_out(int port, int vc) { out = static_cast<std::uint8_t>((out & 0x80) | port | vc << 4); }
  /// Whether the stage's delay has run out (see above); a stage change clears it.
  [[nodiscard]] bool past() const { return (out & 0x80) != 0; }
  void set_past(bool p) { out = static_cast<std::uint8_t>((out & 0x7F) | (p ? 0x80 : 0)); }
};
static_assert(sizeof(NarrowVcState) == 8 && kMaxVcs <= 8);

struct WideVcState {
  WaitStamp since{};
  std::uint16_t head = 0;
  std::uint16_t count = 0;
  VcStage stage = VcStage::kIdle;
  std::uint8_t port = 0;
  std::uint8_t vc = 0;
  std::uint8_t past_bit = 0;
  [[nodiscard]] int out_port() const { return port; }
  [[nodiscard]] int out_vc() const { return vc; }
  void set_out(int p, int v) {
    port = static_cast<std::uint8_t>(p);
    vc = static_cast<std::uint8_t>(v);
  }
  [[nodiscard]] bool past() const { return past_bit != 0; }
  void set_past(bool p) { past_bit = p ? 1 : 0; }
};
static_assert(sizeof(WideVcState) == 12);

/// The delays a stage waits from its mark (RouterParams): a head's route computation
/// (kWaitVc) and a grant's VC allocation (kActive), cycles (at most 1000: config_validation).
struct StageDelays {
  std::uint32_t routing = 0;
  std::uint32_t vc_alloc = 0;
};

/// The packet being written into a router's injection buffer (input port P), flit by flit.
struct Injection {
  std::uint32_t packet = 0;  ///< PacketTable slot
  std::uint16_t sent = 0;    ///< flits already written to the injection buffer
  std::uint16_t length = 0;  ///< 0 = not injecting
  std::uint8_t vc = 0;
  /// 1 while the router's source queue holds messages: the router step tests this bit in
  /// the header it reads anyway instead of the queue, an array of its own, whose test was
  /// most of the router scan's misses on a large rank (docs/scaling.md, "Measured figures
  /// behind the engine's rules").
  std::uint8_t queued = 0;
};

/// How a router's header (InputUnit) holds its six stage masks, and its input VCs their state:
/// 16 bits each and NarrowVcState (kNarrow, a 32-byte header and 8-byte states, where (ports +
/// 1) x vcs <= 16 and buffers hold at most 255 flits) or 64 bits and WideVcState (kWide, 64
/// and 12 bytes). The walk and the
/// stages it calls take it as a template parameter, chosen once per run where the walk is
/// dispatched (RankModel::step_layer), so that each mask access is one load or store of a
/// width and at a place the compiler knows: asked of the unit at each access, the branch and
/// the reloads it caused were well over the walk's instruction budget (docs/scaling.md, "Model
/// state per router").
/// kAny asks the unit: for the code outside the walk (checkpoints, reports, tests).
enum class MaskWidth : std::uint8_t { kAny, kNarrow, kWide };

/// The VC state of layout W (kNarrow or kWide).
template <MaskWidth W>
using VcStateAs = std::conditional_t<W == MaskWidth::kWide, WideVcState, NarrowVcState>;

class InputUnit {
 public:
  InputUnit() = default;
  /// `routers` local routers, `ports` input ports each (network ports + injection), `vcs`
  /// VCs per port, `depth` flits per VC buffer.
  /// `wide` forces the wide layout whatever ports x vcs and depth (the narrow layout's results
  /// are the same: a switch to compare them). `delays`: the stages' (ready_by()).
  InputUnit(std::uint32_t routers, int ports, int vcs, int depth, bool wide = false,
            StageDelays delays = {})
      : vcs_per_router_(static_cast<std::uint32_t>(ports * vcs)),
        wide_(wide || !fits_narrow(vcs_per_router_, static_cast<std::uint32_t>(depth))),
        depth_(static_cast<std::uint32_t>(depth)),
        delays_(delays),
        flits_at_(wide_ ? sizeof(WideVcState) : sizeof(NarrowVcState)),
        stride_((flits_at_ + depth_ * sizeof(Flit) + kRecordAlign - 1) / kRecordAlign *
                kRecordAlign),
        records_(static_cast<std::size_t>(routers) * vcs_per_router_ * stride_),
        routers_(routers),
        headers_((static_cast<std::size_t>(routers) * header_bytes() + sizeof(HeaderLine) - 1) /
                 sizeof(HeaderLine)) {
    std::byte* first = reinterpret_cast<std::byte*>(headers_.data());
    for (std::uint32_t r = 0; r < routers; ++r) {
      if (wide_) {
        new (first + r * sizeof(Header<Wide>)) Header<Wide>{};
      } else {
        new (first + r * sizeof(Header<Narrow>)) Header<Narrow>{};
      }
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(routers) * vcs_per_router_; ++i) {
      std::byte* r = records_.data() + i * stride_;
      if (wide_) {
        new (r) WideVcState{};
      } else {
        new (r) NarrowVcState{};
      }
      for (std::uint32_t k = 0; k < depth_; ++k) new (r + flits_at_ + k * sizeof(Flit)) Flit{};
    }
  }

  /// Index of (router, port, vc) over all input VCs of the rank.
  [[nodiscard]] std::uint32_t index(std::uint32_t router, int local_vc) const {
    return router * vcs_per_router_ + static_cast<std::uint32_t>(local_vc);
  }
  /// Input VC i's state in layout W (kNarrow or kWide, the unit's: the walk's template
  /// parameter).
  template <MaskWidth W>
  [[nodiscard]] VcStateAs<W>& state(std::uint32_t i) {
    static_assert(W != MaskWidth::kAny);
    return *std::launder(reinterpret_cast<VcStateAs<W>*>(record(i)));
  }
  template <MaskWidth W>
  [[nodiscard]] const VcStateAs<W>& state(std::uint32_t i) const {
    static_assert(W != MaskWidth::kAny);
    return *std::launder(reinterpret_cast<const VcStateAs<W>*>(record(i)));
  }
  /// f(input VC i's state) in the unit's layout, for the code outside the walk.
  template <class F>
  decltype(auto) with_state(std::uint32_t i, F&& f) {
    return wide_ ? f(state<MaskWidth::kWide>(i)) : f(state<MaskWidth::kNarrow>(i));
  }
  template <class F>
  decltype(auto) with_state(std::uint32_t i, F&& f) const {
    return wide_ ? f(state<MaskWidth::kWide>(i)) : f(state<MaskWidth::kNarrow>(i));
  }
  /// f(input VC i's state) in layout W, or in the unit's for kAny (one test of the layout).
  template <MaskWidth W, class F>
  decltype(auto) on_state(std::uint32_t i, F&& f) {
    if constexpr (W == MaskWidth::kAny) {
      return with_state(i, f);
    } else {
      return f(state<W>(i));
    }
  }
  template <MaskWidth W, class F>
  decltype(auto) on_state(std::uint32_t i, F&& f) const {
    if constexpr (W == MaskWidth::kAny) {
      return with_state(i, f);
    } else {
      return f(state<W>(i));
    }
  }
  /// Input VC i's fields, read in either layout (W kAny asks the unit).
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint32_t count(std::uint32_t i) const {
    return on_state<W>(i, [](const auto& s) -> std::uint32_t { return s.count; });
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint32_t head(std::uint32_t i) const {
    return on_state<W>(i, [](const auto& s) -> std::uint32_t { return s.head; });
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] VcStage stage(std::uint32_t i) const {
    return on_state<W>(i, [](const auto& s) { return s.stage; });
  }
  /// The granted output port and VC (kActive).
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] int out_port(std::uint32_t i) const {
    return on_state<W>(i, [](const auto& s) { return s.out_port(); });
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] int out_vc(std::uint32_t i) const {
    return on_state<W>(i, [](const auto& s) { return s.out_vc(); });
  }
  template <MaskWidth W = MaskWidth::kAny>
  void set_out(std::uint32_t i, int port, int vc) {
    on_state<W>(i, [&](auto& s) { s.set_out(port, vc); });
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] bool past(std::uint32_t i) const {
    return on_state<W>(i, [](const auto& s) { return s.past(); });
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] const Flit& front(std::uint32_t i) const {
    return flit<W>(i, head<W>(i));
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] Flit& front(std::uint32_t i) {
    return flit<W>(i, head<W>(i));
  }
  /// The k-th flit from the front (k < count).
  [[nodiscard]] const Flit& at(std::uint32_t i, std::uint32_t k) const {
    const std::uint32_t pos = head(i) + k;
    return flit(i, pos >= depth_ ? pos - depth_ : pos);
  }
  [[nodiscard]] bool full(std::uint32_t i) const { return count(i) >= depth_; }
  /// The packet slot of the packet that input VC i sends through the output VC it holds
  /// (kActive): its front flit's, or with none buffered, the last flit popped's, which stays
  /// in the ring until a push fills it (only when count reaches depth - 1, so with a flit at
  /// the front). The head was at the front at the grant and no tail has left since, so both
  /// are the holding packet's (OutputUnit keeps no copy of it).
  [[nodiscard]] std::uint32_t sending_packet(std::uint32_t i) const {
    const std::uint32_t h = head(i);
    const std::uint32_t pos = count(i) != 0 ? h : (h != 0 ? h : depth_) - 1U;
    return flit(i, pos).packet();
  }
  /// Puts packet slot `packet` where sending_packet(i) finds it in an empty input VC i (a
  /// restart, whose rows list only the buffered flits).
  void set_sent_packet(std::uint32_t i, std::uint32_t packet) {
    require(count(i) == 0, "only an empty input VC is given its last sent packet");
    const std::uint32_t h = head(i);
    flit(i, (h != 0 ? h : depth_) - 1U) = Flit::with_kind(packet, 0);
  }
  /// Bit (port * vcs + vc) set when that input VC holds flits.
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint64_t nonempty(std::uint32_t router) const {
    return mask<W>(router, kNonempty);
  }
  /// Bit set when that input VC's front packet waits for VC allocation (kWaitVc).
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint64_t waiting(std::uint32_t router) const {
    return mask<W>(router, kWaiting);
  }
  /// Bit set when that input VC holds an output VC (kActive).
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint64_t active(std::uint32_t router) const {
    return mask<W>(router, kActive);
  }
  /// Bit set when that input VC holds an output VC without a credit (its downstream buffer
  /// is full): kept by the router bank as credits are taken and returned, so the switch
  /// stage finds the VCs that may move from the masks alone (a subset of active()).
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint64_t blocked(std::uint32_t router) const {
    return mask<W>(router, kBlocked);
  }
  /// Bit set when that input VC holds an output VC whose `ready` cycle may be more than a
  /// cycle ahead (granted with a VC allocation delay over 1, and not yet seen ready by the
  /// switch stage): only those need their `ready` compared with the cycle (a subset of
  /// active()). A VC granted with a delay of 1 is left out of the switch stage of its grant's
  /// cycle by the router bank, and is ready from the next.
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint64_t settling(std::uint32_t router) const {
    return mask<W>(router, kSettling);
  }
  /// Bit set when that input VC's front head waits for VC allocation but, at its last
  /// request, every output VC its route allows was owned by another packet (a subset of
  /// waiting()): it cannot be granted one before a tail leaves one of the router's output VCs
  /// (ownership is the only thing that changes for it: its route and packet do not), so the
  /// VC stage skips it until then (VcAllocationStage::step, RouterCore::release_output). A head
  /// refused for want of credits (bubble flow control, Duato's adaptive VCs) never parks: credits
  /// return without a tail.
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint64_t parked(std::uint32_t router) const {
    return mask<W>(router, kParked);
  }
  /// The waiting heads that request an output VC this cycle: waiting() but parked().
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint64_t requesting(std::uint32_t router) const {
    return mask<W>(router, kWaiting) & ~mask<W>(router, kParked);
  }
  /// Parks router's waiting heads in `bits` (see parked()).
  template <MaskWidth W = MaskWidth::kAny>
  void park(std::uint32_t router, std::uint64_t bits) {
    set_mask<W>(router, kParked, mask<W>(router, kParked) | bits);
  }
  /// An output VC of `router` was freed: its parked heads request again from the next cycle
  /// (each was past its routing delay when it parked, and stays so: NarrowVcState::past).
  template <MaskWidth W = MaskWidth::kAny>
  void unpark(std::uint32_t router) {
    set_mask<W>(router, kParked, 0);
  }
  /// Sets (or clears) the `blocked` bits of router's input VCs in `bits`.
  template <MaskWidth W = MaskWidth::kAny>
  void block(std::uint32_t router, std::uint64_t bits) {
    set_mask<W>(router, kBlocked, mask<W>(router, kBlocked) | bits);
  }
  template <MaskWidth W = MaskWidth::kAny>
  void unblock(std::uint32_t router, std::uint64_t bits) {
    set_mask<W>(router, kBlocked, mask<W>(router, kBlocked) & ~bits);
  }
  /// Sets (or clears) the `settling` bits of router's input VCs in `bits`.
  template <MaskWidth W = MaskWidth::kAny>
  void settle(std::uint32_t router, std::uint64_t bits) {
    set_mask<W>(router, kSettling, mask<W>(router, kSettling) | bits);
  }
  template <MaskWidth W = MaskWidth::kAny>
  void settled(std::uint32_t router, std::uint64_t bits) {
    set_mask<W>(router, kSettling, mask<W>(router, kSettling) & ~bits);
  }

  /// Moves an input VC to `stage`, keeping the per-router stage masks in step (a VC that is
  /// no longer active is neither blocked nor settling). The stage's delay runs from the VC's
  /// stamp: the caller marks it (mark(), or the deposit's mark_if()) at the same cycle.
  template <MaskWidth W = MaskWidth::kAny>
  void set_stage(std::uint32_t router, int local_vc, VcStage stage) {
    if constexpr (W == MaskWidth::kAny) {
      wide_ ? set_stage<MaskWidth::kWide>(router, local_vc, stage)
            : set_stage<MaskWidth::kNarrow>(router, local_vc, stage);
    } else {
      auto& s = state<W>(index(router, local_vc));
      s.stage = stage;
      s.set_past(false);  // a new stage: its delay runs from its mark
      const std::uint64_t bit = std::uint64_t{1} << local_vc;
      auto& m = header_as<W>(router).masks;
      std::uint64_t waiting = load(m[kWaiting]);
      std::uint64_t active = load(m[kActive]);
      waiting = stage == VcStage::kWaitVc ? waiting | bit : waiting & ~bit;
      active = stage == VcStage::kActive ? active | bit : active & ~bit;
      store(m[kWaiting], waiting);
      store(m[kActive], active);
      store(m[kBlocked], load(m[kBlocked]) & active);
      store(m[kSettling], load(m[kSettling]) & active);
      store(m[kParked], load(m[kParked]) & waiting);
    }
  }

  template <MaskWidth W = MaskWidth::kAny>
  void push(std::uint32_t router, int local_vc, const Flit& f) {
    if constexpr (W == MaskWidth::kAny) {
      wide_ ? push<MaskWidth::kWide>(router, local_vc, f)
            : push<MaskWidth::kNarrow>(router, local_vc, f);
    } else {
      const std::uint32_t i = index(router, local_vc);
      auto& s = state<W>(i);
      require(s.count < depth_, "input buffer overflow: a flit arrived without a credit");
      const std::uint32_t pos = static_cast<std::uint32_t>(s.head) + s.count;  // no division:
      flit<W>(i, pos >= depth_ ? pos - depth_ : pos) = f;                      // pos < 2 depth
      ++s.count;
      set_mask<W>(router, kNonempty, mask<W>(router, kNonempty) | std::uint64_t{1} << local_vc);
    }
  }
  /// Always inlined into the switch stage: in the walk's translation unit, which holds the
  /// prefetch plan as well, GCC's growth limit left it out of line (docs/scaling.md).
  template <MaskWidth W = MaskWidth::kAny>
  [[gnu::always_inline]] inline Flit pop(std::uint32_t router, int local_vc) {
    if constexpr (W == MaskWidth::kAny) {
      return wide_ ? pop<MaskWidth::kWide>(router, local_vc)
                   : pop<MaskWidth::kNarrow>(router, local_vc);
    } else {
      const std::uint32_t i = index(router, local_vc);
      auto& s = state<W>(i);
      using Index = decltype(s.head);
      const Flit f = flit<W>(i, s.head);
      // Without branches: which way the wrap and the emptying go is data, and mispredicted
      // branches were a large share of a router step's cost.
      const std::uint32_t next = s.head + 1U;
      s.head = static_cast<Index>(next & (0U - static_cast<std::uint32_t>(next != depth_)));
      --s.count;
      const std::uint64_t emptied = std::uint64_t{s.count == 0} << local_vc;
      set_mask<W>(router, kNonempty, mask<W>(router, kNonempty) & ~emptied);
      return f;
    }
  }
  /// Asks the processor for what a deposit into input VC `local_vc` of `router` writes: the
  /// VC's record (its state and the front of its ring) and the router's header. A hint,
  /// without effect on the state.
  template <MaskWidth W = MaskWidth::kAny>
  void prefetch(std::uint32_t router, int local_vc) const {
    wormnet::prefetch_for_write(record(index(router, local_vc)));
    prefetch_header<W>(router);
  }
  /// Asks the processor for input VC i's record. A hint only.
  void prefetch_record(std::uint32_t i) const { wormnet::prefetch_for_write(record(i)); }
  /// Asks the processor for `router`'s header (its stage masks). A hint only.
  template <MaskWidth W = MaskWidth::kAny>
  void prefetch_header(std::uint32_t router) const {
    wormnet::prefetch_for_write(header<W>(router));
  }
  /// Input VC i moved (or started waiting, or was granted an output VC) at cycle t: the
  /// deadlock detector's wait stamp, the low 32 bits of t, from which a new stage's delay runs.
  void mark(std::uint32_t i, Cycle t) { stamp_ref(i) = static_cast<WaitStamp>(t); }
  /// mark(i, t) when `now` holds, else nothing: the stamp is rewritten either way, under a
  /// mask the compiler cannot see is 0 or ~0 (a select it would turn back into a branch).
  void mark_if(std::uint32_t i, Cycle t, bool now) {
    WaitStamp& stamp = stamp_ref(i);
    const std::uint32_t take = opaque(0U - static_cast<std::uint32_t>(now));
    stamp = static_cast<WaitStamp>((static_cast<std::uint32_t>(stamp) & ~take) |
                                   (static_cast<std::uint32_t>(t) & take));
  }
  /// Whether input VC i has been quiet for `threshold` cycles (< 2^31) before cycle t
  /// (unsigned difference of the low 32 bits: right across their wrap).
  [[nodiscard]] bool stuck(std::uint32_t i, Cycle t, Cycle threshold) const {
    return static_cast<std::uint32_t>(t) - stamp(i) >= threshold;
  }
  /// The stored stamp (checkpoints).
  [[nodiscard]] std::uint32_t stamp(std::uint32_t i) const {
    return static_cast<std::uint32_t>(*std::launder(reinterpret_cast<const WaitStamp*>(record(i))));
  }
  void set_stamp(std::uint32_t i, std::uint32_t low_bits) { stamp_ref(i) = WaitStamp{low_bits}; }
  /// The delay of input VC i's present stage from its stamp: the routing delay while a head
  /// waits (kWaitVc), the VC allocation delay once it holds an output VC (kActive).
  [[nodiscard]] std::uint32_t stage_delay(VcStage stage) const {
    return stage == VcStage::kActive ? delays_.vc_alloc : delays_.routing;
  }
  /// Whether input VC i's next stage may run at cycle t: its delay has run out (`past`), or
  /// runs out by t (the unsigned difference of the low 32 bits: right across their wrap, while
  /// t is less than 2^32 cycles past the stamp; a waiting head is seen ready by the VC stage,
  /// and a granted VC moves, long before).
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] bool ready_by(std::uint32_t i, Cycle t) const {
    if constexpr (W == MaskWidth::kAny) {
      return wide_ ? ready_by<MaskWidth::kWide>(i, t) : ready_by<MaskWidth::kNarrow>(i, t);
    } else {
      const auto& s = state<W>(i);
      return s.past() || static_cast<std::uint32_t>(t) - static_cast<std::uint32_t>(s.since) >=
                             stage_delay(s.stage);
    }
  }
  /// Input VC i's delay has run out (VcAllocationStage::step saw the head ready; a flit left).
  template <MaskWidth W = MaskWidth::kAny>
  void set_past(std::uint32_t i) {
    on_state<W>(i, [](auto& s) { s.set_past(true); });
  }
  /// The first cycle input VC i's next stage may run, in full, given a cycle `near` within
  /// 2^31 of the stamp: the stamp plus the stage's delay, or `near` itself once the delay has
  /// run out (any cycle at or before it would do: every use takes the later of it and a
  /// present cycle).
  [[nodiscard]] Cycle ready_near(std::uint32_t i, Cycle near) const {
    if (past(i)) return near;
    const auto back = static_cast<std::int32_t>(stamp(i) - static_cast<std::uint32_t>(near));
    return near + static_cast<Cycle>(static_cast<std::int64_t>(back)) + stage_delay(stage(i));
  }
  [[nodiscard]] StageDelays delays() const { return delays_; }
  /// Router `router`'s global node id (set once by its owner, RouterBank).
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] std::uint32_t node(std::uint32_t router) const {
    if constexpr (W == MaskWidth::kAny) {
      return wide_ ? node<MaskWidth::kWide>(router) : node<MaskWidth::kNarrow>(router);
    } else {
      return header_as<W>(router).node;
    }
  }
  void set_node(std::uint32_t router, std::uint32_t id) {
    if (wide_) {
      header_as<MaskWidth::kWide>(router).node = id;
    } else {
      header_as<MaskWidth::kNarrow>(router).node = id;
    }
  }
  /// Router `router`'s injection in progress.
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] Injection& injection(std::uint32_t router) {
    if constexpr (W == MaskWidth::kAny) {
      return wide_ ? injection<MaskWidth::kWide>(router) : injection<MaskWidth::kNarrow>(router);
    } else {
      return header_as<W>(router).injection;
    }
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] const Injection& injection(std::uint32_t router) const {
    if constexpr (W == MaskWidth::kAny) {
      return wide_ ? injection<MaskWidth::kWide>(router) : injection<MaskWidth::kNarrow>(router);
    } else {
      return header_as<W>(router).injection;
    }
  }
  /// Appends every router's input VCs to `rows`: ready cycles (in full where they matter, a
  /// head waiting or a VC settling; no later than `now`, the next cycle to simulate, where
  /// they do not, since a cycle long past may be more than 2^31 cycles back; a parked head at
  /// `now`, as the requests it skipped would have left it), stamps, packed states and flits
  /// (their packets' ids by id_of).
  void save(RouterRows& rows, Cycle now, const PacketIdOf& id_of) const;
  /// Fills every router's input VCs from `rows` (a unit just built or emptied; row r is
  /// router r); slot_of gives each flit's packet slot. The stage masks follow the stages;
  /// the switch stage's (blocked, settling) are the caller's to rebuild.
  void restore(const RouterRows& rows, const PacketSlotOf& slot_of);
  [[nodiscard]] std::uint32_t routers() const { return routers_; }
  /// Whether the header's masks are 64 bits (else 16) and the VC states WideVcState (else
  /// NarrowVcState): the narrow layout holds up to 16 input VCs per router ((ports + 1) x
  /// vcs) of up to 255 flits each.
  [[nodiscard]] bool wide() const { return wide_; }
  /// Whether `vcs_per_router` input VCs of `depth` flits fit the narrow layout.
  [[nodiscard]] static constexpr bool fits_narrow(std::uint32_t vcs_per_router,
                                                  std::uint32_t depth) {
    return vcs_per_router <= 16 && depth <= 255;
  }
  /// Bytes of one router's header: 32 with 16-bit masks, 64 with 64-bit ones.
  [[nodiscard]] std::size_t header_bytes() const {
    return wide_ ? sizeof(Header<Wide>) : sizeof(Header<Narrow>);
  }
  /// The layout of the masks, for the walk's dispatch (MaskWidth).
  [[nodiscard]] MaskWidth width() const { return wide_ ? MaskWidth::kWide : MaskWidth::kNarrow; }
  [[nodiscard]] std::uint32_t depth() const { return depth_; }
  [[nodiscard]] std::uint32_t vcs_per_router() const { return vcs_per_router_; }
  [[nodiscard]] std::size_t bytes() const {
    return records_.capacity() + headers_.capacity() * sizeof(HeaderLine);
  }

 private:
  /// A router's header is what every step of it reads first, side by side: its six stage
  /// masks (Mask), its injection in progress and its global node id, which every head's route
  /// reads (on a large rank an array of its own cost a line from memory per route). The masks
  /// are 16 bits each where (ports + 1) x vcs <= 16, chosen once per unit: 6 x 2 + 12 + 4 = 28
  /// bytes in a 32-byte Header<Narrow>; else 64 bits: 6 x 8 + 12 + 4 = 64 bytes in a
  /// Header<Wide>, one cache line. The accessors widen the narrow masks to 64 bits on load (the
  /// stages compute in 64 bits either way) in the layout their template parameter names
  /// (MaskWidth), through a reference to the typed header: as byte offsets from the headers'
  /// start, GCC kept one offset per mask alive across the VC stage's loop, spilled to the stack.
  /// 32-bit masks would take 40 bytes, which only a 64-byte header keeps off two lines (at 56
  /// bytes three headers in four straddled two lines, and on a large rank, whose routers are
  /// active sparsely, a step then fetched both), so there is no 32-bit layout.
  enum Mask : std::uint32_t { kNonempty, kWaiting, kActive, kBlocked, kSettling, kParked, kMasks };
  /// The stored masks' types: enumerations, which alias only themselves (stores through
  /// unsigned integers may alias the unit's own fields and the VC records' counters, and GCC
  /// reloaded those after each).
  enum class Narrow : std::uint16_t {};
  enum class Wide : std::uint64_t {};
  /// A router's header with masks of type Bits, aligned to its size (two narrow headers in a
  /// cache line, one wide): none straddles two lines.
  template <class Bits>
  struct alignas(sizeof(Bits) == sizeof(std::uint16_t) ? 32 : 64) Header {
    Bits masks[kMasks] = {};
    Injection injection;
    std::uint32_t node = 0;
  };
  static_assert(sizeof(Header<Narrow>) == 32 && sizeof(Header<Wide>) == 64);
  template <MaskWidth W>
  using HeaderAs = std::conditional_t<W == MaskWidth::kWide, Header<Wide>, Header<Narrow>>;
  /// The headers' storage: cache lines, over which the headers of one layout are laid out.
  struct alignas(64) HeaderLine {
    std::byte bytes[64];
  };
  static_assert(sizeof(HeaderLine) % sizeof(Header<Wide>) == 0);
  /// Router's header in layout W (kNarrow or kWide, the unit's).
  template <MaskWidth W>
  [[nodiscard]] HeaderAs<W>& header_as(std::uint32_t router) {
    static_assert(W != MaskWidth::kAny);
    return std::launder(reinterpret_cast<HeaderAs<W>*>(headers_.data()))[router];
  }
  template <MaskWidth W>
  [[nodiscard]] const HeaderAs<W>& header_as(std::uint32_t router) const {
    static_assert(W != MaskWidth::kAny);
    return std::launder(reinterpret_cast<const HeaderAs<W>*>(headers_.data()))[router];
  }
  /// The first byte of router's header.
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] const std::byte* header(std::uint32_t router) const {
    if constexpr (W == MaskWidth::kAny) {
      return wide_ ? header<MaskWidth::kWide>(router) : header<MaskWidth::kNarrow>(router);
    } else {
      return reinterpret_cast<const std::byte*>(&header_as<W>(router));
    }
  }
  /// A stored mask widened to 64 bits, and 64 bits stored (in the narrow layout their low 16:
  /// no bit above is ever set, since local VCs number below 16).
  template <class Bits>
  [[nodiscard]] static std::uint64_t load(Bits b) {
    return static_cast<std::uint64_t>(b);
  }
  template <class Bits>
  static void store(Bits& b, std::uint64_t bits) {
    b = Bits{static_cast<std::underlying_type_t<Bits>>(bits)};
  }
  template <MaskWidth W>
  [[nodiscard]] std::uint64_t mask(std::uint32_t router, Mask m) const {
    if constexpr (W == MaskWidth::kAny) {
      return wide_ ? mask<MaskWidth::kWide>(router, m) : mask<MaskWidth::kNarrow>(router, m);
    } else {
      return load(header_as<W>(router).masks[m]);
    }
  }
  template <MaskWidth W>
  void set_mask(std::uint32_t router, Mask m, std::uint64_t bits) {
    if constexpr (W == MaskWidth::kAny) {
      wide_ ? set_mask<MaskWidth::kWide>(router, m, bits)
            : set_mask<MaskWidth::kNarrow>(router, m, bits);
    } else {
      store(header_as<W>(router).masks[m], bits);
    }
  }

  /// Input VC i's record: its state (with its wait stamp), then its ring of `depth_` flits
  /// (stride_ bytes in all), so that what a stage reads and writes of one VC usually shares
  /// a cache line (on a rank of a million routers each separate array cost a miss per access).
  /// Records are a multiple of 8 bytes (the stamp's and the flits' alignment, and the narrow
  /// state's size): 8 + 4 x 4 = 24 bytes in the narrow layout (a third of them straddle two
  /// cache lines: docs/scaling.md, "Model state per router"), 12 + 16 = 28 -> 32 in the wide.
  /// Both states start with the stamp.
  static constexpr std::size_t kRecordAlign = 8;
  static_assert(offsetof(NarrowVcState, since) == 0 && offsetof(WideVcState, since) == 0);
  [[nodiscard]] WaitStamp& stamp_ref(std::uint32_t i) {
    return *std::launder(reinterpret_cast<WaitStamp*>(record(i)));
  }
  [[nodiscard]] std::byte* record(std::uint32_t i) {
    return records_.data() + static_cast<std::size_t>(i) * stride_;
  }
  [[nodiscard]] const std::byte* record(std::uint32_t i) const {
    return records_.data() + static_cast<std::size_t>(i) * stride_;
  }
  /// Where a record's ring starts: after the state of layout W (a constant in the walk).
  template <MaskWidth W>
  [[nodiscard]] std::size_t flits_at() const {
    if constexpr (W == MaskWidth::kAny) {
      return flits_at_;
    } else {
      return sizeof(VcStateAs<W>);
    }
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] Flit& flit(std::uint32_t i, std::uint32_t pos) {
    return *std::launder(reinterpret_cast<Flit*>(record(i) + flits_at<W>() + pos * sizeof(Flit)));
  }
  template <MaskWidth W = MaskWidth::kAny>
  [[nodiscard]] const Flit& flit(std::uint32_t i, std::uint32_t pos) const {
    return *std::launder(
        reinterpret_cast<const Flit*>(record(i) + flits_at<W>() + pos * sizeof(Flit)));
  }

  std::uint32_t vcs_per_router_ = 0;
  bool wide_ = true;  ///< 64-bit masks (else 16-bit)
  std::uint32_t depth_ = 1;
  StageDelays delays_;
  std::size_t flits_at_ = sizeof(WideVcState);               ///< the state's bytes, before the ring
  std::size_t stride_ = sizeof(WideVcState) + sizeof(Flit);  ///< bytes per input VC record
  HugeVector<std::byte> records_;  ///< aligned: the allocator's blocks are 16-byte aligned
  std::uint32_t routers_ = 0;
  HugeVector<HeaderLine> headers_;  ///< the routers' headers (Header<Narrow> or <Wide>), zeroed
};

}  // namespace wormnet
