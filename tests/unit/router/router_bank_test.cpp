// A RouterBank's stages on one router, cycle by cycle, against hand-worked timings: the
// pipeline delays, the credit rule and bubble flow control's ring entry.
#include "wormnet/router/router_bank.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

// Ports of a 2-D mesh or torus: 0 = X+, 1 = X-, 2 = Y+, 3 = Y-, 4 = the terminal.
constexpr int kXPlus = 0;
constexpr int kXMinus = 1;
constexpr int kTerminal = 4;

/// A flit that crossed the switch, as the bank passed it on.
struct Move {
  int in_port;
  int in_vc;
  int out_port;
  int out_vc;
  Flit flit;
};

/// What one router step did.
struct StepResult {
  std::vector<Move> moves;
  RouterBank::Injected injected;
  [[nodiscard]] int count() const { return static_cast<int>(moves.size()); }
};

/// One router (node 0, or `node`) of `spec`, 1 VC, every pipeline delay 0 unless changed.
struct OneRouter {
  explicit OneRouter(const char* spec, const char* routing_name, RouterParams p,
                     std::uint32_t node = 0, FlowControl flow = FlowControl::kCredit)
      : topo(make_topology(spec)),
        routing(make_routing(routing_name, *topo, flow)),
        bank(p, *topo, *routing, {node}, packets) {}
  /// Steps cycle t; returns the moves.
  const StepResult& step(Cycle t) {
    result.moves.clear();
    result.injected =
        bank.step(0, t, source, [&](int in_port, int in_vc, int out_port, int out_vc, Flit f) {
          result.moves.push_back(Move{in_port, in_vc, out_port, out_vc, f});
        });
    return result;
  }
  std::unique_ptr<Topology> topo;
  std::unique_ptr<RoutingFunction> routing;
  PacketTable packets;
  SourceQueue source;
  RouterBank bank;
  StepResult result;
};

RouterParams ideal(int depth) {
  RouterParams p;
  p.ports = 4;
  p.vcs = 1;
  p.depth = depth;
  return p;
}

Message message(std::uint32_t dest, std::uint16_t length) {
  Message m;
  m.dest = dest;
  m.length = length;
  return m;
}

/// Writes a whole `length`-flit packet (id 1, from node 0 to `dest`) into input port
/// `in_port` (VC 0) of r's router at cycle 0, as its upstream neighbour would have sent it.
void deposit_packet(OneRouter& r, int in_port, std::uint32_t dest, std::uint16_t length) {
  Packet pk;
  pk.id = 1;
  pk.source = 0;
  pk.dest = dest;
  pk.length = length;
  const std::uint32_t slot = r.packets.allocate(pk);
  for (int k = 0; k < length; ++k) {
    r.bank.deposit(0, in_port, Flit(slot, k == 0, k == length - 1), 0);
  }
}

/// Rewrites the bank's state through its checkpoint form: saves it (at cycle `now`), lets
/// `edit` change the rows, restores them (a packet's id stands for its slot here).
template <class Edit>
void edit_state(RouterBank& bank, Cycle now, Edit edit) {
  RouterRows rows;
  bank.save(rows, now, [](std::uint32_t slot) { return std::uint64_t{slot}; });
  edit(rows);
  bank.restore(rows, [](std::uint32_t, std::uint32_t, std::uint64_t id) {
    return static_cast<std::uint32_t>(id);
  });
}

// Zero delays: a 3-flit packet from node 0 to node 1 (X+) leaves a flit a cycle, head at 0,
// tail at 2; each takes a credit of the 4-flit downstream buffer; the tail frees the VC.
TEST(RouterBank, AFlitACycleWithZeroDelays) {
  OneRouter r("mesh:2x2", "xy", ideal(4));
  r.source.push(message(1, 3));
  for (Cycle t = 0; t < 3; ++t) {
    const StepResult& s = r.step(t);
    ASSERT_EQ(s.count(), 1) << "cycle " << t;
    EXPECT_EQ(s.injected.flits, 1U);
    EXPECT_EQ(s.injected.packets, t == 0 ? 1U : 0U);
    const Move& m = s.moves[0];
    EXPECT_EQ(m.in_port, kTerminal);
    EXPECT_EQ(m.out_port, kXPlus);
    EXPECT_EQ(m.flit.head(), t == 0);
    EXPECT_EQ(m.flit.tail(), t == 2);
  }
  const OutputUnit& out = r.bank.core().outputs;
  EXPECT_EQ(out.credits(out.index(0, kXPlus)), 1);
  EXPECT_EQ(out.owner(out.index(0, kXPlus)), OutputUnit::kFree);
  EXPECT_TRUE(r.bank.idle(0));
}

// Routing delay 2 and VC allocation delay 1: the head, in the buffer at 0, is allocated a VC
// at 2 and crosses the switch at 3; the injection latency 5 holds the message until 5.
TEST(RouterBank, PipelineDelaysAddUp) {
  RouterParams p = ideal(4);
  p.routing_delay = 2;
  p.vc_alloc_delay = 1;
  OneRouter r("mesh:2x2", "xy", p);
  r.source.push(message(1, 1));
  EXPECT_EQ(r.step(0).count(), 0);
  EXPECT_EQ(r.bank.core().inputs.waiting(0), 1U << (kTerminal * 1));
  EXPECT_EQ(r.step(1).count(), 0);
  EXPECT_EQ(r.step(2).count(), 0);
  EXPECT_EQ(r.bank.core().inputs.active(0), 1U << (kTerminal * 1));
  EXPECT_EQ(r.step(3).count(), 1);

  p.injection_latency = 5;
  OneRouter late("mesh:2x2", "xy", p);
  late.source.push(message(1, 1));
  for (Cycle t = 0; t < 5; ++t) EXPECT_EQ(late.step(t).injected.flits, 0U) << t;
  EXPECT_EQ(late.step(5).injected.flits, 1U);
}

