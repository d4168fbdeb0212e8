// The reference router (router/reference/): first against hand-worked facts of
// docs/simulator.md (the zero-load latency formula, a credit round trip per flit with
// one-flit buffers), then against the engine, every flit move, credit and delivery, cycle
// for cycle, on random configurations of every option of the router
// (tests/support/reference_differential.hpp). The CI runs 300 seeds; a soak takes a seed
// range from the environment (docs/differential-testing.md):
//   WORMNET_REFERENCE_SEEDS=1000-20000 build/release/tests/wormnet_unit_tests
//   --gtest_filter='ReferenceRouterSoak.*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "../../support/reference_differential.hpp"
#include "wormnet/router/reference/reference_network.hpp"

namespace wormnet {
namespace {

using test::DifferentialCase;
using test::EventLog;
using test::RouterEvent;

/// One packet of `length` flits from `source` to `dest` on an idle network: its moves and
/// its delivery cycle, simulated by the reference router alone.
struct Lone {
  std::vector<FlitMove> moves;
  Cycle delivered = 0;
  int hops = 0;
};

class MoveList : public RouterObserver {
 public:
  explicit MoveList(std::vector<FlitMove>& out) : out_(out) {}
  void moved(const FlitMove& m) override { out_.push_back(m); }
  void credited(const CreditArrival&) override {}

