// Every enum table of the configuration and the topology: each value has exactly one row,
// every value reads back from its name, no two rows share a name, and the names are the
// command line's (kebab case, the spellings docs/ and the README give).
#include "wormnet/core/enum_names.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "../../support/enum_table_check.hpp"
#include "wormnet/config/sim_config.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {
namespace {

/// How many values each enum has, by a switch over all of them: -Wswitch (an error here)
/// stops the build when an enum gains a value this file does not list, so a value added to
/// an enum but not to its table fails check_table's count.
constexpr int value_count(TrafficPattern v) {
  switch (v) {
    case TrafficPattern::kUniform:
    case TrafficPattern::kTranspose:
    case TrafficPattern::kNeighbor:
    case TrafficPattern::kTornado:
    case TrafficPattern::kBitComplement:
    case TrafficPattern::kHotspot:
    case TrafficPattern::kAllToAll:
      return 7;
  }
  return 0;
}
constexpr int value_count(InjectionProcess v) {
  switch (v) {
    case InjectionProcess::kPoisson:
    case InjectionProcess::kBernoulli:
      return 2;
  }
  return 0;
}
constexpr int value_count(SelectionPolicy v) {
  switch (v) {
    case SelectionPolicy::kPriority:
    case SelectionPolicy::kRandom:
    case SelectionPolicy::kLeastOccupied:
      return 3;
  }
  return 0;
}
constexpr int value_count(FlowControl v) {
  switch (v) {
    case FlowControl::kCredit:
    case FlowControl::kBubble:
      return 2;
  }
  return 0;
}
constexpr int value_count(RingTie v) {
  switch (v) {
    case RingTie::kPlus:
    case RingTie::kRandom:
    case RingTie::kAlternating:
      return 3;
  }
  return 0;
}
constexpr int value_count(VcBandwidth v) {
  switch (v) {
    case VcBandwidth::kShared:
    case VcBandwidth::kPerVc:
      return 2;
  }
  return 0;
}
constexpr int value_count(CongestionMode v) {
  switch (v) {
    case CongestionMode::kOff:
    case CongestionMode::kTotals:
    case CongestionMode::kSeries:
      return 3;
  }
  return 0;
}
constexpr int value_count(PartitionMethod v) {
  switch (v) {
    case PartitionMethod::kGeometric:
    case PartitionMethod::kBlocks:
    case PartitionMethod::kMetis:
      return 3;
  }
  return 0;
}
constexpr int value_count(TopologyKind v) {
  switch (v) {
    case TopologyKind::kHoneycomb:
    case TopologyKind::kTorus:
    case TopologyKind::kMesh:
    case TopologyKind::kHoneycombTorus:
      return 4;
  }
  return 0;
}

/// E's table (support/enum_table_check.hpp) and this layer's rules: lower-case names, and a
/// name is matched exactly.
template <class E>
void check_table(int count, const std::vector<std::string>& expected) {
  ASSERT_EQ(value_count(E{}), count);
  test::check_enum_table<E>(count, expected);
  for (const std::string& name : expected) {
    for (const char c : name) EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '-') << name;
  }
  EXPECT_FALSE(enum_value<E>("").has_value());
  EXPECT_FALSE(enum_value<E>("Uniform").has_value());  // exact: case is the command line's
}

TEST(EnumNames, EveryValueRoundTripsThroughItsOneName) {
  check_table<TrafficPattern>(7, {"uniform", "transpose", "neighbor", "tornado", "bit-complement",
                                  "hotspot", "all-to-all"});
  check_table<InjectionProcess>(2, {"poisson", "bernoulli"});
  check_table<SelectionPolicy>(3, {"priority", "random", "least-occupied"});
  check_table<FlowControl>(2, {"credit", "bubble"});
  check_table<RingTie>(3, {"plus", "random", "alternating"});
  check_table<VcBandwidth>(2, {"shared", "per-vc"});
  check_table<CongestionMode>(3, {"off", "totals", "series"});
  check_table<PartitionMethod>(3, {"geometric", "blocks", "metis"});
  check_table<TopologyKind>(4, {"honeycomb", "torus", "mesh", "honeycomb-torus"});
}

TEST(EnumNames, TopologyKindsHeadTheCatalogInThePlural) {
  EXPECT_STREQ(enum_help(TopologyKind::kHoneycombTorus), "honeycomb tori");
  EXPECT_STREQ(enum_help(TopologyKind::kHoneycomb), "honeycomb");
}

}  // namespace
}  // namespace wormnet
