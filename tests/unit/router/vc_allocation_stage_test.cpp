// The VC allocation stage by itself on one router's state: the VC-choice function against
// hand-worked states (every output VC a head's route allows, in the routing's order, each
// with the VC rules' verdict: take, owned, bubble, adaptive-needs-empty; and the end of the
// walk where the visitor asks for it), then the output stage's round robin, what a grant
// writes, and the parking of a head refused for owned VCs.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "wormnet/router/vc_allocation_stage.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

// Ports of a 2-D torus: 0 = X+, 1 = X-, 2 = Y+, 3 = Y-, 4 = the terminal.
constexpr int kXPlus = 0;
constexpr int kXMinus = 1;
constexpr int kYPlus = 2;
constexpr int kTerminal = 4;

/// A routing that offers fixed steps, with VC class 0 as its escape class when `escape`:
/// the states a test needs, without a routing's geometry.
class FixedRouting final : public RoutingFunction {
 public:
  FixedRouting(std::vector<RouteOption> steps, int classes, bool escape)
      : steps_(std::move(steps)), classes_(classes), escape_(escape) {}
  [[nodiscard]] std::string name() const override { return "fixed"; }
  [[nodiscard]] int vcs_required() const override { return classes_; }
  void route(const RouteRequest&, RouteOptions& out) const override {
    for (const RouteOption& o : steps_) out.add(o.port, o.vcs, o.next_state);
  }
  [[nodiscard]] bool minimal() const override { return true; }
  [[nodiscard]] std::string description() const override { return "test"; }
  [[nodiscard]] VcMask escape_vcs() const override { return escape_ ? VcMask{1} : VcMask{0}; }

 private:
  std::vector<RouteOption> steps_;
  int classes_;
  bool escape_;
};

/// What the VC-choice function told its visitor, one entry per call.
std::vector<std::pair<std::string, bool>> choices(const RouterCore& core, int in_port,
                                                  const Packet& p, const RouteOptions& options,
                                                  int stop_after = 1000) {
  std::vector<std::pair<std::string, bool>> seen;
  VcAllocationStage::choose_vcs(core, 0, in_port, p, options, [&](const VcChoice& c) {
    static const char* const kNames[] = {"take", "owned", "bubble", "adaptive-needs-empty"};
    seen.emplace_back(std::to_string(c.option) + ":" + std::to_string(c.port) + "." +
                          std::to_string(c.vc) + " " + kNames[static_cast<int>(c.verdict)],
                      c.adaptive);
    return static_cast<int>(seen.size()) < stop_after;
  });
  return seen;
}

// Duato-like: VC 0 the escape VC, VC 1 adaptive, 4-flit buffers. The route offers X+ on
// both VCs, then Y+ on both. X+ VC 1 is owned by another packet; Y+ VC 1 is free but one
// flit of the last packet is still downstream (3 credits of 4); the rest are free and empty.
TEST(VcAllocationStage,
     TheChoiceFunctionNamesEachVcTheRouteAllowsWithItsVerdictInTheRoutingsOrder) {
  const auto topo = make_topology("torus:4x4");
  const FixedRouting routing({{kXPlus, 0b11, 0}, {kYPlus, 0b11, 0}}, 2, true);
  RouterParams params;
  params.ports = 4;
  params.vcs = 2;
  params.depth = 4;
  PacketTable packets;
  RouterCore core(params, *topo, routing, {0}, packets);
  core.outputs.set_owner(core.outputs.index(0, kXPlus * 2 + 1), 3);
  core.outputs.take_credit(core.outputs.index(0, kYPlus * 2 + 1));
  Packet p;
  p.dest = 5;
  p.length = 2;
  RouteOptions options;
  routing.route(RouteRequest{}, options);
  const std::vector<std::pair<std::string, bool>> expected{{"0:0.0 take", false},
                                                           {"0:0.1 owned", true},
                                                           {"1:2.0 take", false},
                                                           {"1:2.1 adaptive-needs-empty", true}};
  EXPECT_EQ(choices(core, kTerminal, p, options), expected);
  // The visitor ends the walk: stopped after the first, it hears of nothing more.
  EXPECT_EQ(choices(core, kTerminal, p, options, 1),
            (std::vector<std::pair<std::string, bool>>{{"0:0.0 take", false}}));
}

