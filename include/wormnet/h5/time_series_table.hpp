// A table that grows by one row per statistics window and survives a killed run.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "wormnet/h5/element_type.hpp"
#include "wormnet/h5/h5_dataset.hpp"
#include "wormnet/h5/h5_group.hpp"

namespace wormnet::io {

/// One column of a TimeSeriesTable.
struct ColumnSpec {
  std::string name;
  /// kFloat64, kInt64 or kUInt64.
  ElementType type = ElementType::kFloat64;
  /// Unit of the values ("cycles", "flits/node/cycle", "us"); empty when dimensionless.
  std::string unit;
  std::string description;
};

/// A group holding one extendible, chunked 1-D dataset per column, all of the same length
/// (the number of rows), plus the attribute "columns" listing the column names in order.
/// Each column dataset carries "unit" and "description" attributes. h5py reads a column as
/// `f["path/to/table/latency_mean"][:]`.
///
/// Durability: append() writes the row into the file at once; H5File::flush() puts it on
/// disk. A process killed after a flush and before its next append leaves a file in which
/// h5py finds every row appended up to that flush. Killed during an append, the newest rows
/// may be missing or present in only some columns; readers take the shortest column's length
/// (rows() does), and the rows up to the last flush are always intact.
///
/// Collective: create(), open(), append() and truncate() are called by every rank; append()
/// writes ROOT's row (every rank passes a row of the right types, e.g. the globally reduced
/// statistics; the other ranks' values are ignored).
class TimeSeriesTable {
 public:
  /// One cell: its alternative must match the column's type (int64 for kInt64, ...).
  using Cell = std::variant<std::int64_t, std::uint64_t, double>;

  /// Rows per chunk when not given: 1024 rows of 8 bytes = one 8 KiB chunk per column.
  static constexpr std::uint64_t kDefaultChunkRows = 1024;

  /// Collective. Creates group `name` under `parent` with the given columns, no rows.
  /// InvariantError for an empty column list, a duplicate or empty name, a column type
  /// other than float64/int64/uint64, or chunk_rows = 0.
  static TimeSeriesTable create(const H5Group& parent, std::string_view name,
                                std::vector<ColumnSpec> columns,
                                std::uint64_t chunk_rows = kDefaultChunkRows);
  /// Opens an existing table (to read it, or to continue it after a restart). H5Error when
  /// `name` is not a table this class wrote.
  static TimeSeriesTable open(const H5Group& parent, std::string_view name);

  [[nodiscard]] const std::vector<ColumnSpec>& columns() const { return columns_; }
  /// Number of complete rows (the shortest column).
  [[nodiscard]] std::uint64_t rows() const { return rows_; }
  [[nodiscard]] const H5Group& group() const { return group_; }
  /// The dataset of column `name`; InvariantError when there is no such column.
  [[nodiscard]] H5DataSet column(std::string_view name) const;

  /// Collective. Appends root's `row`, one cell per column in column order. InvariantError
  /// when the row's length or a cell's type does not match the columns.
  void append(std::span<const Cell> row);
  void append(std::initializer_list<Cell> row) {
    append(std::span<const Cell>(row.begin(), row.size()));
  }
  /// Collective. Drops rows beyond the first `rows` (a restart resuming from an earlier
  /// window); InvariantError when `rows` exceeds rows().
  void truncate(std::uint64_t rows);

 private:
  TimeSeriesTable(H5Group group, std::vector<ColumnSpec> columns, std::vector<H5DataSet> datasets,
                  std::uint64_t rows);
  void resize_columns(std::uint64_t rows);

  H5Group group_;
  std::vector<ColumnSpec> columns_;
  std::vector<H5DataSet> datasets_;
  std::uint64_t rows_ = 0;
};

}  // namespace wormnet::io
