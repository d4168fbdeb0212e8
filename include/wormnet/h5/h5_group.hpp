// A group: a folder of groups and datasets inside an HDF5 file.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wormnet/h5/element_type.hpp"
#include "wormnet/h5/h5_dataset.hpp"
#include "wormnet/h5/h5_object.hpp"
#include "wormnet/h5/row_distribution.hpp"

namespace wormnet::io {

/// An open group. Paths are relative to this group and may be nested ("sweep/point_003");
/// see H5Object for the collective rules.
class H5Group : public H5Object {
 public:
  /// Adopts an open group identifier (for the h5 layer's implementation).
  H5Group(H5Handle handle, Communicator comm);

  /// Collective. Creates `path`, and any missing groups above it. H5Error if it exists.
  H5Group create_group(std::string_view path) const;
  /// Opens an existing group; H5Error when missing or not a group.
  [[nodiscard]] H5Group open_group(std::string_view path) const;
  /// Collective. Opens `path` when it exists, creates it otherwise.
  H5Group require_group(std::string_view path) const;

  /// Collective. Unlinks the object at `path` (group or dataset) when it exists; used to redo
  /// the part of a run written after its last checkpoint. The space is not reclaimed.
  void remove(std::string_view path) const;

  /// Whether an object (group or dataset) exists at `path`; false when a group on the way
  /// is missing.
  [[nodiscard]] bool exists(std::string_view path) const;
  [[nodiscard]] bool has_group(std::string_view path) const;
  [[nodiscard]] bool has_dataset(std::string_view path) const;
  /// Names of the direct members, in alphabetical order.
  [[nodiscard]] std::vector<std::string> member_names() const;

  /// Collective. Creates a fixed-size dataset (contiguous, fill value 0) to be written with
  /// H5DataSet::write_rows() or write_root(). H5Error if `name` exists.
  H5DataSet create_dataset(std::string_view name, ElementType type, const Shape& shape) const;
  /// Collective. Creates an extendible dataset: chunked by `chunk_rows` rows, first
  /// dimension `rows` now and unlimited later (H5DataSet grows through the time-series
  /// table), the other dimensions fixed by `row_shape`.
  H5DataSet create_extendible_dataset(std::string_view name, ElementType type, std::uint64_t rows,
                                      const Shape& row_shape, std::uint64_t chunk_rows) const;
  /// Opens an existing dataset; H5Error when missing or not a dataset.
  [[nodiscard]] H5DataSet open_dataset(std::string_view path) const;

  /// Collective. Small data held by root (histograms, summaries, the topology's
  /// coordinates): creates dataset `name` with root's `shape` (empty: 1-D of data.size())
  /// and writes root's `data`. The other ranks' arguments are ignored; they may pass an
  /// empty span.
  template <H5Element T>
  H5DataSet write_dataset(std::string_view name, std::span<const T> data,
                          const Shape& shape = {}) const;

  /// Collective. A distributed array: creates dataset `name` of shape
  /// (rows.global_rows(), row_shape...) and every rank writes the rows it holds (`local` in
  /// its runs' order, rows.local_rows() x product(row_shape) elements). Ranks holding no
  /// rows still call. Every rank must pass the same global_rows and row_shape.
  template <H5Element T>
  H5DataSet write_distributed(std::string_view name, const RowDistribution& rows,
                              std::span<const T> local, const Shape& row_shape = {}) const;
};

}  // namespace wormnet::io
