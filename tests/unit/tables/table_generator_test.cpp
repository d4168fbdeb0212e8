#include "wormnet/tables/table_generator.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "wormnet/routing/table_routing.hpp"
#include "wormnet/tables/bfs_generator.hpp"
#include "wormnet/tables/route_search.hpp"
#include "wormnet/tables/routing_graph.hpp"
#include "wormnet/tables/table_check.hpp"
#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::tables {
namespace {

const std::vector<std::vector<int>> kTori{{5}, {4, 4}, {3, 2}, {4, 2, 3}, {2, 3, 2, 2}, {3, 3, 2}};

GeneratedTable make(const Torus& t, TableAlgorithm a, std::uint64_t seed = 1) {
  GeneratorOptions o;
  o.algorithm = a;
  o.seed = seed;
  o.genetic.max_generations = 40;
  return generate_table(t, o, Communicator::self());
}

// Ring of 5 from node 0: farthest are 2 and 3 (distance 2), the lower id wins: 2. From 2,
// the farthest left is 4 (distance 2); from 4, node 1 (distance 2); then 3.
TEST(MaxRemoteOrder, HandWorkedRing) {
  const Torus t({5}, true);
  const auto order = max_remote_order(t);
  const std::vector<std::uint32_t> expected{0, 2, 4, 1, 3};
  ASSERT_EQ(order.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(order[i].value(), expected[i]);
}

TEST(MaxRemoteOrder, VisitsEveryNodeOnce) {
  const Torus t({4, 3, 2}, true);
  auto order = max_remote_order(t);
  std::vector<std::uint32_t> ids;
  for (NodeId u : order) ids.push_back(u.value());
  std::sort(ids.begin(), ids.end());
  std::vector<std::uint32_t> all(t.num_nodes());
  std::iota(all.begin(), all.end(), 0U);
  EXPECT_EQ(ids, all);
}

// Every generator's table is proven by the table check, and the check agrees with the
// generic verifier run on the table as a routing function (routing-state graphs per pair).
TEST(TableGenerators, TablesAreProvenAndTheCheckAgreesWithTheVerifier) {
  for (const auto& sizes : kTori) {
    const Torus t(sizes, true);
    for (TableAlgorithm a :
         {TableAlgorithm::kBfs, TableAlgorithm::kGenetic, TableAlgorithm::kSssp}) {
      const GeneratedTable g = make(t, a);
      const TableReport r = check_table(*g.table, g.turns, Communicator::self());
      ASSERT_TRUE(r.verdict.ok()) << t.spec() << " " << enum_name(a) << ": " << r.verdict.defect
                                  << r.verdict.cycle;
      const TableRouting routing(g.table);
      const RoutingAnalysis v = analyze_routing(t, routing);
      EXPECT_TRUE(v.delivery.ok) << v.delivery.defect;
      EXPECT_TRUE(v.delivery.all_minimal);
      EXPECT_TRUE(v.cdg.shortest_cycle().empty());
      EXPECT_TRUE(v.cdg.cycle_through_turn().empty());
      EXPECT_EQ(v.cdg.num_edges(), r.verdict.cdg_edges);
      EXPECT_EQ(v.cdg.num_set_aside(), r.verdict.ring_dependencies);
      EXPECT_DOUBLE_EQ(v.loads.pi, r.metrics.pi);
      EXPECT_DOUBLE_EQ(v.loads.min_load, r.metrics.min_load);
      EXPECT_NEAR(v.loads.sigma4, r.metrics.sigma4, 1e-9);
      EXPECT_NEAR(v.loads.perfect_load, r.metrics.perfect_load, 1e-9);
      EXPECT_EQ(v.delivery.max_path, r.metrics.max_route_length);
      for (std::uint32_t c = 0; c < t.num_channels(); ++c) {
        ASSERT_DOUBLE_EQ(v.loads.gamma[c], static_cast<double>(r.loads[c]));
      }
    }
  }
}

// The paper (Table II): on 2 and 4 nodes every algorithm gives an optimal table, max gamma =
// min gamma and sigma(4, R) = 0. So it is here on torus:2 and on the ring torus:4 (2 of the 4
// tie pairs must go +, 2 go -: every channel then carries 2 routes).
TEST(TableGenerators, TwoNodesAndARingOfFourAreOptimal) {
  for (const auto& sizes : std::vector<std::vector<int>>{{2}, {4}}) {
    const Torus t(sizes, true);
    for (TableAlgorithm a :
         {TableAlgorithm::kBfs, TableAlgorithm::kGenetic, TableAlgorithm::kSssp}) {
      const GeneratedTable g = make(t, a);
      const TableReport r = check_table(*g.table, g.turns, Communicator::self());
      EXPECT_EQ(r.metrics.pi, r.metrics.min_load) << t.spec() << " " << enum_name(a);
      EXPECT_NEAR(r.metrics.sigma4, 0.0, 1e-12) << t.spec() << " " << enum_name(a);
    }
  }
}

// torus:2x2 is a 2x2 mesh (one link per size-2 dimension), 16 route hops on 8 channels, yet
// no Angara table balances it (worked by hand): (1,0)->(0,1) can only go +Y -X and
// (0,1)->(1,0) only +X -Y (a - step before a + step needs a turn no FS/LS step gives), so the
// channels +Y at (1,0) and +X at (0,1) carry 2 routes each before the diagonal (0,0)->(1,1),
// whose two routes (+X +Y, or FS +Y then +X) each use one of them: pi >= 3. All three
// generators reach pi = 3.
TEST(TableGenerators, TwoByTwoMeshCannotBeBalanced) {
  const Torus t({2, 2}, true);
  for (TableAlgorithm a : {TableAlgorithm::kBfs, TableAlgorithm::kGenetic, TableAlgorithm::kSssp}) {
    const GeneratedTable g = make(t, a);
    const TableReport r = check_table(*g.table, g.turns, Communicator::self());
    EXPECT_EQ(r.metrics.pi, 3.0) << enum_name(a);
    EXPECT_NEAR(r.metrics.perfect_load, 2.0, 1e-12);
  }
}

// The genetic algorithm keeps channel loads incrementally (crossover and mutation deltas);
// its final fitness must be the sigma(4, R) of the table recomputed from scratch. Same seed,
// same table; the result is the best of its population.
TEST(TableGenerators, GeneticIsReproducibleAndItsLoadsAreExact) {
  const Torus t({4, 2, 3}, true);
  const GeneratedTable a = make(t, TableAlgorithm::kGenetic, 7);
  const GeneratedTable b = make(t, TableAlgorithm::kGenetic, 7);
  const GeneratedTable c = make(t, TableAlgorithm::kGenetic, 8);
  EXPECT_TRUE(
      std::equal(a.table->words().begin(), a.table->words().end(), b.table->words().begin()));
  EXPECT_FALSE(
      std::equal(a.table->words().begin(), a.table->words().end(), c.table->words().begin()));
  const TableReport r = check_table(*a.table, a.turns, Communicator::self());
  EXPECT_NEAR(a.stats.final_sigma4, r.metrics.sigma4, 1e-9);
  EXPECT_LE(a.stats.final_sigma4, a.stats.initial_sigma4);
  EXPECT_GT(a.stats.generations, 0);
}

// The paper's SSSP stage 2, written literally: for each (turns, length) group and source,
// BUILD_SSSP over all destinations left, apply the routes that share no link with a route
// applied before in the round, add them to the weights, repeat. The generator answers the
// later calls from the first call's route lists; the tables must be identical.
RouteTable literal_sssp(const Torus& t, const TurnSet& turns) {
  const RoutingGraph g(t, turns);
  RouteSearch search(g);
  const std::uint32_t n = t.num_nodes();
  RouteTable table(t);
  std::vector<std::uint64_t> w(t.num_channels(), 0);
  auto add = [&](NodeId s, NodeId d, RouteWord word) {
    const ExpandedRoute p = expand_route(t, s, d, word);
    for_each_channel(t, s, p, [&](ChannelId c) { ++w[c.value()]; });
  };
  std::vector<std::uint32_t> counts(n);
  std::vector<RouteWord> unique(n);
  struct Pair {
    int turns, length;
    std::uint32_t s, d;
  };
  std::vector<Pair> rest;
  for (std::uint32_t s = 0; s < n; ++s) {
    search.count_routes(NodeId(s), counts, unique);
    for (std::uint32_t d = 0; d < n; ++d) {
      if (d == s) continue;
      if (counts[d] == 1) {
        table.set(NodeId(s), NodeId(d), unique[d]);
        add(NodeId(s), NodeId(d), unique[d]);
      } else {
        rest.push_back(
            {search.turns(NodeId(s), NodeId(d)), t.distance(NodeId(s), NodeId(d)), s, d});
      }
    }
  }
  std::stable_sort(rest.begin(), rest.end(), [](const Pair& a, const Pair& b) {
    return a.turns != b.turns ? a.turns < b.turns : a.length < b.length;
  });
  const std::uint64_t base = static_cast<std::uint64_t>(n) * n;
  for (std::size_t i = 0; i < rest.size();) {
    std::size_t j = i;
    while (j < rest.size() && rest[j].turns == rest[i].turns && rest[j].length == rest[i].length &&
           rest[j].s == rest[i].s) {
      ++j;
    }
    const NodeId s(rest[i].s);
    std::vector<NodeId> dests;
    for (std::size_t k = i; k < j; ++k) dests.push_back(NodeId(rest[k].d));
    while (!dests.empty()) {
      std::vector<RouteWord> routes(dests.size());
      std::vector<std::uint16_t> ports(dests.size());
      search.build_sssp(s, dests, w, base, routes, ports);
      std::vector<bool> used(t.num_channels(), false);
      std::vector<NodeId> left;
      std::vector<std::size_t> applied;
      for (std::size_t k = 0; k < dests.size(); ++k) {
        const ExpandedRoute p = expand_route(t, s, dests[k], routes[k]);
        bool crosses = false;
        for_each_channel(t, s, p, [&](ChannelId c) { crosses = crosses || used[c.value()]; });
        if (crosses) {
          left.push_back(dests[k]);
          continue;
        }
        for_each_channel(t, s, p, [&](ChannelId c) { used[c.value()] = true; });
        applied.push_back(k);
      }
      for (std::size_t k : applied) {
        table.set(s, dests[k], routes[k]);
        add(s, dests[k], routes[k]);
      }
      dests = left;
    }
    i = j;
  }
  return table;
}

TEST(TableGenerators, SsspEqualsTheLiteralLoop) {
  for (const auto& sizes : std::vector<std::vector<int>>{
           {4, 4}, {3, 2}, {4, 2, 3}, {2, 3, 2, 2}, {4, 4, 2}, {6, 4}, {2, 4, 2, 3}}) {
    const Torus t(sizes, true);
    const GeneratedTable g = make(t, TableAlgorithm::kSssp);
    const RouteTable literal = literal_sssp(t, g.turns);
    for (std::size_t i = 0; i < literal.words().size(); ++i) {
      ASSERT_EQ(g.table->words()[i], literal.words()[i]) << t.spec() << " pair " << i;
    }
  }
}

// On rings only, every pair's routes differ only where a dimension offset is exactly half
// the ring: torus:3x5x3 (odd sizes) has one route per pair, so all three tables coincide.
TEST(TableGenerators, OddRingsLeaveNoChoice) {
  const Torus t({3, 5, 3}, true);
  const GeneratedTable b = make(t, TableAlgorithm::kBfs);
  const GeneratedTable s = make(t, TableAlgorithm::kSssp);
  EXPECT_EQ(s.stats.unique_pairs, static_cast<std::uint64_t>(t.num_nodes()) * (t.num_nodes() - 1));
  EXPECT_TRUE(
      std::equal(b.table->words().begin(), b.table->words().end(), s.table->words().begin()));
}

}  // namespace
}  // namespace wormnet::tables
