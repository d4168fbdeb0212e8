// The switch stage by itself against a second, plain implementation of separable
// input-first allocation with round-robin arbiters, on random router states: which flits
// move, and where the arbiters' pointers are left.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

#include "wormnet/router/switch_stage.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

using Move = std::tuple<int, int, int, int>;  // in port, in VC, out port, out VC

/// The first of `candidates` (ascending) after `last`, else the first: a round-robin pick.
int after(const std::vector<int>& candidates, int last) {
  for (const int c : candidates) {
    if (c > last) return c;
  }
  return candidates.front();
}

// torus:4x4x4: 6 network ports and the terminal, so up to 7 input ports compete for up to 7
// output ports (the bank's stages run the common cases of one and two ports apart from the
// rest); 1 to 4 VCs per port; each trial a random router state: which input VCs hold an
// output VC (each output VC owned once, as wormhole switching keeps it), which hold flits,
// which output VCs have credits, and where the arbiters' pointers are.
TEST(SwitchStage, MatchesAPlainSeparableAllocatorOnRandomStates) {
  std::unique_ptr<Topology> topo = make_topology("torus:4x4x4");
  std::unique_ptr<RoutingFunction> routing = make_routing("dor", *topo, FlowControl::kCredit);
  std::mt19937 rng(20261202);
  int moves_seen[8] = {};
  for (int trial = 0; trial < 4000; ++trial) {
    RouterParams p;
    p.ports = 6;
    p.vcs = 1 + trial % 4;
    p.depth = 2;
    PacketTable packets;
    RouterCore core(p, *topo, *routing, {0}, packets);
    SwitchStage stage(1, p.ports + 1);
    InputUnit& in = core.inputs;
    OutputUnit& out = core.outputs;
    SwitchAllocator& sa = stage.allocator();
    const int ports = p.ports + 1;
    const int vcs = p.vcs;
    auto coin = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
    for (int port = 0; port < ports; ++port) {
      const auto last_vc = static_cast<std::uint8_t>(coin(20) ? 63 : rng() % vcs);
      const auto last_in = static_cast<std::uint8_t>(coin(20) ? 63 : rng() % ports);
      sa.set_last(0, port, last_vc, last_in);
    }
    std::vector<bool> owned(static_cast<std::size_t>(ports * vcs), false);
    for (int lv = 0; lv < ports * vcs; ++lv) {
      if (!coin(60)) continue;
      const auto ov = static_cast<int>(rng() % static_cast<unsigned>(ports * vcs));
      if (owned[static_cast<std::size_t>(ov)]) continue;
      owned[static_cast<std::size_t>(ov)] = true;
      const std::uint32_t i = in.index(0, lv);
      in.set_stage(0, lv, VcStage::kActive);
      in.set_out(i, ov / vcs, ov % vcs);
      out.set_owner(out.index(0, ov), static_cast<std::uint8_t>(lv));
      for (int k = static_cast<int>(rng() % 3); k > 0; --k) in.push(0, lv, Flit(0, false, false));
      if (ov / vcs != p.ports)
        out.set_credits(out.index(0, ov), static_cast<std::uint16_t>(rng() % 3));
    }
    SwitchStage::rebuild_masks(core);

    // The plain allocator, from the same state.
    auto eligible = [&](int port, int vc) {
      const std::uint32_t s_i = in.index(0, port * vcs + vc);
      return in.stage(s_i) == VcStage::kActive && in.count(s_i) > 0 &&
             (in.out_port(s_i) == p.ports ||
              out.credits(out.index(0, in.out_port(s_i) * vcs + in.out_vc(s_i))) > 0);
    };
    std::vector<int> chosen(static_cast<std::size_t>(ports), -1);
    std::vector<std::vector<int>> requesters(static_cast<std::size_t>(ports));
    for (int port = 0; port < ports; ++port) {
      std::vector<int> vcs_ready;
      for (int vc = 0; vc < vcs; ++vc) {
        if (eligible(port, vc)) vcs_ready.push_back(vc);
      }
      if (vcs_ready.empty()) continue;
      const int vc = after(vcs_ready, sa.last_vc(0, port));
      chosen[static_cast<std::size_t>(port)] = vc;
      requesters[in.out_port(in.index(0, port * vcs + vc))].push_back(port);
    }
    std::vector<Move> expected;
    std::vector<std::uint8_t> last_vc(static_cast<std::size_t>(ports));
    std::vector<std::uint8_t> last_in(static_cast<std::size_t>(ports));
    for (int port = 0; port < ports; ++port) {
      last_vc[static_cast<std::size_t>(port)] = sa.last_vc(0, port);
      last_in[static_cast<std::size_t>(port)] = sa.last_port(0, port);
    }
    for (int q = 0; q < ports; ++q) {
      const std::vector<int>& from = requesters[static_cast<std::size_t>(q)];
      if (from.empty()) continue;
      const int winner = after(from, sa.last_port(0, q));
      const int vc = chosen[static_cast<std::size_t>(winner)];
      expected.emplace_back(winner, vc, q, in.out_vc(in.index(0, winner * vcs + vc)));
      last_vc[static_cast<std::size_t>(winner)] = static_cast<std::uint8_t>(vc);
      last_in[static_cast<std::size_t>(q)] = static_cast<std::uint8_t>(winner);
    }

    std::vector<Move> moved;
    auto on_move = [&](int in_port, int in_vc, int out_port, int out_vc, Flit) {
      moved.emplace_back(in_port, in_vc, out_port, out_vc);
    };
    const std::uint64_t movable = in.active(0) & in.nonempty(0) & ~in.blocked(0);
    if (movable != 0 && in.wide())
      stage.step<false, MaskWidth::kWide>(core, 0, 10, movable, on_move);
    if (movable != 0 && !in.wide()) {
      stage.step<false, MaskWidth::kNarrow>(core, 0, 10, movable, on_move);
    }
    std::sort(moved.begin(), moved.end());
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(moved, expected) << "trial " << trial;
    for (int port = 0; port < ports; ++port) {
      ASSERT_EQ(sa.last_vc(0, port), last_vc[static_cast<std::size_t>(port)]) << "trial " << trial;
      ASSERT_EQ(sa.last_port(0, port), last_in[static_cast<std::size_t>(port)])
          << "trial " << trial;
    }
    ++moves_seen[std::min<std::size_t>(moved.size(), 7)];
  }
  // The trials reach every case of the stage: no move, one, two, and more.
  for (int n = 0; n <= 4; ++n) EXPECT_GT(moves_seen[n], 50) << n << " moves";
}

