// Which rows of a global array one rank owns, for collective reads and writes of
// distributed arrays (per-node and per-channel results).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace wormnet::io {

/// A run of consecutive global rows [offset, offset + count).
struct IndexRun {
  std::uint64_t offset = 0;
  std::uint64_t count = 0;
  friend bool operator==(const IndexRun&, const IndexRun&) = default;
};

/// The rows of a global array of `global_rows` rows that this rank holds, as runs.
///
/// The rank's local data is the concatenation of its runs in the order they were given
/// (run 0's rows first), each row being `row_elements` consecutive elements. Runs may come in
/// any order (a partition rarely lists a rank's channels in global order); HDF5 needs them
/// in file order, so the data are reordered on the way out and back, and runs that touch are
/// merged into one hyperslab block. Building the distribution once and reusing it for every
/// array of the same ownership keeps that work out of each write.
///
/// Runs of one rank must not overlap (checked). Runs of different ranks must not overlap
/// either; that is not checked here (it would need communication): a collective write of
/// rows held by two ranks leaves one of them, unspecified which. Rows no rank holds keep the
/// dataset's fill value, 0.
class RowDistribution {
 public:
  /// Throws InvariantError when a run leaves [0, global_rows) or two runs overlap.
  /// Empty runs are allowed and dropped.
  RowDistribution(std::uint64_t global_rows, std::vector<IndexRun> runs);

  /// One run [offset, offset + count).
  static RowDistribution contiguous(std::uint64_t global_rows, std::uint64_t offset,
                                    std::uint64_t count);
  /// Single rows in any order (e.g. the global channel ids a rank holds), each a run of one:
  /// local data hold one row per id, in the order of `rows`. Ids that follow each other merge
  /// into longer runs of the file selection.
  static RowDistribution of_rows(std::uint64_t global_rows, std::span<const std::uint64_t> rows);
  /// The even block split of `global_rows` over `ranks`: rank r holds rows
  /// [floor(r*G/P), floor((r+1)*G/P)).
  static RowDistribution block(std::uint64_t global_rows, int rank, int ranks);

  [[nodiscard]] std::uint64_t global_rows() const { return global_rows_; }
  /// Rows this rank holds (the sum of the run counts).
  [[nodiscard]] std::uint64_t local_rows() const { return local_rows_; }
  /// The non-empty runs, in local-data order.
  [[nodiscard]] const std::vector<IndexRun>& runs() const { return runs_; }
  /// The same rows sorted by offset, touching runs merged: the file selection.
  [[nodiscard]] const std::vector<IndexRun>& file_runs() const { return file_runs_; }
  /// True when local data are already in file order (no copy needed).
  [[nodiscard]] bool in_file_order() const { return in_file_order_; }

  /// Copies local data (runs order) into `file_ordered` (file order). Both spans hold
  /// local_rows() rows of `row_bytes` bytes.
  void to_file_order(std::span<const std::byte> local, std::span<std::byte> file_ordered,
                     std::size_t row_bytes) const;
  /// The inverse of to_file_order().
  void from_file_order(std::span<const std::byte> file_ordered, std::span<std::byte> local,
                       std::size_t row_bytes) const;

 private:
  std::uint64_t global_rows_ = 0;
  std::uint64_t local_rows_ = 0;
  std::vector<IndexRun> runs_;
  /// local_start_[i]: the local row where runs_[i] begins.
  std::vector<std::uint64_t> local_start_;
  /// Indices into runs_, sorted by offset.
  std::vector<std::size_t> order_;
  std::vector<IndexRun> file_runs_;
  bool in_file_order_ = true;
};

}  // namespace wormnet::io
