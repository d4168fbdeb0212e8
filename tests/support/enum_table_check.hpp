// What every enum's one table of names (core/enum_names.hpp) must hold, checked against the
// names a test writes out from the documentation (never read from the table itself): one row
// per value, each name the expected one, no name twice, each value read back from its name,
// a help text for each, and "?" for a value past the last.
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "wormnet/core/enum_names.hpp"

namespace wormnet::test {

/// E's table against enumerators 0..count-1 and their names `expected` in the enum's order.
template <class E>
void check_enum_table(int count, const std::vector<std::string>& expected) {
  const auto table = enum_names(E{});
  ASSERT_EQ(table.size(), static_cast<std::size_t>(count));
  ASSERT_EQ(expected.size(), static_cast<std::size_t>(count));
  std::set<std::string> names;
  for (int i = 0; i < count; ++i) {
    const E v = static_cast<E>(i);
    const std::string name = enum_name(v);
    EXPECT_EQ(name, expected[static_cast<std::size_t>(i)]);
    EXPECT_TRUE(names.insert(name).second) << "two values spelled " << name;
    ASSERT_TRUE(enum_value<E>(name).has_value()) << name;
    EXPECT_EQ(*enum_value<E>(name), v) << name;
    EXPECT_FALSE(std::string(enum_help(v)).empty()) << name;
    EXPECT_NE(std::string(enum_help(v)), "?") << name;
  }
  EXPECT_STREQ(enum_name(static_cast<E>(count)), "?");
}

}  // namespace wormnet::test
