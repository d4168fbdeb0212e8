// Where packets wait (`--congestion totals`): per input VC of a rank's routers, over the
// measurement window [begin, end), the cycles a routed head waited for an output VC, the
// cycles a VC holding one waited for a credit, the cycles it had a flit and a credit but did
// not cross the switch, and the time integral of the flits it buffered; per output VC, the
// flits it sent in the window. docs/simulator.md ("Congestion statistics") defines each
// count; this file says how they are kept.
//
// Without a per-cycle pass over the VCs. Each count is the length of the time a VC spends
// in a state (waiting for a VC, for a credit, holding a VC with a flit past its VC
// allocation delay: "held"), clipped to the window. The clip k(t) = min(max(t, begin), end)
// is monotone, so a stay [a, b) overlaps the window by exactly k(b) - k(a): an accumulator
// adds -k(a) when a stay starts and +k(b) when it ends, and a stay not yet over at cycle T
// (the end of the run, or a checkpoint) adds +k(T) when the totals are read (close()). Every
// addition is modulo 2^64: the total, a count of at most window x depth, comes out exact.
//   * occupancy: a flit deposited at d and popped at p is in its buffer at the end of the
//     cycles d .. p-1, p - d of them: -k(d) at the deposit, +k(p) at the pop, +k(T) per flit
//     still buffered; the sum is that of the buffer's count at the end of each cycle.
//   * vc_wait: a head at the front, routed from cycle R (its arrival at an idle VC + rc, or
//     the cycle after the tail before it left, at least, + rc), is refused in every cycle
//     from R to the cycle g before its grant (a parked head too: it would be refused):
//     -k(R) when it comes to the front, +k(g) at the grant.
//   * held: from the grant's VC allocation delay (ready = g + va) while the VC holds a flit;
//     a VC in that state moves a flit, waits for a credit or loses the switch in each cycle,
//     so switch_wait = held - credit_wait - flits popped, and held counts -1 per pop in the
//     window (k(t + 1) - k(t) at a pop at t).
//   * credit_wait: holding a VC, with a flit, past its delay, and no credit (InputUnit's
//     `blocked` bit): starts at the grant (no credit left), at the cycle after a move that
//     took the last credit with flits behind, or at a deposit into the empty VC; ends at
//     the credit's arrival (max with `ready`, so a credit back within the VC allocation
//     delay cancels the stay).
// Counting from cycle 0 is not needed: at any T <= begin the accumulators hold minus the
// stays open at T, and at any T >= end they plus those stays give the totals, so `totals`
// sets them at the window's first cycle and adds the open stays at its end
// (RouterBank::open_congestion(), close_congestion(); closed, counting() is false).
// Per output VC also the flits it sent since the last statistics window (`--congestion
// series`, the channel view over time; counted whenever the counters are on, whatever the
// cycle): take_window() reads and zeroes them at each window's end. And per input VC its
// blocked time at the last window's end (vc_wait + held, i.e. vc_wait + credit_wait +
// switch_wait read at that cycle, the open stays included: RouterBank::take_channel_blocked()):
// a window's blocked time is the reading at its end minus this mark, so the series needs one
// reading per VC and window, nothing per cycle or event. The clip is the measurement window's,
// so windows before it read 0 and those after it too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/core/opaque.hpp"

namespace wormnet {

class CongestionCounters {
 public:
  /// One input VC's accumulators (modulo 2^64; see above). Aligned to its size, so that none
  /// straddles two cache lines (at the vector's 16-byte alignment every other one may).
  struct alignas(32) InputVc {
    std::uint64_t vc_wait = 0;
    std::uint64_t credit_wait = 0;
    std::uint64_t held = 0;  ///< held cycles minus flits popped
    std::uint64_t occupancy = 0;
  };

  /// Off: nothing is allocated and no event is counted.
  CongestionCounters() = default;
  /// On, for `input_vcs` input VCs and `output_vcs` output VCs, counting [begin, end).
  /// `routing_delay`, `vc_alloc_delay`: the router's (the walk's clips, set_cycle());
  /// `series`: keep blocked_mark() (`--congestion series`).
  CongestionCounters(std::size_t input_vcs, std::size_t output_vcs, Cycle begin, Cycle end,
                     Cycle routing_delay = 1, Cycle vc_alloc_delay = 1, bool series = false)
      : on_(true),
        begin_(begin),
        end_(end),
        routing_delay_(routing_delay),
        vc_alloc_delay_(vc_alloc_delay),
        in_(input_vcs),
        out_(output_vcs),
        blocked_mark_(series ? input_vcs : 0),
        noted_(output_vcs + 1) {}

