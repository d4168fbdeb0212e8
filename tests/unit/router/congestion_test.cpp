// Where packets wait (CongestionCounters, `--congestion totals`): hand-worked waits on one
// router for a VC, for credits and for the switch; then every count of a whole congested
// network against a brute-force sum of each VC's state at the end of every cycle, across a
// save and restore of the bank.
#include "wormnet/router/congestion_counters.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

#include "../../support/one_router.hpp"
#include "wormnet/router/router_bank.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

using test::counting;
using test::kTerminal;
using test::kXMinus;
using test::kXPlus;
using test::OneRouter;

constexpr std::uint32_t kNode1 = 1;  // X+ of node 0: where the hand-worked packets go

// Two 2-flit packets for X+ (one VC, 2-flit buffers, every delay 0). P2 at input X- (VC 1 of
// the router) and P1 at the terminal (VC 4) ask for X+'s VC at cycle 0: the round robin starts
// after 63, so input VC 1 wins; P2's head moves at 0, its tail at 1 (taking both credits)
// and frees the VC; P1, refused at 0 and parked at 1, is granted at 2 without a credit. A
// credit comes back at 5 (P1's head moves) and one at 7 (its tail). By hand:
//   P1: vc_wait 2 (cycles 0, 1); credit_wait 4 (2, 3, 4 and 6: after its head took the
//       credit of 5); switch_wait 0; occupancy: 2 flits at the end of cycles 0..4, 1 at the
//       end of 5 and 6, 0 from 7: 2 x 5 + 1 + 1 = 12 flit-cycles.
//   P2: no wait; occupancy 1 (its tail, at the end of cycle 0).
//   X+ VC 0 sent 4 flits.
// With the window [1, 6) instead: P1 vc_wait 1 (cycle 1), credit_wait 3 (2, 3, 4),
// occupancy 2 + 2 + 2 + 2 + 1 = 9 (cycles 1..5), P2 0; X+ sent 2 (P2's tail at 1, P1's head
// at 5). Closed at cycle 4 (inside that window): vc_wait 1, credit_wait 2 (2, 3),
// occupancy 6, X+ 1.
TEST(Congestion, WaitsForAVcAndForCreditsByHand) {
  struct Expect {
    Cycle begin, end, close;
    std::uint64_t vc_wait, credit_wait, occ1, occ2, flits;
  };
  for (const Expect& e : {Expect{0, 1000, 10, 2, 4, 12, 1, 4}, Expect{1, 6, 10, 1, 3, 9, 0, 2},
                          Expect{1, 6, 4, 1, 2, 6, 0, 1}}) {
    OneRouter r(counting(1, 2, e.begin, e.end));
    r.packet(kTerminal, 1, 2, kNode1, 0);
    r.packet(kXMinus, 2, 2, kNode1, 0);
    const std::uint32_t o = r.bank.output_vc(0, kXPlus);
    const std::vector<int> moves = {1, 1, 0, 0, 0, 1, 0, 1, 0, 0};
    for (Cycle t = 0; t < e.close; ++t) {
      if (t == 5 || t == 7) r.bank.return_credit(o, t);
      EXPECT_EQ(r.step(t), moves[t]) << "cycle " << t;
    }
    const VcCongestion p1 = r.bank.congestion(0, kTerminal, e.close);
    const VcCongestion p2 = r.bank.congestion(0, kXMinus, e.close);
    SCOPED_TRACE(testing::Message()
                 << "window [" << e.begin << ", " << e.end << ") closed at " << e.close);
    EXPECT_EQ(p1.vc_wait, e.vc_wait);
    EXPECT_EQ(p1.credit_wait, e.credit_wait);
    EXPECT_EQ(p1.switch_wait, 0U);
    EXPECT_EQ(p1.occupancy, e.occ1);
    EXPECT_EQ(p2.vc_wait + p2.credit_wait + p2.switch_wait, 0U);
    EXPECT_EQ(p2.occupancy, e.occ2);
    EXPECT_EQ(r.bank.congestion_flits(0, kXPlus), e.flits);
  }
}

