// The routing registry: each entry builds what it declares, the factory refuses what it does
// not declare, and the README's routing table lists exactly the registry's entries.
#include "wormnet/routing/routing_registry.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/routing/routing_names.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

/// A small network of each kind (a 2-D mesh, so that west-first fits).
std::unique_ptr<Topology> sample(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::kHoneycomb:
      return make_topology("honeycomb:3");
    case TopologyKind::kMesh:
      return make_topology("mesh:4x4");
    case TopologyKind::kTorus:
      return make_topology("torus:4x4");
    case TopologyKind::kHoneycombTorus:
      return make_topology("honeycomb-torus:3");
  }
  return nullptr;
}

constexpr TopologyKind kKinds[] = {TopologyKind::kHoneycomb, TopologyKind::kMesh,
                                   TopologyKind::kTorus, TopologyKind::kHoneycombTorus};

TEST(RoutingRegistry, NamesAreUniqueAndEveryEntryBuildsWhatItDeclares) {
  std::set<std::string> names;
  for (const RoutingEntry& e : routing_registry()) {
    EXPECT_TRUE(names.insert(std::string(e.name)).second) << e.name << " twice";
    EXPECT_FALSE(e.kinds.empty()) << e.name;
    EXPECT_FALSE(e.description.empty()) << e.name;
    if (e.name == "table") continue;  // needs a table file (tables tests)
    for (const TopologyKind kind : e.kinds) {
      const auto topo = sample(kind);
      const auto routing = make_routing(e.name, *topo);
      EXPECT_EQ(routing->name(), e.name);
      // A plain number of VCs is what the routing asks for.
      if (std::isdigit(static_cast<unsigned char>(e.vcs.front())) &&
          e.vcs.find(' ') == std::string_view::npos) {
        EXPECT_EQ(std::to_string(routing->vcs_required()), e.vcs) << e.name;
      }
    }
  }
}

TEST(RoutingRegistry, EveryRoutingNameIsOneEntry) {
  // routing_names.hpp holds each name once; the registry has one entry per name, no other.
  using namespace routing_name;
  const std::set<std::string> spelled{
      kStojmenovic,      kXyFirst,         kDoubleXy,     kDoubleXyTurn, kStojmenovicDateline,
      kDoubleXyDateline, kMinimalAdaptive, kXy,           kWestFirst,    kDor,
      kDorDateline,      kDorDatelineDest, kDorRingClass, kDorBooksim,   kDorBalanced,
      kAngara,           kTable,           kDuato};
  EXPECT_EQ(spelled.size(), 18U);
  std::set<std::string> entries;
  for (const RoutingEntry& e : routing_registry()) entries.emplace(e.name);
  EXPECT_EQ(entries, spelled);
}

TEST(RoutingRegistry, EachKindListsTheRoutingsTheFactoryKnew) {
  // The factory's lists before the registry (issues 15 and 16 included), in --help order.
  using Names = std::vector<std::string>;
  EXPECT_EQ(routing_names(TopologyKind::kHoneycomb),
            (Names{"stojmenovic", "xy-first", "double-xy", "double-xy-turn", "minimal-adaptive",
                   "duato"}));
  EXPECT_EQ(routing_names(TopologyKind::kMesh), (Names{"xy", "west-first", "duato"}));
  EXPECT_EQ(routing_names(TopologyKind::kTorus),
            (Names{"dor", "dor-dateline", "dor-dateline-dest", "dor-ring-class", "dor-booksim",
                   "dor-balanced", "angara", "table", "duato"}));
  EXPECT_EQ(routing_names(TopologyKind::kHoneycombTorus),
            (Names{"stojmenovic", "stojmenovic-dateline", "double-xy-dateline", "minimal-adaptive",
                   "duato"}));
}

TEST(RoutingRegistry, TheFactoryRefusesEveryKindAnEntryDoesNotDeclare) {
  for (const RoutingEntry& e : routing_registry()) {
    for (const TopologyKind kind : kKinds) {
      if (e.fits(kind)) continue;
      const auto topo = sample(kind);
      EXPECT_THROW(make_routing(e.name, *topo), InputError) << e.name << " on " << topo->spec();
    }
  }
  const auto mesh3 = make_topology("mesh:3x3x3");  // west-first declares 2-D only
  EXPECT_THROW(make_routing("west-first", *mesh3), InputError);
  EXPECT_THROW(make_routing("zigzag", *mesh3), InputError);
}

TEST(RoutingRegistry, RingTiesAreTheTorusDimensionOrderRoutings) {
  std::string tie;
  for (const RoutingEntry& e : routing_registry()) {
    if (e.ring_tie) tie += std::string(tie.empty() ? "" : " ") + std::string(e.name);
  }
  EXPECT_EQ(tie, "dor dor-dateline dor-ring-class dor-booksim dor-balanced");
  EXPECT_TRUE(takes_ring_tie("dor-booksim"));
  EXPECT_FALSE(takes_ring_tie("dor-dateline-dest"));
  EXPECT_FALSE(takes_ring_tie("nonesuch"));
}

/// The rows of the README table that follows `header`, as written.
std::vector<std::string> readme_rows(const std::string& header) {
  std::ifstream in(WORMNET_SOURCE_DIR "/README.md");
  std::vector<std::string> rows;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == header) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.rfind("|---", 0) == 0) continue;
    if (line.rfind("| ", 0) != 0) break;
    rows.push_back(line);
  }
  return rows;
}

TEST(RoutingRegistry, TheReadmeTableListsTheRegistry) {
  std::vector<std::string> expected;
  for (const RoutingEntry& e : routing_registry()) {
    std::string kinds;
    for (const TopologyKind kind : e.kinds) {
      kinds += std::string(kinds.empty() ? "" : ", ") + std::string(enum_help(kind));
    }
    if (e.dims != 0) kinds += " (" + std::to_string(e.dims) + "-D)";
    expected.push_back("| `" + std::string(e.name) + "` | " + kinds + " | " + std::string(e.vcs) +
                       " | " + std::string(e.description) + " |");
  }
  EXPECT_EQ(readme_rows("| routing | topologies | VCs | what it does |"), expected);
}

}  // namespace
}  // namespace wormnet
