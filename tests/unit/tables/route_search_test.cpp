#include "wormnet/tables/route_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "wormnet/core/rng.hpp"
#include "wormnet/tables/cdg_augmentation.hpp"

#include "minimal_walks.hpp"

namespace wormnet::tables {
namespace {

using test_support::minimal_walks;
using test_support::Walk;

// Independent statement of the Angara rules with added turns: a minimal walk is a route
// when it follows the direction order, except that a first + step may be followed by an
// earlier + direction and a last - step may follow a later - direction, each only where the
// turn set allows that turn (at the node where the turn happens).
bool angara_route(const Torus& t, const TurnSet& turns, NodeId s, const Walk& w) {
  const int n = t.num_dims();
  std::vector<Direction> dir;
  std::vector<NodeId> at{s};
  for (char c : w) {
    dir.push_back(direction_of(static_cast<PortId>(c), n));
    at.push_back(t.neighbor(at.back(), static_cast<PortId>(c)));
  }
  std::size_t first = 0;
  std::size_t last = dir.size();
  if (dir.size() >= 2 && is_plus(dir[0], n) && dir[1] < dir[0]) {
    if (((turns.at(at[1], dir[0]) >> dir[1]) & 1U) == 0) return false;
    first = 1;
  }
  const std::size_t m = dir.size();
  if (m >= 2 && !is_plus(dir[m - 1], n) && dir[m - 2] > dir[m - 1]) {
    if (((turns.at(at[m - 1], dir[m - 2]) >> dir[m - 1]) & 1U) == 0) return false;
    last = m - 1;
  }
  for (std::size_t i = first + 1; i < last; ++i) {
    if (dir[i] < dir[i - 1]) return false;
  }
  return true;
}

std::set<Walk> expected_routes(const Torus& t, const TurnSet& turns, NodeId s, NodeId d) {
  std::vector<Walk> walks;
  Walk w;
  minimal_walks(t, s, d, w, walks);
  std::set<Walk> out;
  for (const auto& x : walks) {
    if (angara_route(t, turns, s, x)) out.insert(x);
  }
  return out;
}

Walk walk_of(const Torus& t, NodeId s, NodeId d, RouteWord word) {
  const ExpandedRoute plan = expand_route(t, s, d, word);
  EXPECT_TRUE(plan.ok) << plan.defect;
  Walk w;
  plan.for_each_port([&](PortId p) { w.push_back(static_cast<char>(p)); });
  return w;
}

std::uint64_t walk_weight(const Torus& t, NodeId s, const Walk& w,
                          const std::vector<std::uint64_t>& weights) {
  std::uint64_t sum = 0;
  NodeId at = s;
  for (char c : w) {
    sum += weights[t.channel(at, static_cast<PortId>(c)).value()];
    at = t.neighbor(at, static_cast<PortId>(c));
  }
  return sum;
}

const std::vector<std::vector<int>> kTori{{6},       {2},       {4, 4},       {3, 2},
                                          {2, 5, 2}, {4, 2, 3}, {2, 2, 2, 3}, {3, 4, 2, 2}};

// Route counts and the enumerated routes are exactly the minimal walks that obey the rules
// (with the augmentation's turns), one per route; unique routes are reported as such.
TEST(RouteSearch, CountsAndEnumerationMatchTheRules) {
  for (const auto& sizes : kTori) {
    const Torus t(sizes, true);
    const CdgAugmentation aug(t);
    const RoutingGraph g(t, aug.turns());
    RouteSearch search(g);
    std::vector<std::uint32_t> counts(t.num_nodes());
    std::vector<RouteWord> unique(t.num_nodes());
    std::vector<RouteWord> words;
    for (std::uint32_t s = 0; s < t.num_nodes(); ++s) {
      search.count_routes(NodeId(s), counts, unique);
      for (std::uint32_t d = 0; d < t.num_nodes(); ++d) {
        if (d == s) continue;
        const auto expected = expected_routes(t, aug.turns(), NodeId(s), NodeId(d));
        ASSERT_EQ(counts[d], expected.size()) << t.spec() << " " << s << "->" << d;
        search.enumerate_routes(NodeId(s), NodeId(d), 1000, words);
        std::set<Walk> got;
        for (RouteWord w : words) got.insert(walk_of(t, NodeId(s), NodeId(d), w));
        ASSERT_EQ(words.size(), expected.size());
        ASSERT_EQ(got, expected) << t.spec() << " " << s << "->" << d;
        if (counts[d] == 1) {
          EXPECT_EQ(walk_of(t, NodeId(s), NodeId(d), unique[d]), *expected.begin());
        } else {
          EXPECT_EQ(unique[d], kNoRoute);
        }
      }
    }
  }
}

// Some size-2 tori do get added turns, so the test above covers FS and LS routes.
TEST(RouteSearch, StudyShapesHaveFirstAndLastStepRoutes) {
  const Torus t({3, 2}, true);
  const CdgAugmentation aug(t);
  const RoutingGraph g(t, aug.turns());
  RouteSearch search(g);
  std::vector<RouteWord> words;
  std::vector<std::uint32_t> counts(t.num_nodes());
  std::vector<RouteWord> unique(t.num_nodes());
  // (0,0) -> (1,1): +X +Y (direction order) and +Y +X (FS +Y, then the added turn to +X).
  search.count_routes(NodeId(0), counts, unique);
  const NodeId d = t.node_at(Coord{{1, 1}, 2});
  EXPECT_EQ(counts[d.value()], 2U);
  search.enumerate_routes(NodeId(0), d, 10, words);
  std::set<Walk> got;
  for (RouteWord w : words) got.insert(walk_of(t, NodeId(0), d, w));
  EXPECT_EQ(got, (std::set<Walk>{Walk{0, 2}, Walk{2, 0}}));
}

// Hand-worked BFS on torus:4x4 from (0,0) to (2,0), where +X+X and -X-X are both minimal.
// With all weights 0, U_begin queues {+X} first (rule order) and (2,0) is reached through
// (1,0). With weight 1 on the link (0,0)->(1,0), U_begin queues {+X} last, so (3,0){-X} is
// expanded first and (2,0) is reached going -X.
TEST(RouteSearch, BfsQueuesChildrenByAscendingLinkWeight) {
  const Torus t({4, 4}, true);
  const RoutingGraph g(t);
  RouteSearch search(g);
  std::vector<std::uint64_t> weights(t.num_channels(), 0);
  std::vector<RouteWord> row(t.num_nodes(), kNoRoute);
  const NodeId d = t.node_at(Coord{{2, 0}, 2});
  search.bfs_routes(NodeId(0), weights, row);
  EXPECT_EQ(walk_of(t, NodeId(0), d, row[d.value()]), (Walk{0, 0}));
  weights[t.channel(NodeId(0), 0).value()] = 1;
  search.bfs_routes(NodeId(0), weights, row);
  EXPECT_EQ(walk_of(t, NodeId(0), d, row[d.value()]), (Walk{1, 1}));
}

// BFS routes are valid minimal routes for every pair.
TEST(RouteSearch, BfsRoutesObeyTheRules) {
  for (const auto& sizes : kTori) {
    const Torus t(sizes, true);
    const CdgAugmentation aug(t);
    const RoutingGraph g(t, aug.turns());
    RouteSearch search(g);
    RandomStream rng(7, 1);
    std::vector<std::uint64_t> weights(t.num_channels());
    for (auto& w : weights) w = rng.uniform_int(0, 5);
    std::vector<RouteWord> row(t.num_nodes(), kNoRoute);
    for (std::uint32_t s = 0; s < t.num_nodes(); ++s) {
      search.bfs_routes(NodeId(s), weights, row);
      for (std::uint32_t d = 0; d < t.num_nodes(); ++d) {
        if (d == s) continue;
        const auto expected = expected_routes(t, aug.turns(), NodeId(s), NodeId(d));
        EXPECT_TRUE(expected.count(walk_of(t, NodeId(s), NodeId(d), row[d])) == 1);
      }
    }
  }
}

// BUILD_SSSP picks, for every destination, a route of least total link weight among all
// rule-abiding minimal routes (found by brute force).
TEST(RouteSearch, BuildSsspFindsLightestRoutes) {
  for (const auto& sizes : kTori) {
    const Torus t(sizes, true);
    const CdgAugmentation aug(t);
    const RoutingGraph g(t, aug.turns());
    RouteSearch search(g);
    RandomStream rng(11, 2);
    std::vector<std::uint64_t> weights(t.num_channels());
    const std::uint64_t base = static_cast<std::uint64_t>(t.num_nodes()) * t.num_nodes();
    for (std::uint32_t s = 0; s < t.num_nodes(); ++s) {
      for (auto& w : weights) w = rng.uniform_int(0, 9);
      for (int len = 1; len <= t.diameter(); ++len) {
        std::vector<NodeId> dests;
        for (std::uint32_t d = 0; d < t.num_nodes(); ++d) {
          if (t.distance(NodeId(s), NodeId(d)) == len) dests.push_back(NodeId(d));
        }
        if (dests.empty()) continue;
        std::vector<RouteWord> routes(dests.size());
        std::vector<std::uint16_t> first_ports(dests.size());
        search.build_sssp(NodeId(s), dests, weights, base, routes, first_ports);
        for (std::size_t i = 0; i < dests.size(); ++i) {
          const auto expected = expected_routes(t, aug.turns(), NodeId(s), dests[i]);
          std::uint64_t best = ~0ULL;
          for (const auto& w : expected)
            best = std::min(best, walk_weight(t, NodeId(s), w, weights));
          const Walk got = walk_of(t, NodeId(s), dests[i], routes[i]);
          ASSERT_EQ(expected.count(got), 1U) << t.spec();
          EXPECT_EQ(walk_weight(t, NodeId(s), got, weights), best) << t.spec();
        }
      }
    }
  }
}

}  // namespace
}  // namespace wormnet::tables