  [[nodiscard]] bool on() const { return on_; }
  /// On and not closed: events count. Closed (RouterBank::close_congestion(), `totals` past
  /// the window): the accumulators hold the window's totals, the stays closed at its end, and
  /// no event counts (every clipped cycle is `end` from then on, so none would change them).
  [[nodiscard]] bool counting() const { return on_ && !closed_; }
  [[nodiscard]] bool closed() const { return closed_; }
  void set_closed(bool closed) { closed_ = closed; }
  /// t clipped to the window.
  [[nodiscard]] Cycle clip(Cycle t) const { return std::min(std::max(t, begin_), end_); }

  /// A flit enters input VC i at t. `count`, `idle`, `active`: the VC before it (flits,
  /// stage kIdle, stage kActive); `blocked`: its owner waits for a credit; `routed`: the
  /// cycle a head at an idle VC requests from (t + rc).
  void deposited(std::uint32_t i, Cycle t, std::uint32_t count, bool idle, bool active,
                 bool blocked, Cycle routed) {
    InputVc& v = in_[i];
    const Cycle k = clip(t);
    v.occupancy -= k;
    if (count != 0) return;
    if (idle) v.vc_wait -= clip(routed);
    if (active) {
      // Past its delay (the head left at its ready cycle or later): held from now.
      v.held -= k;
      if (blocked) v.credit_wait -= k;
    }
  }
  /// The front flit of input VC i left at t through output VC o. `tail`: it was its
  /// packet's; `left`: flits behind it; `no_credit`: o has none left (network ports);
  /// `routed`: the cycle the head behind a tail requests from.
  void popped(std::uint32_t i, std::uint32_t o, Cycle t, bool tail, std::uint32_t left,
              bool no_credit, Cycle routed) {
    InputVc& v = in_[i];
    const Cycle k = clip(t);
    const Cycle k1 = clip(t + 1);
    v.occupancy += k;
    out_[o].flits += k1 - k;
    ++out_[o].window;
    // Held at t (it moved); the pop counts -(k1 - k); the stay goes on unless it ends here.
    const bool goes_on = !tail && left != 0;
    v.held += goes_on ? k - k1 : k;
    if (goes_on && no_credit) v.credit_wait -= k1;
    if (tail && left != 0) v.vc_wait -= clip(std::max(t + 1, routed));
  }
  /// Input VC i was granted an output VC at t, switch-ready from `ready`; `no_credit`: the
  /// output VC has no credit.
  void granted(std::uint32_t i, Cycle t, Cycle ready, bool no_credit) {
    InputVc& v = in_[i];
    const Cycle k = clip(ready);
    v.vc_wait += clip(t);
    v.held -= k;
    if (no_credit) v.credit_wait -= k;
  }
  /// A credit unblocked input VC i (which holds flits) at t; its `ready` cycle.
  void unblocked(std::uint32_t i, Cycle t, Cycle ready) {
    in_[i].credit_wait += clip(std::max(t, ready));
  }

  // The counted walk's events (RankModel's walk instance for --congestion: every event of a
  // router step happens at the cycle the walk steps, set here once per cycle and layer).
  // The rule is the general functions above; these add the same amounts with fewer
  // instructions (the counting's cost: docs/simulator.md, "Congestion statistics"):
  //   * the clipped cycles of an event at t (clip(t), clip(t + 1), clip(t + rc), ...) are the
  //     same for every event of the cycle: set_cycle() computes them once, an event reads them;
  //   * where which way an event goes is data (a body flit into an empty VC, a pop with flits
  //     behind), an addition under a mask replaces the branch, which mispredicted;
  //   * the head behind a tail is counted in the switch stage's branch for it (tail_left_now);
  //   * a credit's unblock is noted without a branch and counted once the block's credits
  //     are in (note_unblocked_now, RouterCore::count_unblocked_now).
  // kShortcuts = false sends each of them to the general function at the cycle set (and
  // RouterBank counts each unblock at once): the same
  // accumulators (tests/unit/router/congestion_test.cpp drives both with the same events), for
  // a check or a measurement of what the shortcuts save.
  static constexpr bool kShortcuts = true;

