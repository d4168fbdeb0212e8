#include "wormnet/h5/row_distribution.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "wormnet/core/error.hpp"

namespace wormnet::io {
namespace {

std::vector<std::int32_t> to_file(const RowDistribution& d, const std::vector<std::int32_t>& local,
                                  std::size_t row_len) {
  std::vector<std::int32_t> out(local.size());
  d.to_file_order(std::as_bytes(std::span(local)), std::as_writable_bytes(std::span(out)),
                  row_len * sizeof(std::int32_t));
  return out;
}

TEST(RowDistribution, SortsMergesAndReordersByHand) {
  // Runs given as [7,9) [0,2) [2,3) [5,6): local data rows 7 8 0 1 2 5.
  const RowDistribution d(10, {{7, 2}, {0, 2}, {2, 1}, {5, 1}});
  EXPECT_EQ(d.global_rows(), 10U);
  EXPECT_EQ(d.local_rows(), 6U);
  EXPECT_FALSE(d.in_file_order());
  EXPECT_EQ(d.file_runs(), (std::vector<IndexRun>{{0, 3}, {5, 1}, {7, 2}}));
  const std::vector<std::int32_t> local{7, 8, 0, 1, 2, 5};
  EXPECT_EQ(to_file(d, local, 1), (std::vector<std::int32_t>{0, 1, 2, 5, 7, 8}));
  // Rows of two elements move as a whole.
  const std::vector<std::int32_t> wide{70, 71, 80, 81, 0, 1, 10, 11, 20, 21, 50, 51};
  EXPECT_EQ(to_file(d, wide, 2),
            (std::vector<std::int32_t>{0, 1, 10, 11, 20, 21, 50, 51, 70, 71, 80, 81}));
  // And back.
  const std::vector<std::int32_t> file_order = to_file(d, wide, 2);
  std::vector<std::int32_t> back(wide.size());
  d.from_file_order(std::as_bytes(std::span(file_order)), std::as_writable_bytes(std::span(back)),
                    2 * sizeof(std::int32_t));
  EXPECT_EQ(back, wide);
}

TEST(RowDistribution, SortedRunsNeedNoCopyAndEmptyRunsVanish) {
  const RowDistribution d(100, {{0, 0}, {3, 4}, {50, 0}, {10, 1}});
  EXPECT_TRUE(d.in_file_order());
  EXPECT_EQ(d.runs(), (std::vector<IndexRun>{{3, 4}, {10, 1}}));
  EXPECT_EQ(d.local_rows(), 5U);
  const RowDistribution none(100, {});
  EXPECT_EQ(none.local_rows(), 0U);
  EXPECT_TRUE(none.file_runs().empty());
}

TEST(RowDistribution, SingleRowsInAnyOrder) {
  const std::vector<std::uint64_t> ids{9, 3, 4, 0, 5};
  const RowDistribution d = RowDistribution::of_rows(12, ids);
  EXPECT_EQ(d.local_rows(), 5U);
  EXPECT_EQ(d.file_runs(), (std::vector<IndexRun>{{0, 1}, {3, 3}, {9, 1}}));
  EXPECT_EQ(to_file(d, {90, 30, 40, 0, 50}, 1), (std::vector<std::int32_t>{0, 30, 40, 50, 90}));
  const std::vector<std::uint64_t> twice{2, 2};
  EXPECT_THROW(static_cast<void>(RowDistribution::of_rows(12, twice)), InvariantError);
}

TEST(RowDistribution, RefusesOverlapsAndRowsOutsideTheArray) {
  EXPECT_THROW(RowDistribution(10, {{0, 5}, {4, 2}}), InvariantError);
  EXPECT_THROW(RowDistribution(10, {{4, 2}, {0, 5}}), InvariantError);  // in any order
  EXPECT_THROW(RowDistribution(10, {{3, 1}, {3, 1}}), InvariantError);
  EXPECT_THROW(RowDistribution(10, {{8, 3}}), InvariantError);
  EXPECT_THROW(RowDistribution(10, {{10, 1}}), InvariantError);
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  EXPECT_THROW(RowDistribution(10, {{5, kMax}}), InvariantError);  // offset + count wraps
  EXPECT_NO_THROW(RowDistribution(10, {{0, 10}}));
}

TEST(RowDistribution, BlockSplitCoversEveryRowOnceWithSizesWithinOne) {
  for (const std::uint64_t rows : {0ULL, 1ULL, 3ULL, 10ULL, 1009ULL, 1ULL << 40}) {
    for (const int ranks : {1, 2, 3, 4, 7, 64}) {
      std::uint64_t next = 0;
      std::uint64_t smallest = std::numeric_limits<std::uint64_t>::max();
      std::uint64_t largest = 0;
      for (int r = 0; r < ranks; ++r) {
        const RowDistribution d = RowDistribution::block(rows, r, ranks);
        const std::uint64_t n = d.local_rows();
        if (n > 0) {
          ASSERT_EQ(d.runs().size(), 1U);
          EXPECT_EQ(d.runs()[0].offset, next) << rows << " rows, rank " << r << "/" << ranks;
        }
        next += n;
        smallest = std::min(smallest, n);
        largest = std::max(largest, n);
      }
      EXPECT_EQ(next, rows);
      EXPECT_LE(largest - smallest, 1U);
      EXPECT_EQ(largest,
                (rows + static_cast<std::uint64_t>(ranks) - 1) / static_cast<std::uint64_t>(ranks));
    }
  }
  EXPECT_THROW(static_cast<void>(RowDistribution::block(10, 2, 2)), InvariantError);
}

}  // namespace
}  // namespace wormnet::io