// One-flit buffers: after the head the body has no credit until one comes back.
TEST(RouterBank, NoCreditNoMove) {
  OneRouter r("mesh:2x2", "xy", ideal(1));
  r.source.push(message(1, 2));
  EXPECT_EQ(r.step(0).count(), 1);
  EXPECT_EQ(r.step(1).count(), 0);
  EXPECT_EQ(r.step(2).count(), 0);
  r.bank.return_credit(r.bank.output_vc(0, kXPlus), 0);
  ASSERT_EQ(r.step(3).count(), 1);
  EXPECT_TRUE(r.result.moves[0].flit.tail());
}

// Bubble flow control on a torus ring: a 4-flit packet entering the X ring needs room for
// itself and a 4-flit bubble (8 slots); going straight on along the ring, room for itself.
TEST(RouterBank, BubbleFlowControlReservesABubbleOnRingEntry) {
  RouterParams p = ideal(4);
  p.bubble = true;
  p.max_length = 4;
  OneRouter four("torus:4x4", "dor", p, 0, FlowControl::kBubble);
  four.source.push(message(1, 4));
  for (Cycle t = 0; t < 6; ++t) EXPECT_EQ(four.step(t).count(), 0) << t;  // 4 < 8: never
  EXPECT_EQ(four.bank.core().outputs.owner(four.bank.core().outputs.index(0, kXPlus)),
            OutputUnit::kFree);

  p.depth = 8;
  OneRouter eight("torus:4x4", "dor", p, 0, FlowControl::kBubble);
  eight.source.push(message(1, 4));
  EXPECT_EQ(eight.step(0).count(), 1);

  // Node 1 of the 4x4 torus, a packet from node 0 to node 2 arriving on X- (it travels X+):
  // it goes straight on and 4 free slots suffice.
  p.depth = 4;
  OneRouter straight("torus:4x4", "dor", p, 1, FlowControl::kBubble);
  deposit_packet(straight, kXMinus, 2, 4);
  ASSERT_EQ(straight.step(0).count(), 1);
  EXPECT_EQ(straight.result.moves[0].out_port, kXPlus);
  EXPECT_EQ(straight.result.moves[0].in_port, kXMinus);
}

// The wait stamp of an input VC is its last move: the detector sees a VC that could not move.
TEST(RouterBank, AMoveStampsItsInputVc) {
  OneRouter r("mesh:2x2", "xy", ideal(1));
  r.source.push(message(1, 2));
  r.step(0);  // head leaves
  r.step(1);  // body written, no credit
  const std::uint32_t injection_vc = r.bank.core().inputs.index(0, kTerminal);
  EXPECT_EQ(r.bank.core().inputs.stamp(injection_vc), 1U);  // arrived empty at 1
  EXPECT_TRUE(r.bank.core().inputs.stuck(injection_vc, 11, 10));
}

// A flit's arrival starts its VC's wait only when the buffer was empty (the deadlock
// detector's stamp), and starts a route only for a head at an idle VC; a flit behind others
// changes neither, and a flit into an emptied VC that holds an output VC keeps the stage.
TEST(RouterBank, ADepositStampsOnlyAnEmptyInputVc) {
  RouterParams p = ideal(4);
  p.routing_delay = 2;
  OneRouter r("mesh:2x2", "xy", p);
  const InputUnit& in = r.bank.core().inputs;
  const std::uint32_t i = in.index(0, kXMinus);  // one VC: local VC = port
  const Flit head(0, true, false);
  const Flit body(0, false, false);
  r.bank.deposit(0, kXMinus, head, 5);
  EXPECT_EQ(in.stamp(i), 5U);
  EXPECT_EQ(in.stage(i), VcStage::kWaitVc);
  EXPECT_EQ(in.ready_near(i, 6), 7U);  // routed from 5 + the routing delay
  EXPECT_FALSE(in.ready_by(i, 6));
  EXPECT_TRUE(in.ready_by(i, 7));
  r.bank.deposit(0, kXMinus, body, 9);  // behind the head
  EXPECT_EQ(in.stamp(i), 5U);
  EXPECT_EQ(in.ready_near(i, 6), 7U);
  EXPECT_EQ(in.count(i), 2);
  // Both flits gone and the packet holding X+ (its tail still to come).
  const auto drained = [&](RouterRows& rows) {
    rows.ivc_meta[kXMinus] =
        RouterRows::ivc_meta_of(0, static_cast<std::uint8_t>(VcStage::kActive), kXPlus, 0);
  };
  edit_state(r.bank, 10, drained);
  r.bank.deposit(0, kXMinus, body, 12);  // into the emptied, active VC
  EXPECT_EQ(in.stamp(i), 12U);
  EXPECT_EQ(in.stage(i), VcStage::kActive);
  EXPECT_EQ(in.waiting(0), 0U);
  const Cycle late = (Cycle{1} << 32) + 40;  // the stamp keeps the low 32 bits
  edit_state(r.bank, late, drained);
  r.bank.deposit(0, kXMinus, body, late);
  r.bank.deposit(0, kXMinus, body, late + 3);
  EXPECT_EQ(in.stamp(i), 40U);
  EXPECT_EQ(in.nonempty(0), std::uint64_t{1} << kXMinus);
}

