// The VC allocation stage (separable). Input stage: each head whose routing delay is over is
// routed and picks one free output VC among its routing options, the selection policy's
// choice among those the VC rules allow (choose_vcs(), the VC-choice function). Output
// stage: the VcAllocator grants each requested output VC to one head, round robin.
//
// Its arbiter state, each output VC's round-robin pointer (the input VC it granted last),
// lives in the output VC's record (OutputUnit::last_grant): a grant reads and writes that
// record anyway, and a separate array cost a line from memory per grant on a large rank
// (docs/scaling-history.md, "About a million routers"). This stage alone reads and writes it.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/router/router_core.hpp"
#include "wormnet/router/router_rows.hpp"
#include "wormnet/router/vc_choice.hpp"
#include "wormnet/router/vc_rules.hpp"

namespace wormnet {

class VcAllocationStage {
 public:
  /// Every head waiting at router r whose routing delay is over requests one output VC that
  /// choose_vcs() says it may take; each output VC grants at most one head. A head refused
  /// because every VC it may take is owned parks until a tail frees one (InputUnit::parked).
  /// Returns the input VCs granted (bit port * vcs + vc) when the VC allocation delay keeps
  /// them from the switch this cycle, else 0.
  /// kCounted: each grant counts where packets wait (the counted walk: CongestionCounters
  /// at cycle t); the non-template step() asks the flag (and sets the counters' cycle).
  /// W: the layout of the header's masks (the walk's; the non-template step() asks the unit).
  template <bool kCounted, MaskWidth W>
  static std::uint64_t step(RouterCore& c, std::uint32_t r, Cycle t);
  static std::uint64_t step(RouterCore& c, std::uint32_t r, Cycle t) {
    const bool wide = c.inputs.wide();
    if (!c.congestion.counting()) {
      return wide ? step<false, MaskWidth::kWide>(c, r, t)
                  : step<false, MaskWidth::kNarrow>(c, r, t);
    }
    c.congestion.set_cycle(t);
    return wide ? step<true, MaskWidth::kWide>(c, r, t) : step<true, MaskWidth::kNarrow>(c, r, t);
  }

  /// The VC-choice function: for head p at input port in_port of router r, whose routing
  /// offered `options`, calls visit(const VcChoice&) for each output VC the options allow,
  /// in the options' order and within an option by VC number, with the VC rules' verdict
  /// (vc_choice.hpp); stops at the first call that returns false. step() takes from it, and
  /// the deadlock detector's wait-for edges are read from it (wait_for()): the rules are
  /// stated once. Inlined into both (a visitor, no call per VC).
  template <class Visit>
  [[gnu::always_inline]] static inline void choose_vcs(const RouterCore& c, std::uint32_t r,
                                                       int in_port, const Packet& p,
                                                       const RouteOptions& options, Visit&& visit) {
    const int ports = c.params.ports;
    const int vcs = c.params.vcs;
    const VcMask escape = c.params.escape_vcs;
    for (int k = 0; k < options.size(); ++k) {
      const RouteOption& o = options[k];
      // Ejection takes any VC; a network port's VC classes stand for their physical VCs.
      const VcMask allowed = o.port == ports ? o.vcs : c.class_vcs(o.vcs);
      for (int w = 0; w < vcs; ++w) {
        if (!((allowed >> w) & 1U)) continue;
        const int local = o.port * vcs + w;
        const std::uint32_t out = c.outputs.index(r, local);
        const auto adaptive = [&]() __attribute__((always_inline)) {
          return escape != 0 && o.port != ports && ((escape >> w) & 1U) == 0;
        };
        // Each verdict calls the visitor from a place of its own, so that the inlined
        // visitor is specialized for it (no second branch on the verdict), and works out
        // only what it reads.
        const auto tell = [&](VcVerdict v) __attribute__((always_inline)) {
          return visit(VcChoice{k, o.port, w, local, out, adaptive(), v});
        };
        bool go_on;
        if (c.outputs.owner(out) != OutputUnit::kFree) {
          go_on = tell(VcVerdict::kOwned);
        } else if (!bubble_allows(c, r, in_port, o.port, w, p)) {
          go_on = tell(VcVerdict::kBubble);
        } else if (adaptive() &&
                   !adaptive_vc_takes_new_packet(c.outputs.credits(out), c.params.depth)) {
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
  static void wait_for(const RouterCore& c, std::uint32_t r, int local_vc, Cycle t,
                       std::vector<VcWait>& waits);
  /// Whether bubble flow control lets p leave input port in_port of router r by output VC
  /// (out_port, out_vc) (always true when bubble flow control is off or out_port is ejection).
  [[nodiscard]] static bool bubble_allows(const RouterCore& c, std::uint32_t r, int in_port,
                                          int out_port, int out_vc, const Packet& p) {
    if (!c.params.bubble || out_port == c.params.ports) return true;
    const int free = c.outputs.credits(c.outputs.index(r, out_port * c.params.vcs + out_vc));
    return wormnet::bubble_allows(
        free, p.length, c.params.max_length,
        enters_ring(in_port, out_port, c.params.ports, c.ring_port(out_port)));
  }

  /// Its arbiter state in checkpoint form (RouterRows::va_last), and back.
  static void save(const RouterCore& c, RouterRows& rows);
  static void restore(RouterCore& c, const RouterRows& rows);

 private:
  /// Index among `candidates` (output VCs port * vcs + vc) whose port has the most free
  /// buffer slots downstream; the first among equals.
  [[nodiscard]] static int least_occupied(const RouterCore& c, std::uint32_t r,
                                          const int* candidates, int found);
};

}  // namespace wormnet