 private:
  std::vector<FlitMove>& out_;
};

Lone lone_packet(const std::string& topology, const std::string& routing, const SimConfig& config,
                 std::uint32_t source, std::uint32_t dest, int length) {
  const auto topo = make_topology(topology);
  const auto route = make_routing(routing, *topo);
  const DestinationPattern pattern(*topo, config.traffic);
  reference::ReferenceParams p;
  p.vcs = route->vcs_required();
  reference::ReferenceNetwork net(config, p, *topo, *route, pattern);
  Lone lone;
  MoveList list(lone.moves);
  net.set_observer(&list);
  net.set_delivery_observer([&](const reference::PacketRecord& r, Cycle done) {
    lone.delivered = done;
    lone.hops = r.hops;
  });
  Message m;
  m.dest = dest;
  m.length = static_cast<std::uint16_t>(length);
  net.enqueue(source, m);
  for (Cycle t = 0; t < 400 && lone.delivered == 0; ++t) net.step(t);
  return lone;
}

SimConfig delays(int rc, int va, int sa, int st, int link, int credit, int buffer) {
  SimConfig c;
  c.network.routing_delay = rc;
  c.network.vc_alloc_delay = va;
  c.network.switch_alloc_delay = sa;
  c.network.switch_delay = st;
  c.network.link_latency = link;
  c.network.credit_latency = credit;
  c.network.buffer_depth = buffer;
  return c;
}

// docs/simulator.md, "Timing": a packet of F flits over H hops on an idle network, with
// buffers that cover the credit round trip, is delivered (H+1)(rc+va+sa+st) + H L + F - 1
// cycles after its creation.
TEST(ReferenceRouter, ZeroLoadLatencyIsTheFormula) {
  struct Case {
    const char* topology;
    const char* routing;
    std::uint32_t source;
    std::uint32_t dest;
  };
  for (const Case& k : {Case{"mesh:4x4", "xy", 0, 15}, Case{"torus:5x5", "dor-dateline", 0, 12},
                        Case{"honeycomb:2", "double-xy", 0, 17}, Case{"torus:6", "dor", 1, 5}}) {
    for (const auto& [rc, va, sa, st, link] :
         {std::array{1, 1, 1, 1, 1}, std::array{0, 2, 1, 0, 3}, std::array{2, 0, 0, 2, 2}}) {
      const int length = 5;
      const Lone lone = lone_packet(k.topology, k.routing, delays(rc, va, sa, st, link, 1, 16),
                                    k.source, k.dest, length);
      const int hops = make_topology(k.topology)->distance(NodeId(k.source), NodeId(k.dest));
      SCOPED_TRACE(std::string(k.topology) + " rc " + std::to_string(rc) + " va " +
                   std::to_string(va) + " sa " + std::to_string(sa) + " st " + std::to_string(st) +
                   " L " + std::to_string(link));
      EXPECT_EQ(lone.hops, hops);
      EXPECT_EQ(lone.delivered,
                static_cast<Cycle>((hops + 1) * (rc + va + sa + st) + hops * link + length - 1));
      // Every flit crosses every router on the way, the destination's switch included.
      EXPECT_EQ(lone.moves.size(), static_cast<std::size_t>((hops + 1) * length));
    }
  }
}

// docs/simulator.md: with one-flit buffers a VC moves a flit only every credit round trip,
// sa + st + L + credit latency cycles. One hop: the flits after the second leave the source's
// router that far apart (the first body flit also waits for the head's route and VC
// allocation at the destination, whose buffer it holds meanwhile).
TEST(ReferenceRouter, OneFlitBuffersMoveAFlitPerCreditRoundTrip) {
  const int sa = 1;
  const int st = 2;
  const int link = 2;
  const int credit = 3;
  const Lone lone = lone_packet("mesh:4x4", "xy", delays(1, 1, sa, st, link, credit, 1), 0, 1, 6);
  std::vector<Cycle> out_of_source;
  for (const FlitMove& m : lone.moves) {
    if (m.node == 0) out_of_source.push_back(m.cycle);
  }
  ASSERT_EQ(out_of_source.size(), 6U);
  for (std::size_t k = 2; k < out_of_source.size(); ++k) {
    EXPECT_EQ(out_of_source[k] - out_of_source[k - 1], static_cast<Cycle>(sa + st + link + credit));
  }
}

// The engine observed is the engine: its deliveries with an observer set are those without.
TEST(ReferenceRouter, ObservingTheEngineChangesNothing) {
  const DifferentialCase c = test::draw_case(7);
  const test::DifferentialNetwork n = test::build_network(c);
  std::vector<std::pair<std::uint64_t, Cycle>> runs[2];
  for (int observed = 0; observed < 2; ++observed) {
    RankModel model(c.config, n.plan, *n.topo, *n.routing, *n.pattern,
                    Partition::blocks(*n.topo, 1), 0, c.rate);
    EventLog log;
    if (observed != 0) model.set_router_observer(&log);
    model.set_delivery_observer(
        [&](const Packet& p, Cycle done) { runs[observed].emplace_back(p.id, done); });
    for (Cycle t = 0; t < c.cycles; ++t) model.step(t);
    if (observed != 0) {
      EXPECT_GT(log.count(), 0U);
    }
  }
  EXPECT_FALSE(runs[0].empty());
  EXPECT_EQ(runs[0], runs[1]);
}

void expect_agreement(std::uint64_t seed) {
  const DifferentialCase c = test::draw_case(seed);
  const test::DifferentialResult r = test::run_differential(c);
  EXPECT_FALSE(r.failure.has_value()) << *r.failure;
}

// 300 seeds in batches of 10 (one ctest test each); the failure names its seed.
class ReferenceRouterCi : public testing::TestWithParam<int> {};

TEST_P(ReferenceRouterCi, AgreesWithTheEngineMoveByMove) {
  for (int k = 0; k < 10; ++k) expect_agreement(static_cast<std::uint64_t>(GetParam() * 10 + k));
}

INSTANTIATE_TEST_SUITE_P(Seeds, ReferenceRouterCi, testing::Range(0, 30));

// On demand: WORMNET_REFERENCE_SEEDS=A-B (or one seed A) runs seeds A..B inclusive.
TEST(ReferenceRouterSoak, SeedRangeFromTheEnvironment) {
  const char* range = std::getenv("WORMNET_REFERENCE_SEEDS");
  if (range == nullptr) GTEST_SKIP() << "set WORMNET_REFERENCE_SEEDS=A-B to run seeds A..B";
  const std::string text(range);
  const std::size_t dash = text.find('-');
  const std::uint64_t first = std::stoull(text.substr(0, dash));
  const std::uint64_t last = dash == std::string::npos ? first : std::stoull(text.substr(dash + 1));
  int failures = 0;
  std::uint64_t seeds = 0;
  std::uint64_t events = 0;
  for (std::uint64_t seed = first; seed <= last && failures < 5; ++seed) {
    const test::DifferentialResult r = test::run_differential(test::draw_case(seed));
    ++seeds;
    events += r.events;
    if (r.failure.has_value()) {
      ADD_FAILURE() << *r.failure;
      ++failures;
    }
  }
  std::cout << "reference router soak: " << seeds << " seeds, " << events
            << " events of the engine compared, " << failures << " failing\n";
}

}  // namespace
}  // namespace wormnet