// An input VC's `ready` cycle is its stamp's low 32 bits plus its stage's delay: a head that
// waits for an output VC more than 2^31 cycles must still be granted it when it frees (the VC
// stage marks it past its delay at its first look, and a parked head stays so). Steps 2^30
// cycles apart stand for every cycle between; without that mark, the last step would take
// the head for not yet routed.
TEST(RouterBank, AHeadWaitingOver2To31CyclesForAnOutputVcStillGetsIt) {
  RouterParams p = ideal(4);
  p.routing_delay = 2;
  OneRouter r("mesh:2x2", "xy", p);
  const InputUnit& in = r.bank.core().inputs;
  const std::uint32_t o = r.bank.output_vc(0, kXPlus);
  edit_state(r.bank, 0, [](RouterRows& rows) {  // another packet holds the only VC of X+
    rows.ovc_owner[kXPlus] = kXMinus;
    rows.ovc_packet[kXPlus] = 0;
  });
  r.source.push(message(1, 1));
  const std::uint64_t injection_vc = std::uint64_t{1} << kTerminal;
  const Cycle quarter = Cycle{1} << 30;
  for (const Cycle t : {Cycle{0}, Cycle{1}, Cycle{2}, Cycle{3}, 2 + quarter, 2 + 2 * quarter}) {
    EXPECT_EQ(r.step(t).count(), 0) << t;
    EXPECT_EQ(in.waiting(0), injection_vc) << t;
  }
  // Refused for an owned VC, it is parked from its first request, and released by a tail
  // (here directly, at 2 + 2^31).
  EXPECT_EQ(in.parked(0), injection_vc);
  r.bank.release_output(0, o);
  EXPECT_EQ(in.parked(0), 0U);
  EXPECT_TRUE(in.ready_by(in.index(0, kTerminal), 2 + 2 * quarter));
  const Cycle late = 2 + 3 * quarter + 7;  // 2^31 + 2^30 + 5 cycles after it was routed
  ASSERT_EQ(r.step(late).count(), 1);      // granted and across (no allocation delay)
  EXPECT_EQ(r.result.moves[0].out_port, kXPlus);
  EXPECT_EQ(in.waiting(0), 0U);
}

// Two packets for X+ at node 1 of a 3x3 mesh (1 VC, no delays): A (3 flits, on X-) wins the
// VC at 0, B (1 flit, from the terminal) loses the arbitration, is refused at 1 (the VC is
// A's) and parks: the VC stage no longer routes it. A's tail leaves at 2 and releases the VC;
// B is granted it and crosses at 3, as with a request every cycle.
TEST(RouterBank, AHeadRefusedForAnOwnedVcParksUntilATailFreesOne) {
  OneRouter r("mesh:3x3", "xy", ideal(4), 1);
  deposit_packet(r, kXMinus, 2, 3);  // A
  r.source.push(message(2, 1));
  const std::uint64_t terminal = std::uint64_t{1} << kTerminal;
  const InputUnit& in = r.bank.core().inputs;
  for (Cycle t = 0; t < 3; ++t) {
    ASSERT_EQ(r.step(t).count(), 1) << t;
    EXPECT_EQ(r.result.moves[0].in_port, kXMinus) << t;
    EXPECT_EQ(in.waiting(0), terminal) << t;
    EXPECT_EQ(in.parked(0), t == 1 ? terminal : 0U) << t;  // released by A's tail at 2
  }
  EXPECT_EQ(in.parked(0), 0U);
  ASSERT_EQ(r.step(3).count(), 1);
  EXPECT_EQ(r.result.moves[0].in_port, kTerminal);
  EXPECT_EQ(r.result.moves[0].out_port, kXPlus);
  EXPECT_TRUE(r.bank.idle(0));
}

// A head refused only for credits (bubble flow control: entering the X ring needs 8 free
// slots, the VC has 7) does not park: the credit that makes room comes back without a tail,
// and the head is granted the VC and crosses in the cycle after it.
TEST(RouterBank, AHeadRefusedForCreditsDoesNotPark) {
  RouterParams p = ideal(8);
  p.bubble = true;
  p.max_length = 4;
  OneRouter r("torus:4x4", "dor", p, 0, FlowControl::kBubble);
  const std::uint32_t o = r.bank.output_vc(0, kXPlus);
  edit_state(r.bank, 0, [](RouterRows& rows) { --rows.ovc_credits[kXPlus]; });
  r.source.push(message(1, 4));
  for (Cycle t = 0; t < 4; ++t) {
    EXPECT_EQ(r.step(t).count(), 0) << t;
    EXPECT_EQ(r.bank.core().inputs.parked(0), 0U) << t;
  }
  r.bank.return_credit(o, 0);
  ASSERT_EQ(r.step(4).count(), 1);
  EXPECT_EQ(r.result.moves[0].out_port, kXPlus);
}

