// Distributed arrays written collectively by every rank at its own rows, and small datasets
// written by root, read back and checked element by element against closed forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../support/shared_temp_file.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/row_distribution.hpp"

namespace wormnet::io {
namespace {

/// The test's ownership of `rows` rows over `ranks` ranks: rows are cut into blocks of
/// 1..5 rows (block b has 1 + (7b mod 5) rows); every block whose index is a multiple of 11
/// belongs to nobody (its rows keep the fill value 0); the others go round-robin with a
/// stride of 3 to ranks 0..P-2 (so with P > 1 the last rank holds nothing at all). Each
/// rank lists its runs from the highest offset down, so its local data are never in file
/// order.
struct Ownership {
  std::vector<std::vector<IndexRun>> runs;  ///< per rank
  std::vector<bool> held;                   ///< per row: held by some rank
};

Ownership test_ownership(std::uint64_t rows, int ranks) {
  Ownership o;
  o.runs.resize(static_cast<std::size_t>(ranks));
  o.held.assign(rows, false);
  const int holders = ranks > 1 ? ranks - 1 : 1;
  std::uint64_t at = 0;
  for (std::uint64_t b = 0; at < rows; ++b) {
    const std::uint64_t len = std::min<std::uint64_t>(1 + (7 * b) % 5, rows - at);
    if (b % 11 != 0) {
      const auto owner = static_cast<std::size_t>((3 * b) % static_cast<std::uint64_t>(holders));
      o.runs[owner].push_back({at, len});
      for (std::uint64_t i = at; i < at + len; ++i) o.held[i] = true;
    }
    at += len;
  }
  for (auto& r : o.runs) std::reverse(r.begin(), r.end());
  return o;
}

/// Closed-form contents, one per element type, chosen to exercise sign and width.
template <class T>
T value_at(std::uint64_t i, std::uint64_t j = 0);
template <>
double value_at<double>(std::uint64_t i, std::uint64_t j) {
  return static_cast<double>(i) * 10.0 + static_cast<double>(j) + 0.25;
}
template <>
std::int64_t value_at<std::int64_t>(std::uint64_t i, std::uint64_t j) {
  return -(std::int64_t{1} << 40) + 3 * static_cast<std::int64_t>(i) + static_cast<std::int64_t>(j);
}
template <>
std::uint64_t value_at<std::uint64_t>(std::uint64_t i, std::uint64_t j) {
  return (std::uint64_t{1} << 63) + 5 * i + j;  // above INT64_MAX: signedness must survive
}
template <>
std::int32_t value_at<std::int32_t>(std::uint64_t i, std::uint64_t j) {
  return -7 - 3 * static_cast<std::int32_t>(i) + static_cast<std::int32_t>(j);
}
template <>
std::uint32_t value_at<std::uint32_t>(std::uint64_t i, std::uint64_t j) {
  return 4'000'000'000U - static_cast<std::uint32_t>(i) - static_cast<std::uint32_t>(j);
}
template <>
std::uint8_t value_at<std::uint8_t>(std::uint64_t i, std::uint64_t j) {
  return static_cast<std::uint8_t>((37 * i + 5 + j) % 251);
}

/// This rank's local data for its runs, in its runs' order.
template <class T>
std::vector<T> local_values(const std::vector<IndexRun>& runs, std::uint64_t row_len) {
  std::vector<T> out;
  for (const IndexRun& r : runs) {
    for (std::uint64_t i = r.offset; i < r.offset + r.count; ++i) {
      for (std::uint64_t j = 0; j < row_len; ++j) out.push_back(value_at<T>(i, j));
    }
  }
  return out;
}

template <class T>
class DistributedArray : public ::testing::Test {};
using ElementTypes = ::testing::Types<double, std::int64_t, std::uint64_t, std::int32_t,
                                      std::uint32_t, std::uint8_t>;
TYPED_TEST_SUITE(DistributedArray, ElementTypes);

TYPED_TEST(DistributedArray, UnevenInterleavedRunsReadBackElementByElement) {
  using T = TypeParam;
  const Communicator world = Communicator::world();
  const int me = world.rank();
  test::SharedTempFile tmp(world, "distributed");
  constexpr std::uint64_t kRows = 1009;  // prime: no rank count divides it
  const Ownership own = test_ownership(kRows, world.size());
  const RowDistribution rows(kRows, own.runs[static_cast<std::size_t>(me)]);
  if (world.size() > 1 && me == world.size() - 1) {
    EXPECT_EQ(rows.local_rows(), 0U);
  }
  const std::vector<T> flat = local_values<T>(rows.runs(), 1);
  const std::vector<T> wide = local_values<T>(rows.runs(), 3);
  {
    H5File file = H5File::create(world, tmp.path(), "-o");
    const H5Group root = file.root();
    root.write_distributed<T>("flat", rows, flat);
    root.write_distributed<T>("group/wide", rows, wide, {3});
    file.close();
  }
  H5File file = H5File::open_read_only(world, tmp.path(), "-o");
  const H5Group root = file.root();
  const H5DataSet flat_ds = root.open_dataset("flat");
  EXPECT_EQ(flat_ds.element_type(), element_type_of<T>());
  EXPECT_EQ(flat_ds.shape(), (Shape{kRows}));
  const std::vector<T> all = flat_ds.read<T>();
  ASSERT_EQ(all.size(), kRows);
  std::uint64_t mismatches = 0;
  for (std::uint64_t i = 0; i < kRows; ++i) {
    const T expected = own.held[i] ? value_at<T>(i) : T{0};
    if (all[i] != expected) ++mismatches;
    EXPECT_EQ(all[i], expected) << "row " << i;
    if (mismatches > 5) break;
  }
  const H5DataSet wide_ds = root.open_dataset("group/wide");
  EXPECT_EQ(wide_ds.shape(), (Shape{kRows, 3}));
  EXPECT_EQ(wide_ds.row_elements(), 3U);
  const std::vector<T> all_wide = wide_ds.read<T>();
  ASSERT_EQ(all_wide.size(), 3 * kRows);
  mismatches = 0;
  for (std::uint64_t i = 0; i < kRows && mismatches <= 5; ++i) {
    for (std::uint64_t j = 0; j < 3; ++j) {
      const T expected = own.held[i] ? value_at<T>(i, j) : T{0};
      if (all_wide[3 * i + j] != expected) ++mismatches;
      EXPECT_EQ(all_wide[3 * i + j], expected) << "row " << i << " column " << j;
    }
  }
  // Each rank's own rows come back in its runs' order.
  EXPECT_EQ(flat_ds.read_rows<T>(rows), flat);
  EXPECT_EQ(wide_ds.read_rows<T>(rows), wide);
}

TEST(DistributedArray, BlockSplitWithFewerRowsThanRanksAndEmptyArray) {
  const Communicator world = Communicator::world();
  test::SharedTempFile tmp(world, "block");
  for (const std::uint64_t n : {std::uint64_t{0}, std::uint64_t{3}, std::uint64_t{10}}) {
    const RowDistribution rows = RowDistribution::block(n, world.rank(), world.size());
    std::vector<std::int64_t> mine;
    for (std::uint64_t i = rows.runs().empty() ? 0 : rows.runs()[0].offset, k = 0;
         k < rows.local_rows(); ++i, ++k) {
      mine.push_back(static_cast<std::int64_t>(i * i) - 4);
    }
    const std::string name = "block_" + std::to_string(n);
    {
      H5File file = H5File::create(world, tmp.path(), "-o");
      file.root().write_distributed<std::int64_t>(name, rows, mine);
      file.close();
    }
    H5File file = H5File::open_read_only(world, tmp.path(), "-o");
    const std::vector<std::int64_t> all = file.root().open_dataset(name).read<std::int64_t>();
    ASSERT_EQ(all.size(), n);
    for (std::uint64_t i = 0; i < n; ++i) {
      EXPECT_EQ(all[i], static_cast<std::int64_t>(i * i) - 4) << "n=" << n << " row " << i;
    }
  }
}

TEST(RootDataset, OnlyRootsDataAndShapeAreWritten) {
  const Communicator world = Communicator::world();
  test::SharedTempFile tmp(world, "root");
  // Root holds a 4x5 table t[i][j] = 100i + j; the other ranks pass something else, which
  // must be ignored (also its shape).
  std::vector<std::uint32_t> data;
  Shape shape;
  if (world.is_root()) {
    for (std::uint32_t i = 0; i < 4; ++i) {
      for (std::uint32_t j = 0; j < 5; ++j) data.push_back(100 * i + j);
    }
    shape = {4, 5};
  } else {
    data.assign(7, 999U);
    shape = {7};
  }
  std::vector<double> hist =
      world.is_root() ? std::vector<double>{0.5, 1.5, 2.5} : std::vector<double>{};
  {
    H5File file = H5File::create(world, tmp.path(), "-o");
    const H5Group g = file.root().create_group("summary");
    g.write_dataset<std::uint32_t>("table", data, shape);
    g.write_dataset<double>("histogram", hist);
    g.write_dataset<std::uint8_t>("empty", {});
    file.close();
  }
  H5File file = H5File::open_read_only(world, tmp.path(), "-o");
  const H5DataSet table = file.root().open_dataset("summary/table");
  EXPECT_EQ(table.shape(), (Shape{4, 5}));
  const std::vector<std::uint32_t> back = table.read<std::uint32_t>();
  ASSERT_EQ(back.size(), 20U);
  for (std::uint32_t i = 0; i < 4; ++i) {
    for (std::uint32_t j = 0; j < 5; ++j) EXPECT_EQ(back[5 * i + j], 100 * i + j);
  }
  EXPECT_EQ(file.root().open_dataset("summary/histogram").read<double>(),
            (std::vector<double>{0.5, 1.5, 2.5}));
  EXPECT_EQ(file.root().open_dataset("summary/empty").size(), 0U);
}

TEST(DatasetTypes, ReadingAsAnotherTypeIsAnErrorNotAConversion) {
  const Communicator world = Communicator::world();
  test::SharedTempFile tmp(world, "types");
  H5File file = H5File::create(world, tmp.path(), "-o");
  const std::vector<std::int64_t> v{1, 2, 3};
  const H5DataSet ds = file.root().write_dataset<std::int64_t>("v", v);
  try {
    static_cast<void>(ds.read<std::int32_t>());
    ADD_FAILURE() << "read<int32> of an int64 dataset did not throw";
  } catch (const H5Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds int64, not int32"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("/v"), std::string::npos) << e.what();
  }
  EXPECT_THROW(static_cast<void>(ds.read<double>()), H5Error);
  EXPECT_THROW(static_cast<void>(file.root().open_dataset("missing")), H5Error);
  EXPECT_THROW(static_cast<void>(file.root().open_group("v")), H5Error);
}

TEST(DatasetRows, MismatchedDistributionIsAnInvariantError) {
  const Communicator world = Communicator::world();
  test::SharedTempFile tmp(world, "mismatch");
  H5File file = H5File::create(world, tmp.path(), "-o");
  const H5DataSet ds = file.root().create_dataset("d", ElementType::kFloat64, {10});
  // Every rank makes the same mistake, so every rank throws before any collective call.
  const RowDistribution wrong_size = RowDistribution::contiguous(11, 0, 0);
  EXPECT_THROW(ds.write_rows<double>(wrong_size, {}), InvariantError);
  const RowDistribution two_rows = RowDistribution::contiguous(10, 0, 2);
  const std::vector<double> three{1, 2, 3};
  EXPECT_THROW(ds.write_rows<double>(two_rows, three), InvariantError);
}

}  // namespace
}  // namespace wormnet::io
