// The VC-choice function against hand-worked router states: every output VC a head's route
// allows, in the routing's order, each with the VC rules' verdict (take, owned, bubble,
// adaptive-needs-empty), and the end of the walk where the visitor asks for it.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "wormnet/router/router_bank.hpp"
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
std::vector<std::pair<std::string, bool>> choices(const RouterBank& bank, int in_port,
                                                  const Packet& p, const RouteOptions& options,
                                                  int stop_after = 1000) {
  std::vector<std::pair<std::string, bool>> seen;
  bank.choose_vcs(0, in_port, p, options, [&](const VcChoice& c) {
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
TEST(VcChoice, NamesEachVcTheRouteAllowsWithItsVerdictInTheRoutingsOrder) {
  const auto topo = make_topology("torus:4x4");
  const FixedRouting routing({{kXPlus, 0b11, 0}, {kYPlus, 0b11, 0}}, 2, true);
  RouterParams params;
  params.ports = 4;
  params.vcs = 2;
  params.depth = 4;
  PacketTable packets;
  RouterBank bank(params, *topo, routing, {0}, packets);
  bank.outputs().set_owner(bank.outputs().index(0, kXPlus * 2 + 1), 3);
  bank.outputs().take_credit(bank.outputs().index(0, kYPlus * 2 + 1));
  Packet p;
  p.dest = 5;
  p.length = 2;
  RouteOptions options;
  routing.route(RouteRequest{}, options);
  const std::vector<std::pair<std::string, bool>> expected{{"0:0.0 take", false},
                                                           {"0:0.1 owned", true},
                                                           {"1:2.0 take", false},
                                                           {"1:2.1 adaptive-needs-empty", true}};
  EXPECT_EQ(choices(bank, kTerminal, p, options), expected);
  // The visitor ends the walk: stopped after the first, it hears of nothing more.
  EXPECT_EQ(choices(bank, kTerminal, p, options, 1),
            (std::vector<std::pair<std::string, bool>>{{"0:0.0 take", false}}));
}

// Bubble flow control (one VC, 8-flit buffers, 4-flit packets, 4-flit longest): from the
// terminal a hop enters the X ring and needs 4 + 4 free slots; from X- it goes straight on
// and needs 4. With 7 free the first is refused for the bubble, the second taken.
TEST(VcChoice, BubbleFlowControlRefusesAFreeVcWithoutRoomForTheBubble) {
  const auto topo = make_topology("torus:4x4");
  const FixedRouting routing({{kXPlus, 0b1, 0}}, 1, false);
  RouterParams params;
  params.ports = 4;
  params.vcs = 1;
  params.depth = 8;
  params.bubble = true;
  params.max_length = 4;
  PacketTable packets;
  RouterBank bank(params, *topo, routing, {0}, packets);
  bank.outputs().take_credit(bank.outputs().index(0, kXPlus));
  Packet p;
  p.dest = 1;
  p.length = 4;
  RouteOptions options;
  routing.route(RouteRequest{}, options);
  EXPECT_EQ(choices(bank, kTerminal, p, options),
            (std::vector<std::pair<std::string, bool>>{{"0:0.0 bubble", false}}));
  EXPECT_EQ(choices(bank, kXMinus, p, options),
            (std::vector<std::pair<std::string, bool>>{{"0:0.0 take", false}}));
}

}  // namespace
}  // namespace wormnet