  /// The cycle set (set_cycle()).
  [[nodiscard]] Cycle cycle() const { return t_; }
  /// Cycle t's clipped cycles (the counted walk calls it before it steps a layer at t).
  void set_cycle(Cycle t) {
    t_ = t;
    now_.now = clip(t);
    now_.step = clip(t + 1) - now_.now;
    now_.routed = clip(t + routing_delay_);
    now_.after_tail = clip(std::max(t + 1, t + routing_delay_));
    now_.ready = clip(t + vc_alloc_delay_);
  }
  /// deposited(i, t, ...) at the cycle set: `head_routes`: a head entered an idle VC;
  /// `joined`: a flit entered an empty VC that holds an output VC (past its delay);
  /// `blocked`: that VC waits for a credit.
  void deposited_now(std::uint32_t i, bool head_routes, bool joined, bool blocked) {
    if constexpr (!kShortcuts) {
      // count 0 when the VC was empty: a head at an idle VC or a flit joining its packet.
      return deposited(i, t_, head_routes || joined ? 0 : 1, head_routes, joined, blocked,
                       t_ + routing_delay_);
    }
    InputVc& v = in_[i];
    const Cycle k = now_.now;
    v.occupancy -= k;
    if (head_routes) [[unlikely]]
      v.vc_wait -= now_.routed;
    const Cycle held = k & (Cycle{0} - static_cast<Cycle>(joined));
    v.held -= held;
    v.credit_wait -= held & (Cycle{0} - static_cast<Cycle>(blocked));
  }
  /// popped(i, o, t, ...) at the cycle set, without the head behind a tail (tail_left()).
  void popped_now(std::uint32_t i, std::uint32_t o, bool goes_on, bool no_credit) {
    if constexpr (!kShortcuts) {
      // popped() with a tail and no flit behind it, or none of both, ends the held spell
      // exactly when goes_on is false; its vc_wait part is tail_left_now()'s.
      return popped(i, o, t_, !goes_on, goes_on ? 1 : 0, no_credit, t_ + routing_delay_);
    }
    InputVc& v = in_[i];
    const Cycle k = now_.now;
    const Cycle step = now_.step;
    v.occupancy += k;
    out_[o].flits += step;
    ++out_[o].window;
    // goes_on ? -step : k, under a mask the compiler cannot turn back into a branch: GCC made
    // the select a jump, and whether a VC empties at a pop is data, so it mispredicted (the
    // counted walk's largest share of mispredictions: docs/simulator.md, "Congestion
    // statistics").
    const Cycle on = opaque(Cycle{0} - static_cast<Cycle>(goes_on));
    v.held += k - ((k + step) & on);
    v.credit_wait -= (k + step) & on & (Cycle{0} - static_cast<Cycle>(no_credit));
  }
  /// A tail left input VC i at the cycle set with a head behind it (popped()'s last line).
  void tail_left_now(std::uint32_t i) {
    if constexpr (!kShortcuts) {
      in_[i].vc_wait -= clip(std::max(t_ + 1, t_ + routing_delay_));
      return;
    }
    in_[i].vc_wait -= now_.after_tail;
  }
  /// A credit at the cycle set unblocked input VC i if `unblocks` (else i is any number and
  /// is dropped): noted without a branch, counted by unblocked_noted() (RouterCore's
  /// count_unblocked_now()) once the block's credits are in. Whether a credit unblocks is
  /// data (about half of them do); counting each at once, a branch on it, was the counted
  /// walk's most mispredicted one (docs/simulator.md, "Congestion statistics"), where the
  /// plain walk has no branch (RouterBank::return_credit).
  /// Later is the same: the credits of a block arrive before its flits, and a credit changes
  /// neither the count nor the ready cycle unblocked() reads.
  void note_unblocked_now(std::uint32_t i, bool unblocks) {
    noted_[noted_size_] = i;
    noted_size_ += unblocks ? 1U : 0U;
  }
  /// Room to note `credits` more credits (a block's, before they return).
  void reserve_noted(std::size_t credits) {
    if (noted_size_ + credits >= noted_.size()) [[unlikely]]
      noted_.resize(noted_size_ + credits + 1);
  }
  /// Calls count(i) for each input VC noted since the last call, and forgets them.
  template <class Count>
  void unblocked_noted(Count&& count) {
    for (std::uint32_t k = 0; k < noted_size_; ++k) count(noted_[k]);
    noted_size_ = 0;
  }
  /// unblocked(i, t, ready) at the cycle set.
  void unblocked_now(std::uint32_t i, Cycle ready) {
    if constexpr (!kShortcuts) return unblocked(i, t_, ready);
    in_[i].credit_wait += std::max(now_.now, clip(ready));  // clip is monotone
  }
  /// granted(i, t, t + vc_alloc_delay, no_credit) at the cycle set.
  void granted_now(std::uint32_t i, bool no_credit) {
    if constexpr (!kShortcuts) return granted(i, t_, t_ + vc_alloc_delay_, no_credit);
    InputVc& v = in_[i];
    v.vc_wait += now_.now;
    v.held -= now_.ready;
    if (no_credit) v.credit_wait -= now_.ready;
  }

