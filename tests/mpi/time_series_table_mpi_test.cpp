// Time-series tables: append crosses chunk boundaries, root's row wins, reopen + truncate +
// continue (a restart), and bad rows are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../support/shared_temp_file.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/h5_schema.hpp"
#include "wormnet/h5/time_series_table.hpp"

namespace wormnet::io {
namespace {

using Cell = TimeSeriesTable::Cell;

std::vector<ColumnSpec> test_columns() {
  return {{"cycle", ElementType::kInt64, "cycles", "end of the window"},
          {"latency_mean", ElementType::kFloat64, "cycles", "mean packet latency"},
          {"delivered", ElementType::kUInt64, "flits", ""}};
}

/// Row r of the test table: cycle 1000(r+1), latency 12.5 + r/8, delivered r^2 + 2^40.
std::vector<Cell> row(std::uint64_t r) {
  return {Cell{static_cast<std::int64_t>(1000 * (r + 1))},
          Cell{12.5 + static_cast<double>(r) / 8.0}, Cell{r * r + (std::uint64_t{1} << 40)}};
}

/// Something else, passed by the ranks other than root: must never reach the file.
std::vector<Cell> garbage() {
  return {Cell{std::int64_t{-1}}, Cell{-1.0}, Cell{std::uint64_t{0}}};
}

void expect_rows(const TimeSeriesTable& t, std::uint64_t n, int line) {
  SCOPED_TRACE("checked at line " + std::to_string(line));
  ASSERT_EQ(t.rows(), n);
  const auto cycles = t.column("cycle").read<std::int64_t>();
  const auto latency = t.column("latency_mean").read<double>();
  const auto delivered = t.column("delivered").read<std::uint64_t>();
  ASSERT_EQ(cycles.size(), n);
  ASSERT_EQ(latency.size(), n);
  ASSERT_EQ(delivered.size(), n);
  for (std::uint64_t r = 0; r < n; ++r) {
    EXPECT_EQ(cycles[r], static_cast<std::int64_t>(1000 * (r + 1))) << "row " << r;
    EXPECT_EQ(latency[r], 12.5 + static_cast<double>(r) / 8.0) << "row " << r;
    EXPECT_EQ(delivered[r], r * r + (std::uint64_t{1} << 40)) << "row " << r;
  }
}

TEST(TimeSeriesTable, AppendFlushReopenTruncateContinue) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "table");
  {
    H5File file = H5File::create(w, tmp.path(), "-o");
    TimeSeriesTable t = TimeSeriesTable::create(file.root(), "run/timeseries", test_columns(), 4);
    EXPECT_EQ(t.rows(), 0U);
    for (std::uint64_t r = 0; r < 11; ++r) {  // 11 rows of 4-row chunks: three chunks
      t.append(w.is_root() ? row(r) : garbage());
      file.flush();
    }
    expect_rows(t, 11, __LINE__);
    const H5DataSet cycle = t.column("cycle");
    EXPECT_EQ(cycle.attribute<std::string>(std::string(schema::kUnitAttr)), "cycles");
    EXPECT_EQ(cycle.attribute<std::string>(std::string(schema::kDescriptionAttr)),
              "end of the window");
    EXPECT_EQ(t.group().attribute<std::vector<std::string>>(std::string(schema::kColumnsAttr)),
              (std::vector<std::string>{"cycle", "latency_mean", "delivered"}));
    file.close();
  }
  {
    // A restart from the checkpoint of window 7: drop rows 7.., then continue.
    H5File file = H5File::open_read_write(w, tmp.path(), "--restart");
    TimeSeriesTable t = TimeSeriesTable::open(file.root(), "run/timeseries");
    expect_rows(t, 11, __LINE__);
    ASSERT_EQ(t.columns().size(), 3U);
    EXPECT_EQ(t.columns()[2].name, "delivered");
    EXPECT_EQ(t.columns()[2].type, ElementType::kUInt64);
    EXPECT_EQ(t.columns()[1].unit, "cycles");
    EXPECT_EQ(t.columns()[0].description, "end of the window");
    t.truncate(7);
    expect_rows(t, 7, __LINE__);
    for (std::uint64_t r = 7; r < 9; ++r) t.append(row(r));
    expect_rows(t, 9, __LINE__);  // read back through the same open file
    file.close();
  }
  const H5File file = H5File::open_read_only(w, tmp.path(), "-i");
  expect_rows(TimeSeriesTable::open(file.root(), "run/timeseries"), 9, __LINE__);
}

TEST(TimeSeriesTable, BadRowsAndColumnsAreRefused) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "badtable");
  H5File file = H5File::create(w, tmp.path(), "-o");
  TimeSeriesTable t = TimeSeriesTable::create(file.root(), "ts", test_columns());
  EXPECT_THROW(t.append({Cell{std::int64_t{1}}, Cell{2.0}}), InvariantError);  // too short
  EXPECT_THROW(t.append({Cell{1.0}, Cell{2.0}, Cell{std::uint64_t{3}}}), InvariantError);  // type
  EXPECT_EQ(t.rows(), 0U);
  EXPECT_THROW(t.truncate(1), InvariantError);
  EXPECT_THROW(static_cast<void>(t.column("nope")), InvariantError);
  const auto bad = [&](std::vector<ColumnSpec> cols) {
    EXPECT_THROW(static_cast<void>(TimeSeriesTable::create(file.root(), "bad", std::move(cols))),
                 InvariantError);
  };
  bad({});
  bad({{"a", ElementType::kFloat64, "", ""}, {"a", ElementType::kInt64, "", ""}});
  bad({{"a/b", ElementType::kFloat64, "", ""}});
  bad({{"small", ElementType::kInt32, "", ""}});
  // A group that is not a table.
  static_cast<void>(file.root().create_group("plain"));
  EXPECT_THROW(static_cast<void>(TimeSeriesTable::open(file.root(), "plain")), H5Error);
}

}  // namespace
}  // namespace wormnet::io