/// A routing that offers each step of `base` `copies` times over, in a row: a legal routing
/// (the same port and VCs may be offered with other next states) at the limits of what the
/// router's fixed arrays hold.
class RepeatingRouting final : public RoutingFunction {
 public:
  RepeatingRouting(std::unique_ptr<RoutingFunction> base, int copies)
      : base_(std::move(base)), copies_(copies) {}
  [[nodiscard]] std::string name() const override { return "repeating"; }
  [[nodiscard]] int vcs_required() const override { return base_->vcs_required(); }
  void route(const RouteRequest& request, RouteOptions& out) const override {
    RouteOptions once;
    base_->route(request, once);
    for (int c = 0; c < copies_; ++c) {
      for (const RouteOption& o : once) out.add(o.port, o.vcs, o.next_state);
    }
  }
  [[nodiscard]] bool minimal() const override { return base_->minimal(); }
  [[nodiscard]] std::string description() const override { return "test"; }

 private:
  std::unique_ptr<RoutingFunction> base_;
  int copies_;
};

// The most output VCs one head can be offered: RouteOptions::kCapacity options (24), each
// on every VC of its channel (8: xy's one VC class spread over 8 VCs), 192 candidates, all
// free, with a selection that looks at all of them. The head takes one of them and leaves on
// X+ at cycle 0 (the VC allocator's candidate list once held 64 and was written past).
TEST(RouterBank, TheMostCandidatesARoutingCanOfferFit) {
  for (const SelectionPolicy selection :
       {SelectionPolicy::kRandom, SelectionPolicy::kLeastOccupied}) {
    RouterParams p = ideal(4);
    p.vcs = kMaxVcs;
    p.selection = selection;
    const auto topo = make_topology("mesh:2x2");
    const RepeatingRouting routing(make_routing("xy", *topo), RouteOptions::kCapacity);
    PacketTable packets;
    SourceQueue source;
    RouterBank bank(p, *topo, routing, {0}, packets);
    source.push(message(1, 1));
    std::vector<Move> moves;
    bank.step(0, 0, source, [&](int in_port, int in_vc, int out_port, int out_vc, Flit f) {
      moves.push_back(Move{in_port, in_vc, out_port, out_vc, f});
    });
    ASSERT_EQ(moves.size(), 1U);
    EXPECT_EQ(moves[0].in_port, kTerminal);
    EXPECT_EQ(moves[0].out_port, kXPlus);
    EXPECT_LT(moves[0].out_vc, kMaxVcs);
  }
}

// One step more than RouteOptions holds is a bug in the routing: refused, not written past
// the options' array.
TEST(RouterBank, ARoutingOfferingTooManyStepsIsRefused) {
  const auto topo = make_topology("mesh:2x2");
  const RepeatingRouting routing(make_routing("xy", *topo), RouteOptions::kCapacity + 1);
  PacketTable packets;
  SourceQueue source;
  RouterBank bank(ideal(4), *topo, routing, {0}, packets);
  source.push(message(1, 1));
  EXPECT_THROW(bank.step(0, 0, source, [](int, int, int, int, Flit) {}), InvariantError);
}

// Routers whose VCs do not fit the 64-bit masks and 64-entry tables they are numbered in are
// refused when the bank is built (the run plan refuses them as bad input before).
TEST(RouterBank, ARouterPastItsTablesIsRefused) {
  const auto topo = make_topology("torus:4x4x4x4");  // 8 ports
  const auto routing = make_routing("dor", *topo);
  PacketTable packets;
  for (const int vcs : {8, 0, 9}) {  // 9 x 8 = 72 VC numbers; none; more than a mask holds
    RouterParams p = ideal(4);
    p.ports = 8;
    p.vcs = vcs;
    EXPECT_THROW(RouterBank(p, *topo, *routing, {0}, packets), InvariantError) << vcs;
  }
  RouterParams p = ideal(4);
  p.ports = 8;
  p.vcs = 7;  // 9 x 7 = 63
  EXPECT_NO_THROW(RouterBank(p, *topo, *routing, {0}, packets));
}

// An input VC's `ready` is its 32-bit stamp plus its stage's delay (3 cycles routing a head,
// 2 after a grant), against the full cycle: due at and after it, not before, at any cycle
// from the stamp to 2^32 - 1 cycles after it, right across the wrap of the low 32 bits;
// ready_near() gives the full cycle back from any cycle within 2^31 of the stamp. Once past
// its delay, it is ready at every cycle, and ready_near() is no later than the cycle asked.
TEST(InputUnit, ReadyIsTheStampPlusTheStageDelayAcrossTheWrap) {
  for (const Cycle stamp : {Cycle{5}, (Cycle{1} << 32) - 3, (Cycle{7} << 32) + 1, Cycle{1} << 31}) {
    InputUnit in(1, 2, 1, 2, false, StageDelays{3, 2});
    const std::uint32_t i = in.index(0, 1);
    in.push(0, 1, Flit(0, true, false));
    for (const VcStage stage : {VcStage::kWaitVc, VcStage::kActive}) {
      in.set_stage(0, 1, stage);
      in.mark(i, stamp);
      const Cycle delay = stage == VcStage::kWaitVc ? 3 : 2;
      for (const Cycle e : {Cycle{0}, Cycle{1}, delay - 1, delay, delay + 1, (Cycle{1} << 31) - 1,
                            (Cycle{1} << 32) - 1}) {
        EXPECT_EQ(in.ready_by(i, stamp + e), e >= delay) << stamp << " " << e;
        if (e < (Cycle{1} << 31)) {
          EXPECT_EQ(in.ready_near(i, stamp + e), stamp + delay) << stamp << " " << e;
        }
      }
      in.set_past(i);
      for (const Cycle e : {Cycle{0}, Cycle{1}, delay, delay + 1}) {
        EXPECT_TRUE(in.ready_by(i, stamp + e)) << stamp << " " << e;
        EXPECT_EQ(in.ready_near(i, stamp + e), stamp + e) << stamp << " " << e;
      }
    }
  }
}