// Two 2-flit packets for X+ on 2 VCs (4-flit buffers, no credit runs out), P1 at input X- VC 0
// (router VC 2), P2 at the terminal's VC 0 (router VC 8). Both pick X+ VC 0 first (priority
// selection) at cycle 0: P1 wins it, P2 is refused (vc_wait 1) and takes VC 1 at cycle 1.
// Shared bandwidth: X+ takes one input port a cycle, round robin after the last winner:
// 0: P1 head (alone); 1: P2 head (P1 loses); 2: P1 tail (P2 loses); 3: P2 tail. So P1
// switch_wait 1, P2 switch_wait 1; occupancy P1 1 + 1 = 2, P2 2 + 1 + 1 = 4. Per-VC bandwidth
// has no arbitration: 0: P1 head; 1: P1 tail and P2 head; 2: P2 tail; no switch_wait,
// occupancy P1 1, P2 2 + 1 = 3.
TEST(Congestion, WaitsForTheSwitchByHandAndNoneWithPerVcBandwidth) {
  for (const bool per_vc : {false, true}) {
    RouterParams p = counting(2, 4, 0, 1000);
    p.per_vc_bandwidth = per_vc;
    OneRouter r(p);
    r.packet(kXMinus * 2, 1, 2, kNode1, 0);
    r.packet(kTerminal * 2, 2, 2, kNode1, 0);
    for (Cycle t = 0; t < 6; ++t) r.step(t);
    const VcCongestion p1 = r.bank.congestion(0, kXMinus * 2, 6);
    const VcCongestion p2 = r.bank.congestion(0, kTerminal * 2, 6);
    SCOPED_TRACE(per_vc ? "per-vc" : "shared");
    EXPECT_EQ(p1.vc_wait, 0U);
    EXPECT_EQ(p2.vc_wait, 1U);
    EXPECT_EQ(p1.credit_wait + p2.credit_wait, 0U);
    EXPECT_EQ(p1.switch_wait, per_vc ? 0U : 1U);
    EXPECT_EQ(p2.switch_wait, per_vc ? 0U : 1U);
    EXPECT_EQ(p1.occupancy, per_vc ? 1U : 2U);
    EXPECT_EQ(p2.occupancy, per_vc ? 3U : 4U);
    EXPECT_EQ(r.bank.congestion_flits(0, kXPlus * 2), 2U);
    EXPECT_EQ(r.bank.congestion_flits(0, kXPlus * 2 + 1), 2U);
  }
}