// Bubble flow control (one VC, 8-flit buffers, 4-flit packets, 4-flit longest): from the
// terminal a hop enters the X ring and needs 4 + 4 free slots; from X- it goes straight on
// and needs 4. With 7 free the first is refused for the bubble, the second taken.
TEST(VcAllocationStage, TheChoiceFunctionRefusesAFreeVcWithoutRoomForTheBubble) {
  const auto topo = make_topology("torus:4x4");
  const FixedRouting routing({{kXPlus, 0b1, 0}}, 1, false);
  RouterParams params;
  params.ports = 4;
  params.vcs = 1;
  params.depth = 8;
  params.bubble = true;
  params.max_length = 4;
  PacketTable packets;
  RouterCore core(params, *topo, routing, {0}, packets);
  core.outputs.take_credit(core.outputs.index(0, kXPlus));
  Packet p;
  p.dest = 1;
  p.length = 4;
  RouteOptions options;
  routing.route(RouteRequest{}, options);
  EXPECT_EQ(choices(core, kTerminal, p, options),
            (std::vector<std::pair<std::string, bool>>{{"0:0.0 bubble", false}}));
  EXPECT_EQ(choices(core, kXMinus, p, options),
            (std::vector<std::pair<std::string, bool>>{{"0:0.0 take", false}}));
}

/// Writes a one-flit packet (id `id`, to `dest`) into input VC `lv` of core's router 0 at t.
std::uint32_t head_at(RouterCore& core, int lv, std::uint32_t dest, std::uint64_t id, Cycle t) {
  Packet p;
  p.id = id;
  p.dest = dest;
  p.length = 1;
  const std::uint32_t slot = core.packets.allocate(p);
  core.deposit(0, lv, Flit(slot, true, true), t);
  return slot;
}

// Node 4, the centre of mesh:3x3 under xy (1 VC, no delays but a VC allocation delay of 2):
// heads at X- (input VC 1), Y- (3) and the terminal (4), all for node 5 across X+ (output
// VC 0). The output VC grants round robin after the last input VC it granted (none yet:
// the lowest, X-). The grant holds it for X-'s packet, sets the packet's hops and the VC's
// stage, output and ready cycle (2 later), and, with a delay over 1, returns the VC and marks
// it settling. The losers asked and lost: they ask again, and, refused for the owned VC
// alone, park; a tail freeing it unparks them, and Y- (next after X-) wins.
TEST(VcAllocationStage, GrantsRoundRobinAndParksTheHeadsRefusedForOwnedVcs) {
  const auto topo = make_topology("mesh:3x3");
  const auto routing = make_routing("xy", *topo);
  RouterParams params;
  params.ports = 4;
  params.vcs = 1;
  params.depth = 4;
  params.vc_alloc_delay = 2;
  PacketTable packets;
  RouterCore core(params, *topo, *routing, {4}, packets);
  const std::uint32_t x = head_at(core, kXMinus, 5, 100, 0);
  head_at(core, 3, 5, 101, 0);
  head_at(core, kTerminal, 5, 102, 0);
  const std::uint64_t granted = VcAllocationStage::step(core, 0, 0);
  EXPECT_EQ(granted, std::uint64_t{1} << kXMinus);
  const std::uint32_t o = core.outputs.index(0, kXPlus);
  EXPECT_EQ(core.outputs.owner(o), kXMinus);
  EXPECT_EQ(core.owner_packet(o), x);
  EXPECT_EQ(core.outputs.last_grant(o), kXMinus);
  const std::uint32_t s_i = core.inputs.index(0, kXMinus);
  EXPECT_EQ(core.inputs.stage(s_i), VcStage::kActive);
  EXPECT_EQ(core.inputs.out_port(s_i), kXPlus);
  EXPECT_EQ(core.inputs.out_vc(s_i), 0);
  // The grant marks the stamp; switch-ready 2 cycles (the VC allocation delay) after it.
  const std::uint32_t xi = core.inputs.index(0, kXMinus);
  EXPECT_EQ(core.inputs.stamp(xi), 0U);
  EXPECT_EQ(core.inputs.past(s_i), 0);
  EXPECT_FALSE(core.inputs.ready_by(xi, 1));
  EXPECT_TRUE(core.inputs.ready_by(xi, 2));
  EXPECT_EQ(core.inputs.ready_near(xi, 1), 2U);
  EXPECT_EQ(core.inputs.settling(0), std::uint64_t{1} << kXMinus);
  EXPECT_EQ(packets[x].hops, 1);
  const std::uint64_t losers = (std::uint64_t{1} << 3) | (std::uint64_t{1} << kTerminal);
  EXPECT_EQ(core.inputs.waiting(0), losers);
  EXPECT_EQ(core.inputs.parked(0), 0U);  // they lost the arbitration, not to an owner
  EXPECT_EQ(VcAllocationStage::step(core, 0, 1), 0U);
  EXPECT_EQ(core.inputs.parked(0), losers);
  EXPECT_EQ(core.inputs.requesting(0), 0U);
  core.release_output(0, o);
  EXPECT_EQ(core.inputs.parked(0), 0U);
  EXPECT_EQ(VcAllocationStage::step(core, 0, 6), std::uint64_t{1} << 3);
  EXPECT_EQ(core.outputs.owner(o), 3);
  EXPECT_EQ(core.inputs.waiting(0), std::uint64_t{1} << kTerminal);
}

}  // namespace
}  // namespace wormnet