/// Every router of `spec` in one bank, its links carried by hand: a flit reaches the next
/// router `link` cycles after it crosses the switch, a credit the upstream router `link`
/// cycles after its flit left.
struct WholeNetwork {
  WholeNetwork(const char* spec, const RouterParams& p, Cycle link)
      : topo(make_topology(spec)),
        routing(make_routing("xy", *topo, FlowControl::kCredit)),
        bank(p, *topo, *routing, all_nodes(*topo), packets),
        sources(topo->num_nodes()),
        link_(link) {}
  static std::vector<std::uint32_t> all_nodes(const Topology& topo) {
    std::vector<std::uint32_t> nodes(topo.num_nodes());
    for (std::uint32_t n = 0; n < nodes.size(); ++n) nodes[n] = n;
    return nodes;
  }
  void step(Cycle t) {
    const int ports = bank.params().ports;
    const int vcs = bank.params().vcs;
    for (auto it = flits.begin(); it != flits.end();) {
      if (it->arrival != t) {
        ++it;
        continue;
      }
      bank.deposit(it->router, it->local_vc, it->flit, t);
      it = flits.erase(it);
    }
    for (auto it = credits.begin(); it != credits.end();) {
      if (it->first != t) {
        ++it;
        continue;
      }
      bank.return_credit(it->second, t);
      it = credits.erase(it);
    }
    const InputUnit& in = bank.core().inputs;
    std::vector<Cycle> ready(static_cast<std::size_t>((ports + 1) * vcs));
    for (std::uint32_t r = 0; r < topo->num_nodes(); ++r) {
      // Each VC's `ready` before the step: a held output VC's, or for a VC granted in this
      // step (its head waited before) the grant's, t + the VC allocation delay.
      for (int lv = 0; lv < (ports + 1) * vcs; ++lv) {
        const std::uint32_t i = in.index(r, lv);
        ready[static_cast<std::size_t>(lv)] = in.stage(i) == VcStage::kActive
                                                  ? in.ready_near(i, t)
                                                  : t + bank.params().vc_alloc_delay;
      }
      bank.step(r, t, sources[r], [&](int in_port, int in_vc, int out_port, int out_vc, Flit f) {
        // The VC allocation delay is over.
        if (t < ready[static_cast<std::size_t>(in_port * vcs + in_vc)]) ++early_moves;
        if (out_port != ports) {
          const NodeId m = topo->neighbor(NodeId(r), static_cast<PortId>(out_port));
          flits.push_back(InFlight{t + link_, m.value(), (out_port ^ 1) * vcs + out_vc, f});
        } else if (f.tail()) {
          packets.release(f.packet());
        }
        if (in_port != ports) {
          const NodeId u = topo->neighbor(NodeId(r), static_cast<PortId>(in_port));
          credits.emplace_back(t + link_, bank.output_vc(u.value(), (in_port ^ 1) * vcs + in_vc));
        }
      });
    }
  }
  struct InFlight {
    Cycle arrival;
    std::uint32_t router;
    int local_vc;
    Flit flit;
  };
  std::unique_ptr<Topology> topo;
  std::unique_ptr<RoutingFunction> routing;
  PacketTable packets;
  RouterBank bank;
  std::vector<SourceQueue> sources;
  std::vector<InFlight> flits;
  std::vector<std::pair<Cycle, std::uint32_t>> credits;
  int early_moves = 0;  ///< flits that crossed the switch before their VC's `ready`
  Cycle link_;
};