  /// The raw accumulators (checkpoints, and close()).
  [[nodiscard]] const InputVc& input(std::uint32_t i) const { return in_[i]; }
  [[nodiscard]] InputVc& input(std::uint32_t i) { return in_[i]; }
  [[nodiscard]] std::uint64_t output(std::uint32_t o) const { return out_[o].flits; }
  void set_output(std::uint32_t o, std::uint64_t flits) { out_[o].flits = flits; }
  /// Flits output VC o sent since the last take_window() (any cycle of the run).
  [[nodiscard]] std::uint64_t window_output(std::uint32_t o) const { return out_[o].window; }
  void set_window_output(std::uint32_t o, std::uint64_t flits) { out_[o].window = flits; }
  /// window_output(o), and zero it (a statistics window ends).
  std::uint64_t take_window(std::uint32_t o) { return std::exchange(out_[o].window, 0); }
  /// Input VC i's blocked time (vc_wait + held, modulo 2^64) read at the last statistics
  /// window's end (--congestion series; 0 before the first, and always without series).
  [[nodiscard]] std::uint64_t blocked_mark(std::uint32_t i) const {
    return blocked_mark_.empty() ? 0 : blocked_mark_[i];
  }
  /// Only with series (a restore sets 0 where there is none).
  void set_blocked_mark(std::uint32_t i, std::uint64_t v) {
    if (!blocked_mark_.empty()) blocked_mark_[i] = v;
  }
  [[nodiscard]] std::size_t inputs() const { return in_.size(); }
  [[nodiscard]] std::size_t outputs() const { return out_.size(); }
  /// Zero counts (a restore fills them after).
  void clear() {
    std::fill(in_.begin(), in_.end(), InputVc{});
    std::fill(out_.begin(), out_.end(), OutputVc{});
    std::fill(blocked_mark_.begin(), blocked_mark_.end(), 0);
  }
  [[nodiscard]] std::size_t bytes() const {
    return in_.capacity() * sizeof(InputVc) + out_.capacity() * sizeof(OutputVc) +
           blocked_mark_.capacity() * sizeof(std::uint64_t) +
           noted_.capacity() * sizeof(std::uint32_t);
  }

 private:
  /// One output VC's counts, side by side (a pop adds to both).
  struct OutputVc {
    std::uint64_t flits = 0;   ///< in the window (modulo 2^64 as the inputs')
    std::uint64_t window = 0;  ///< since the last take_window()
  };
  /// The clipped cycles of the counted walk's present cycle (set_cycle()).
  struct Clips {
    Cycle now = 0;         ///< clip(t)
    Cycle step = 0;        ///< clip(t + 1) - clip(t): 1 inside the window, else 0
    Cycle routed = 0;      ///< clip(t + routing delay): a head at an idle VC requests then
    Cycle after_tail = 0;  ///< clip(max(t + 1, t + routing delay)): the head behind a tail
    Cycle ready = 0;       ///< clip(t + VC allocation delay): a grant's switch-ready cycle
  };
  bool on_ = false;
  bool closed_ = false;  ///< counting(): closed at the window's end
  Cycle begin_ = 0;
  Cycle end_ = 0;
  Cycle routing_delay_ = 1;
  Cycle vc_alloc_delay_ = 1;
  Clips now_;
  Cycle t_ = 0;  ///< the cycle set (set_cycle())
  std::vector<InputVc> in_;
  std::vector<OutputVc> out_;
  std::vector<std::uint64_t> blocked_mark_;  ///< per input VC: blocked_mark()
  /// Input VCs unblocked by the credits of the block being walked (note_unblocked_now()),
  /// with a slot past the last one noted (written by a credit that unblocks none). An output
  /// VC gets at most one credit a cycle, so outputs() + 1 is enough; reserve_noted() checks.
  std::vector<std::uint32_t> noted_;
  std::uint32_t noted_size_ = 0;
};

/// An input VC's totals over the window (CongestionCounters closed at the end).
struct VcCongestion {
  std::uint64_t vc_wait = 0;      ///< cycles
  std::uint64_t credit_wait = 0;  ///< cycles
  std::uint64_t switch_wait = 0;  ///< cycles
  std::uint64_t occupancy = 0;    ///< flit-cycles (flits buffered at the end of each cycle)
};

}  // namespace wormnet
