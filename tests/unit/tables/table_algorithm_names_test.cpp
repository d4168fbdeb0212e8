// The generators' one table of names (--algorithm, --algorithms, the table file's "algorithm"
// attribute): every generator reads back from its name, no name twice, the names the paper's
// algorithms go by in docs/tables.md.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "wormnet/tables/table_generator.hpp"

namespace wormnet::tables {
namespace {

/// The generators, by a switch over all of them: -Wswitch (an error here) stops the build
/// when one is added without being listed here, and then its row is checked.
constexpr int value_count(TableAlgorithm a) {
  switch (a) {
    case TableAlgorithm::kBfs:
    case TableAlgorithm::kGenetic:
    case TableAlgorithm::kSssp:
      return 3;
  }
  return 0;
}

TEST(TableAlgorithmNames, EveryGeneratorRoundTripsThroughItsOneName) {
  const std::pair<TableAlgorithm, const char*> expected[] = {{TableAlgorithm::kBfs, "bfs"},
                                                             {TableAlgorithm::kGenetic, "genetic"},
                                                             {TableAlgorithm::kSssp, "sssp"}};
  ASSERT_EQ(value_count(TableAlgorithm{}), 3);
  ASSERT_EQ(enum_names(TableAlgorithm{}).size(), 3U);
  std::set<std::string> names;
  for (const auto& [a, name] : expected) {
    EXPECT_STREQ(enum_name(a), name);
    EXPECT_EQ(enum_value<TableAlgorithm>(name), a);
    EXPECT_TRUE(names.insert(enum_name(a)).second) << name;
    EXPECT_FALSE(std::string(enum_help(a)).empty()) << name;
  }
  EXPECT_FALSE(enum_value<TableAlgorithm>("BFS").has_value());  // exact: the command line's
  EXPECT_FALSE(enum_value<TableAlgorithm>("dfs").has_value());
  EXPECT_FALSE(enum_value<TableAlgorithm>("").has_value());
}

}  // namespace
}  // namespace wormnet::tables