// The switch stage's masks, kept as credits come and go, against the state they summarize,
// evaluated VC by VC at every cycle of a congested 3x3 mesh (2 VCs, 2-flit buffers, 3-cycle
// links) for VC allocation delays 0 to 3: blocked = the active VCs whose output VC has no
// credit; every active VC whose `ready` is more than a cycle ahead is settling; neither
// holds other VCs; and no flit crosses the switch before its VC's `ready`. Then rebuilding
// the masks from the state (as a restore does) gives the same blocked VCs.
TEST(RouterBank, SwitchMasksMatchTheCreditsAndDelaysTheySummarize) {
  for (const Cycle delay : {0, 1, 2, 3}) {
    RouterParams p;
    p.ports = 4;
    p.vcs = 2;
    p.depth = 2;
    p.routing_delay = 1;
    p.vc_alloc_delay = delay;
    WholeNetwork net("mesh:3x3", p, 3);
    std::uint64_t sequence = 0;
    for (std::uint32_t n = 0; n < 9; ++n) {
      for (std::uint32_t k = 0; k < 12; ++k) {
        Message m = message((n + 1 + k * 5) % 9 == n ? (n + 4) % 9 : (n + 1 + k * 5) % 9,
                            static_cast<std::uint16_t>(1 + (n + k) % 6));
        m.sequence = sequence++;
        net.sources[n].push(m);
      }
    }
    const InputUnit& in = net.bank.core().inputs;
    const OutputUnit& out = net.bank.core().outputs;
    int blocked_seen = 0;
    int settling_seen = 0;
    auto expected_blocked = [&](std::uint32_t r) {
      std::uint64_t b = 0;
      for (int lv = 0; lv < 5 * p.vcs; ++lv) {
        const std::uint32_t s_i = in.index(r, lv);
        if (in.stage(s_i) != VcStage::kActive) continue;
        if (out.credits(out.index(r, in.out_port(s_i) * p.vcs + in.out_vc(s_i))) == 0)
          b |= 1ULL << lv;
      }
      return b;
    };
    for (Cycle t = 0; t < 400; ++t) {
      net.step(t);
      for (std::uint32_t r = 0; r < 9; ++r) {
        ASSERT_EQ(in.blocked(r), expected_blocked(r)) << "router " << r << " cycle " << t;
        for (int lv = 0; lv < 5 * p.vcs; ++lv) {
          const std::uint32_t s_i = in.index(r, lv);
          const bool settling = ((in.settling(r) >> lv) & 1U) != 0;
          if (in.stage(s_i) != VcStage::kActive) {
            ASSERT_FALSE(settling) << "router " << r << " VC " << lv << " cycle " << t;
          } else if (!in.ready_by(in.index(r, lv), t + 1)) {
            ASSERT_TRUE(settling) << "router " << r << " VC " << lv << " cycle " << t;
          }
        }
        blocked_seen += in.blocked(r) != 0 ? 1 : 0;
        settling_seen += in.settling(r) != 0 ? 1 : 0;
      }
    }
    EXPECT_EQ(net.early_moves, 0) << "delay " << delay;
    EXPECT_GT(blocked_seen, 50) << "delay " << delay;  // the run did exercise the masks
    if (delay > 1) {
      EXPECT_GT(settling_seen, 50) << "delay " << delay;
    }
    EXPECT_TRUE(net.flits.empty() && net.credits.empty());  // and drained: all delivered
    for (std::uint32_t n = 0; n < 9; ++n) EXPECT_TRUE(net.sources[n].empty());
  }

  // Mid-run, a save and restore (which rebuilds the masks from the state) keeps the blocked
  // VCs and marks every active one settling.
  RouterParams p;
  p.ports = 4;
  p.vcs = 2;
  p.depth = 2;
  WholeNetwork again("mesh:3x3", p, 3);
  for (std::uint32_t n = 0; n < 9; ++n) again.sources[n].push(message((n + 4) % 9, 6));
  for (Cycle t = 0; t < 9; ++t) again.step(t);
  std::vector<std::uint64_t> before(9);
  int blocked = 0;
  for (std::uint32_t r = 0; r < 9; ++r) {
    before[r] = again.bank.core().inputs.blocked(r);
    blocked += before[r] != 0 ? 1 : 0;
  }
  EXPECT_GT(blocked, 0);
  edit_state(again.bank, 9, [](RouterRows&) {});  // a restore rebuilds the masks
  for (std::uint32_t r = 0; r < 9; ++r) {
    EXPECT_EQ(again.bank.core().inputs.blocked(r), before[r]) << r;
    EXPECT_EQ(again.bank.core().inputs.settling(r), again.bank.core().inputs.active(r)) << r;
  }
}

// The 16-bit masks (3 VCs: 15 input VCs per router) and the 64-bit ones (4 VCs: 20) against
// the 64-bit layout forced: two banks of a congested 3x3 mesh in lockstep have the same masks
// and VC states at every cycle, and deliver everything.
TEST(RouterBank, NarrowMasksMoveAsTheWideLayout) {
  for (const int vcs : {3, 4}) {
    RouterParams p;
    p.ports = 4;
    p.vcs = vcs;
    p.depth = 2;
    p.routing_delay = 1;
    p.vc_alloc_delay = 2;
    WholeNetwork narrow("mesh:3x3", p, 3);
    p.wide_masks = true;
    WholeNetwork wide("mesh:3x3", p, 3);
    EXPECT_EQ(narrow.bank.core().inputs.wide(), vcs == 4);
    EXPECT_TRUE(wide.bank.core().inputs.wide());
    std::uint64_t sequence = 0;
    for (std::uint32_t n = 0; n < 9; ++n) {
      for (std::uint32_t k = 0; k < 12; ++k) {
        Message m = message((n + 1 + k * 5) % 9 == n ? (n + 4) % 9 : (n + 1 + k * 5) % 9,
                            static_cast<std::uint16_t>(1 + (n + k) % 6));
        m.sequence = sequence++;
        narrow.sources[n].push(m);
        wide.sources[n].push(m);
      }
    }
    const InputUnit& a = narrow.bank.core().inputs;
    const InputUnit& b = wide.bank.core().inputs;
    int busy = 0;
    for (Cycle t = 0; t < 400; ++t) {
      narrow.step(t);
      wide.step(t);
      for (std::uint32_t r = 0; r < 9; ++r) {
        ASSERT_EQ(a.nonempty(r), b.nonempty(r)) << vcs << " router " << r << " cycle " << t;
        ASSERT_EQ(a.waiting(r), b.waiting(r)) << vcs << " router " << r << " cycle " << t;
        ASSERT_EQ(a.active(r), b.active(r)) << vcs << " router " << r << " cycle " << t;
        ASSERT_EQ(a.blocked(r), b.blocked(r)) << vcs << " router " << r << " cycle " << t;
        ASSERT_EQ(a.settling(r), b.settling(r)) << vcs << " router " << r << " cycle " << t;
        ASSERT_EQ(a.parked(r), b.parked(r)) << vcs << " router " << r << " cycle " << t;
        for (int lv = 0; lv < 5 * vcs; ++lv) {
          const std::uint32_t x_i = a.index(r, lv);
          const std::uint32_t y_i = b.index(r, lv);
          ASSERT_EQ(a.count(x_i), b.count(y_i))
              << vcs << " router " << r << " VC " << lv << " cycle " << t;
          ASSERT_EQ(a.stage(x_i), b.stage(y_i))
              << vcs << " router " << r << " VC " << lv << " cycle " << t;
          ASSERT_EQ(a.out_vc(x_i), b.out_vc(y_i)) << vcs << " router " << r << " VC " << lv;
        }
        busy += (a.active(r) >> (4 * vcs)) != 0 ? 1 : 0;  // the top port's (injection) VCs
      }
    }
    EXPECT_GT(busy, 50) << vcs;  // the highest bits were used
    EXPECT_TRUE(narrow.flits.empty() && narrow.credits.empty()) << vcs;
    for (std::uint32_t n = 0; n < 9; ++n) EXPECT_TRUE(narrow.sources[n].empty()) << vcs;
  }
}