// With per-VC bandwidth every VC is a channel of its own: three VCs of one input port, each
// holding an output VC of one output port with a credit, all move in the same cycle (shared
// bandwidth would move one); a fourth without a credit does not. No arbiter is asked.
TEST(SwitchStage, PerVcBandwidthMovesEveryEligibleVc) {
  std::unique_ptr<Topology> topo = make_topology("torus:4x4x4");
  std::unique_ptr<RoutingFunction> routing = make_routing("dor", *topo, FlowControl::kCredit);
  RouterParams p;
  p.ports = 6;
  p.vcs = 4;
  p.depth = 2;
  p.per_vc_bandwidth = true;
  PacketTable packets;
  RouterCore core(p, *topo, *routing, {0}, packets);
  SwitchStage stage(1, p.ports + 1);
  InputUnit& in = core.inputs;
  for (int vc = 0; vc < 4; ++vc) {
    const int lv = 1 * p.vcs + vc;  // input port 1
    in.set_stage(0, lv, VcStage::kActive);
    in.set_out(in.index(0, lv), 0, vc);
    core.outputs.set_owner(core.outputs.index(0, vc), static_cast<std::uint8_t>(lv));
    in.push(0, lv, Flit(0, false, false));
  }
  core.outputs.set_credits(core.outputs.index(0, 3), 0);
  SwitchStage::rebuild_masks(core);
  std::vector<Move> moved;
  auto on_move = [&](int in_port, int in_vc, int out_port, int out_vc, Flit) {
    moved.emplace_back(in_port, in_vc, out_port, out_vc);
  };
  const std::uint64_t movable = in.active(0) & in.nonempty(0) & ~in.blocked(0);
  if (in.wide()) {
    stage.step<false, MaskWidth::kWide>(core, 0, 10, movable, on_move);
  } else {
    stage.step<false, MaskWidth::kNarrow>(core, 0, 10, movable, on_move);
  }
  EXPECT_EQ(moved, (std::vector<Move>{{1, 0, 0, 0}, {1, 1, 0, 1}, {1, 2, 0, 2}}));
  EXPECT_EQ(stage.allocator().last_vc(0, 1), 63);
  EXPECT_EQ(stage.allocator().last_port(0, 0), 63);
}

}  // namespace
}  // namespace wormnet