/// Every router of `spec` in one bank, links and credits carried by hand (a flit arrives
/// `link` cycles after it crosses the switch, its credit `credit` cycles after), with the
/// moves of each cycle recorded per input VC and output VC.
struct Network {
  Network(const char* spec, const char* routing_name, const RouterParams& p, Cycle link,
          Cycle credit)
      : topo(make_topology(spec)),
        routing(make_routing(routing_name, *topo, FlowControl::kCredit)),
        bank(p, *topo, *routing, all(*topo), packets),
        sources(topo->num_nodes()),
        link_(link),
        credit_(credit) {}
  static std::vector<std::uint32_t> all(const Topology& topo) {
    std::vector<std::uint32_t> nodes(topo.num_nodes());
    for (std::uint32_t n = 0; n < nodes.size(); ++n) nodes[n] = n;
    return nodes;
  }
  void step(Cycle t) {
    const int ports = bank.params().ports;
    const int vcs = bank.params().vcs;
    moved_in.clear();
    for (auto it = credits.begin(); it != credits.end();) {
      if (it->first == t) {
        bank.return_credit(it->second, t);
        it = credits.erase(it);
      } else {
        ++it;
      }
    }
    for (auto it = flits.begin(); it != flits.end();) {
      if (it->arrival == t) {
        bank.deposit(it->router, it->local_vc, it->flit, t);
        it = flits.erase(it);
      } else {
        ++it;
      }
    }
    for (std::uint32_t r = 0; r < topo->num_nodes(); ++r) {
      bank.step(r, t, sources[r], [&](int in_port, int in_vc, int out_port, int out_vc, Flit f) {
        moved_in.push_back(bank.input_vc(r, in_port * vcs + in_vc));
        ++sent[bank.output_vc(r, out_port * vcs + out_vc)];
        if (out_port != ports) {
          const NodeId m = topo->neighbor(NodeId(r), static_cast<PortId>(out_port));
          flits.push_back(InFlight{t + link_, m.value(), (out_port ^ 1) * vcs + out_vc, f});
        }
        if (in_port != ports) {
          const NodeId u = topo->neighbor(NodeId(r), static_cast<PortId>(in_port));
          credits.emplace_back(t + credit_, bank.output_vc(u.value(), (in_port ^ 1) * vcs + in_vc));
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
  std::vector<std::uint32_t> moved_in;          ///< input VCs that moved a flit this cycle
  std::map<std::uint32_t, std::uint64_t> sent;  ///< output VC -> flits sent in the window
  Cycle link_;
  Cycle credit_;
};

// `--congestion totals` counts nothing before the window nor after it (RankModel::
// step_layer): at its first cycle RouterBank::open_congestion() sets each accumulator from
// the VCs' state, at its end close_congestion() adds the stays still open (the brute-force
// test below does both). Here,
// at `begin`, before the cycle is stepped: what counting from cycle 0 gave (this bank
// counted) is counted_from_zero(); then the accumulators are overwritten with other values,
// through a checkpoint, as if the counting before had been skipped, and opened: the brute
// force below sees no difference.
void open_at_begin(RouterBank& bank, std::uint32_t per_router) {
  const Cycle begin = bank.params().measure_begin;
  const CongestionCounters& k = bank.core().congestion;
  for (std::uint32_t i = 0; i < k.inputs(); ++i) {
    const CongestionCounters::InputVc& a = k.input(i);
    const CongestionCounters::InputVc z =
        bank.counted_from_zero(i / per_router, static_cast<int>(i % per_router), begin);
    ASSERT_EQ(a.vc_wait, z.vc_wait) << "input VC " << i;
    ASSERT_EQ(a.credit_wait, z.credit_wait) << "input VC " << i;
    ASSERT_EQ(a.held, z.held) << "input VC " << i;
    ASSERT_EQ(a.occupancy, z.occupancy) << "input VC " << i;
  }
  RouterRows rows;
  const auto id_of = [](std::uint32_t slot) { return std::uint64_t{slot}; };
  bank.save(rows, begin, id_of);
  std::uint64_t junk = 0x9E3779B97F4A7C15ULL;
  for (auto* row : {&rows.cong_vc_wait, &rows.cong_credit_wait, &rows.cong_held,
                    &rows.cong_occupancy, &rows.cong_flits}) {
    for (std::uint64_t& x : *row)
      x += (junk = junk * 6364136223846793005ULL + 1442695040888963407ULL);
  }
  bank.restore(rows, [](std::uint32_t, std::uint32_t, std::uint64_t id) {
    return static_cast<std::uint32_t>(id);
  });
  bank.open_congestion();
}

// Brute force: at the end of each cycle of the window, per input VC, from the state the
// stages left and the moves they made (routing delay >= 1, so a head that came to the front
// in this cycle is not yet routed): a waiting head routed by now was refused a VC (or
// parked: it would have been); a VC holding an output VC, past its VC allocation delay, with
// a flit, that did not move, waited for a credit when its output VC has none, else for the
// switch; occupancy adds the flits buffered. Output VCs count the moves of the window.
// Congested 3x3 meshes and 4x4 tori (2 VCs, 2-flit buffers, link and credit latencies 1..3),
// VC allocation delays 0..2, shared and per-VC bandwidth; the bank is saved and restored
// (its checkpoint form) in the middle of the window.
TEST(Congestion, EveryCountMatchesABruteForceSumOverCycles) {
  struct Case {
    const char* spec;
    const char* routing;
    int vcs;
    Cycle link, credit, va;
    bool per_vc;
  };
  for (const Case& k :
       {Case{"mesh:3x3", "xy", 2, 1, 1, 0, false}, Case{"mesh:3x3", "xy", 2, 3, 2, 2, false},
        Case{"mesh:3x3", "xy", 2, 2, 3, 1, true},
        Case{"torus:4x4", "dor-dateline", 2, 1, 2, 1, false},
        Case{"torus:4x4", "duato", 3, 2, 1, 1, false}}) {
    const Cycle begin = 40, end = 260, last = 320, restore_at = 150;
    RouterParams p = counting(k.vcs, 2, begin, end);
    p.routing_delay = 1;
    p.vc_alloc_delay = k.va;
    p.per_vc_bandwidth = k.per_vc;
    Network net(k.spec, k.routing, p, k.link, k.credit);
    p.ports = net.topo->num_ports();
    const std::uint32_t nodes = net.topo->num_nodes();
    std::uint64_t sequence = 0;
    for (std::uint32_t n = 0; n < nodes; ++n) {
      for (std::uint32_t j = 0; j < 25; ++j) {
        Message m;
        m.dest = (n + 1 + j * 5) % nodes == n ? (n + 3) % nodes : (n + 1 + j * 5) % nodes;
        m.length = static_cast<std::uint16_t>(1 + (n + j) % 7);
        m.created = j * 6;
        m.sequence = sequence++;
        net.sources[n].push(m);
      }
    }
    const std::size_t ivcs = static_cast<std::size_t>(nodes) * (p.ports + 1) * k.vcs;
    std::vector<VcCongestion> brute(ivcs);
    std::map<std::uint32_t, std::uint64_t> sent;
    const InputUnit& in = net.bank.core().inputs;
    const OutputUnit& out = net.bank.core().outputs;
    std::uint64_t waits = 0;
    // A restore after the cycle's sums: it moves a parked head's `ready` up to the next cycle.
    const auto restore = [&](Cycle t) {
      if (t != restore_at) return;
      RouterRows rows;
      net.bank.save(rows, t + 1, [](std::uint32_t slot) { return std::uint64_t{slot}; });
      net.bank.restore(rows, [](std::uint32_t, std::uint32_t, std::uint64_t id) {
        return static_cast<std::uint32_t>(id);
      });
    };
    const auto per_router = static_cast<std::uint32_t>((p.ports + 1) * k.vcs);
    for (Cycle t = 0; t < last; ++t) {
      if (t == begin) open_at_begin(net.bank, per_router);
      // Past the window: closed (the totals in the accumulators, nothing counts), through a
      // checkpoint (which holds what counting on would: counting again), closed again.
      if (t == end || t == end + 30) net.bank.close_congestion();
      if (t == end + 20) {
        RouterRows rows;
        net.bank.save(rows, t, [](std::uint32_t slot) { return std::uint64_t{slot}; });
        net.bank.restore(rows, [](std::uint32_t, std::uint32_t, std::uint64_t id) {
          return static_cast<std::uint32_t>(id);
        });
      }
      net.sent.clear();
      net.step(t);
      if (t < begin || t >= end) {
        restore(t);
        continue;
      }
      for (const auto& [o, n] : net.sent) sent[o] += n;
      std::vector<bool> moved(ivcs, false);
      for (const std::uint32_t i : net.moved_in) moved[i] = true;
      for (std::uint32_t i = 0; i < ivcs; ++i) {
        const std::uint32_t s_i = i;
        VcCongestion& b = brute[i];
        b.occupancy += in.count(s_i);
        if (in.stage(s_i) == VcStage::kWaitVc && in.ready_by(i, t)) ++b.vc_wait;
        if (in.stage(s_i) == VcStage::kActive && in.count(s_i) > 0 && in.ready_by(i, t) &&
            !moved[i]) {
          const std::uint32_t r = i / static_cast<std::uint32_t>((p.ports + 1) * k.vcs);
          const std::uint32_t o = out.index(r, in.out_port(s_i) * k.vcs + in.out_vc(s_i));
          ++(out.credits(o) == 0 ? b.credit_wait : b.switch_wait);
        }
      }
      restore(t);
    }
    SCOPED_TRACE(testing::Message()
                 << k.spec << " " << k.routing << " va " << k.va << (k.per_vc ? " per-vc" : ""));
    for (std::uint32_t i = 0; i < ivcs; ++i) {
      const VcCongestion c =
          net.bank.congestion(i / per_router, static_cast<int>(i % per_router), last);
      ASSERT_EQ(c.vc_wait, brute[i].vc_wait) << "input VC " << i;
      ASSERT_EQ(c.credit_wait, brute[i].credit_wait) << "input VC " << i;
      ASSERT_EQ(c.switch_wait, brute[i].switch_wait) << "input VC " << i;
      ASSERT_EQ(c.occupancy, brute[i].occupancy) << "input VC " << i;
      waits += c.vc_wait + c.credit_wait + c.switch_wait;
      const std::uint64_t expect = sent.count(i) != 0 ? sent.at(i) : 0;
      ASSERT_EQ(net.bank.congestion_flits(i / per_router, static_cast<int>(i % per_router)), expect)
          << "output VC " << i;
    }
    EXPECT_GT(waits, 500U);  // congested: the case tests something
  }
}

// Duato's adaptive VCs: a lone packet finds every adaptive VC free with an empty buffer
// behind it, which the routing prefers to the escape VCs, so each of its flits crosses each
// channel of its route on an adaptive VC: on torus:4x4 (escape dor-dateline-dest on VCs 0
// and 1, adaptive VC 2) a 5-flit packet from node 0 to node 10 (2 hops in X, 2 in Y) sends
// 4 x 5 flits on VC 2 and none on the escape VCs.
TEST(Congestion, ALonePacketUnderDuatoTakesOnlyAdaptiveVcs) {
  RouterParams p = counting(3, 4, 0, 1000);
  p.routing_delay = 1;
  Network net("torus:4x4", "duato", p, 1, 1);
  ASSERT_EQ(net.bank.params().escape_vcs, 0b011);
  Message m;
  m.dest = 10;
  m.length = 5;
  net.sources[0].push(m);
  for (Cycle t = 0; t < 60; ++t) net.step(t);
  std::uint64_t escape = 0;
  std::uint64_t adaptive = 0;
  for (std::uint32_t r = 0; r < 16; ++r) {
    for (int port = 0; port < 4; ++port) {
      for (int v = 0; v < 3; ++v) {
        (v == 2 ? adaptive : escape) += net.bank.congestion_flits(r, port * 3 + v);
      }
    }
  }
  EXPECT_EQ(adaptive, 20U);
  EXPECT_EQ(escape, 0U);
}

// The counted walk's shortcuts (CongestionCounters' *_now functions, at the cycle set) add
// what the general functions add for the same event at that cycle: random events at cycles
// before, inside and after the window, with routing and VC allocation delays of 0 to 3,
// through both, give the same accumulators (the general functions are the rule the
// brute-force test above checks). A credit's unblock is noted and counted after the cycle's
// credits, as the walk does after a block's.
TEST(Congestion, TheWalksShortcutsAddWhatTheGeneralFunctionsAdd) {
  std::uint64_t seed = 0x9E3779B97F4A7C15ULL;
  auto next = [&seed](std::uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % n;
  };
  for (Cycle rc = 0; rc <= 3; ++rc) {
    for (Cycle va = 0; va <= 3; ++va) {
      constexpr std::size_t kVcs = 6;
      CongestionCounters fast(kVcs, kVcs, 10, 30, rc, va);
      CongestionCounters rule(kVcs, kVcs, 10, 30, rc, va);
      // An unblocked VC's ready cycle: before, at or after the credit's.
      const auto ready_of = [](std::uint32_t i, Cycle t) { return t + i % 4 - 1 + (t == 0); };
      fast.reserve_noted(8);
      for (Cycle t = 0; t < 40; ++t) {
        fast.set_cycle(t);
        for (int e = 0; e < 8; ++e) {
          const auto i = static_cast<std::uint32_t>(next(kVcs));
          const auto o = static_cast<std::uint32_t>(next(kVcs));
          const bool a = next(2) != 0;
          const bool b = next(2) != 0;
          switch (next(4)) {
            case 0: {  // a deposit: into an idle VC, joining its packet, or behind flits
              const auto kind = next(3);
              fast.deposited_now(i, kind == 0, kind == 1, a);
              rule.deposited(i, t, kind == 2 ? 2 : 0, kind == 0, kind == 1, a, t + rc);
              break;
            }
            case 1: {  // a pop: a tail or not, flits behind or not, the credit gone or not
              const std::uint32_t left = b ? 1 + static_cast<std::uint32_t>(next(3)) : 0;
              const bool no_credit = next(2) != 0;
              fast.popped_now(i, o, !a && left != 0, no_credit);
              if (a && left != 0) fast.tail_left_now(i);
              rule.popped(i, o, t, a, left, no_credit, t + rc);
              break;
            }
            case 2:
              fast.granted_now(i, a);
              rule.granted(i, t, t + va, a);
              break;
            default:  // a credit that unblocks VC i (a) or none (i is then any number)
              fast.note_unblocked_now(a ? i : 1000 + i, a);
              if (a) rule.unblocked(i, t, ready_of(i, t));
          }
        }
        // The block's credits are in (RouterCore::count_unblocked_now()).
        fast.unblocked_noted([&](std::uint32_t i) { fast.unblocked_now(i, ready_of(i, t)); });
      }
      for (std::uint32_t i = 0; i < kVcs; ++i) {
        SCOPED_TRACE(testing::Message() << "rc " << rc << " va " << va << " vc " << i);
        EXPECT_EQ(fast.input(i).vc_wait, rule.input(i).vc_wait);
        EXPECT_EQ(fast.input(i).credit_wait, rule.input(i).credit_wait);
        EXPECT_EQ(fast.input(i).held, rule.input(i).held);
        EXPECT_EQ(fast.input(i).occupancy, rule.input(i).occupancy);
        EXPECT_EQ(fast.output(i), rule.output(i));
        EXPECT_EQ(fast.window_output(i), rule.window_output(i));
      }
    }
  }
}

}  // namespace
}  // namespace wormnet