// A bank restored from another's saved rows mid-run, with three packets contending for the
// two VCs of X+ and the switch, flits stalled for credits and a message still being written,
// then moves exactly as the bank it was saved from: the units (input and output VCs, the
// switch arbiter, the packet being injected) carry their whole state in the rows. (Without
// the output VCs', the switch arbiter's or the injection's rows the moves differ; the VC
// allocator's round robin is not put to the test here.)
TEST(RouterBank, ABankRestoredFromSavedRowsMovesAsTheOriginal) {
  RouterParams p = ideal(4);
  p.vcs = 2;
  p.routing_delay = 1;
  OneRouter a("mesh:2x2", "xy", p);
  OneRouter b("mesh:2x2", "xy", p);
  const auto deposit = [&](int in_port, std::uint64_t id, std::uint16_t length) {
    Packet pk;
    pk.id = id;
    pk.dest = 1;  // through X+
    pk.length = length;
    const std::uint32_t slot = a.packets.allocate(pk);
    for (int k = 0; k < length; ++k) {
      a.bank.deposit(0, in_port * p.vcs, Flit(slot, k == 0, k == length - 1), 0);
    }
  };
  deposit(kXMinus, 1, 3);
  deposit(3, 2, 3);              // Y-
  a.source.push(message(1, 6));  // longer than the buffer: still being written at the save
  a.source.push(message(2, 2));  // through Y+
  int before = 0;
  Cycle t = 0;
  for (; t < 4; ++t) before += a.step(t).count();
  RouterRows rows;
  a.bank.save(rows, t, [](std::uint32_t slot) { return std::uint64_t{slot}; });
  b.packets = a.packets;
  b.source = a.source;
  b.bank.restore(rows, [](std::uint32_t, std::uint32_t, std::uint64_t id) {
    return static_cast<std::uint32_t>(id);
  });
  int after = 0;
  for (Cycle u = t; u < t + 30; ++u) {
    if (u >= t + 3 && u < t + 8) {  // downstream frees a slot of each VC a cycle, 5 in all
      for (int vc = 0; vc < p.vcs; ++vc) {
        a.bank.return_credit(a.bank.output_vc(0, kXPlus * p.vcs + vc), 0);
        b.bank.return_credit(b.bank.output_vc(0, kXPlus * p.vcs + vc), 0);
      }
    }
    const StepResult ra = a.step(u);
    const StepResult& rb = b.step(u);
    ASSERT_EQ(ra.count(), rb.count()) << u;
    EXPECT_EQ(ra.injected.flits, rb.injected.flits) << u;
    for (int k = 0; k < ra.count(); ++k) {
      const Move& x = ra.moves[static_cast<std::size_t>(k)];
      const Move& y = rb.moves[static_cast<std::size_t>(k)];
      EXPECT_EQ(
          std::tuple(x.in_port, x.in_vc, x.out_port, x.out_vc, x.flit.packet(), x.flit.kind()),
          std::tuple(y.in_port, y.in_vc, y.out_port, y.out_vc, y.flit.packet(), y.flit.kind()))
          << u;
    }
    after += ra.count();
  }
  // 12 flits want X+, whose 8 credits and the 10 returned pass them all; 2 go to Y+. Some
  // moved before the save, the rest after it.
  EXPECT_EQ(before + after, 14);
  EXPECT_GT(before, 0);
  EXPECT_GT(after, 0);
}

// An output VC's owner packet is not stored with it: it is found at the owning input VC, its
// front flit's, or with the buffer emptied, the last flit popped's. A 7-flit packet (slot 1:
// slot 0, every empty ring's, would pass by chance) from X- to X+ (4-flit buffers, zero
// delays) arrives 3 flits at cycle 0, which leave at 0, 1 and 2, then 4 at cycle 5 (the ring
// wraps, and the 4th fills the slot of the last flit popped), which leave at 5 to 8; X+
// streams it from the head's move at 0 until the tail's at 8. A bank restored from rows
// saved while the buffer is empty (at 4) finds the packet too, and moves as the original.
TEST(RouterBank, AnOwnerPacketIsFoundAtItsInputVcEmptiedAndRestored) {
  OneRouter a("mesh:2x2", "xy", ideal(4));
  OneRouter b("mesh:2x2", "xy", ideal(4));
  Packet other;
  other.id = 9;
  a.packets.allocate(other);
  Packet pk;
  pk.id = 1;
  pk.dest = 1;
  pk.length = 7;
  const std::uint32_t slot = a.packets.allocate(pk);
  ASSERT_EQ(slot, 1U);
  const auto flit = [&](int k) { return Flit(slot, k == 0, k == 6); };
  for (int k = 0; k < 3; ++k) a.bank.deposit(0, kXMinus, flit(k), 0);
  const std::uint32_t o = a.bank.output_vc(0, kXPlus);
  const auto streams = [](const OneRouter& r) {
    std::vector<std::tuple<int, int, std::uint32_t>> seen;
    r.bank.for_each_stream([&](std::uint32_t, int port, int vc, std::uint32_t packet) {
      seen.emplace_back(port, vc, packet);
    });
    return seen;
  };
  const std::vector<std::tuple<int, int, std::uint32_t>> streaming{{kXPlus, 0, slot}};
  EXPECT_TRUE(streams(a).empty());  // its head waits at the front: nothing on the link yet
  int moved = 0;
  for (Cycle t = 0; t < 12; ++t) {
    if (t == 4) {
      ASSERT_EQ(a.bank.core().inputs.count(a.bank.core().inputs.index(0, kXMinus)), 0);
      RouterRows rows;
      a.bank.save(rows, t, [](std::uint32_t s) { return std::uint64_t{s}; });
      EXPECT_EQ(rows.ovc_packet[o], slot);
      b.packets = a.packets;
      b.bank.restore(rows, [](std::uint32_t, std::uint32_t, std::uint64_t id) {
        return static_cast<std::uint32_t>(id);
      });
    }
    if (t == 5) {
      for (int k = 3; k < 7; ++k) {
        a.bank.deposit(0, kXMinus, flit(k), t);
        b.bank.deposit(0, kXMinus, flit(k), t);
      }
    }
    const int n = a.step(t).count();
    moved += n;
    if (t >= 4) {
      ASSERT_EQ(b.step(t).count(), n) << t;
    }
    for (int k = 0; k < n; ++k) {  // downstream passes each flit on at once
      a.bank.return_credit(o, t);
      if (t >= 4) b.bank.return_credit(o, t);
    }
    const bool owned = t < 8;  // the tail moves at 8
    EXPECT_EQ(a.bank.core().outputs.owner(o) != OutputUnit::kFree, owned) << t;
    if (!owned) continue;
    EXPECT_EQ(a.bank.core().owner_packet(o), slot) << t;
    EXPECT_EQ(streams(a), streaming) << t;
    if (t >= 4) {
      EXPECT_EQ(b.bank.core().owner_packet(o), slot) << t;
      EXPECT_EQ(streams(b), streaming) << t;
    }
  }
  EXPECT_EQ(moved, 7);
}

// The VC allocator's round-robin pointers are saved and restored with the bank: output VC X+
// that last granted input VC 1 (port X-) grants input VC 3 (port Y-) first when both ask at
// once, where a pointer that knows no grant (63) would grant X- first. The bank restored from
// the rows grants in the order of the bank that was never saved.
TEST(RouterBank, ARestoredBankKeepsTheVcAllocatorsRoundRobin) {
  constexpr int kYMinus = 3;
  const RouterParams p = ideal(4);
  OneRouter a("mesh:2x2", "xy", p);
  OneRouter b("mesh:2x2", "xy", p);
  const auto head = [](OneRouter& r, int in_port, std::uint64_t id, Cycle t) {
    Packet pk;
    pk.id = id;
    pk.dest = 1;  // through X+
    pk.length = 1;
    r.bank.deposit(0, in_port, Flit(r.packets.allocate(pk), true, true), t);
  };
  // One packet from X- through X+: X+'s VC grants input VC 1.
  head(a, kXMinus, 1, 0);
  int moved = 0;
  Cycle t = 0;
  for (; t < 3; ++t) moved += a.step(t).count();
  ASSERT_EQ(moved, 1);
  RouterRows rows;
  a.bank.save(rows, t, [](std::uint32_t slot) { return std::uint64_t{slot}; });
  b.packets = a.packets;
  b.bank.restore(rows, [](std::uint32_t, std::uint32_t, std::uint64_t id) {
    return static_cast<std::uint32_t>(id);
  });
  // X- and Y- ask for X+'s only VC in the same cycle, in both banks.
  for (OneRouter* r : {&a, &b}) {
    head(*r, kXMinus, 2, t);
    head(*r, kYMinus, 3, t);
  }
  std::vector<int> order_a;
  std::vector<int> order_b;
  for (Cycle u = t; u < t + 6; ++u) {
    for (const Move& m : a.step(u).moves) order_a.push_back(m.in_port);
    for (const Move& m : b.step(u).moves) order_b.push_back(m.in_port);
  }
  EXPECT_EQ(order_a, (std::vector<int>{kYMinus, kXMinus}));
  EXPECT_EQ(order_b, order_a);
}

}  // namespace
}  // namespace wormnet
