// A dataset: an n-dimensional array of one element type, read and written whole by root or
// collectively by rows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "wormnet/h5/element_type.hpp"
#include "wormnet/h5/h5_object.hpp"
#include "wormnet/h5/row_distribution.hpp"

namespace wormnet::io {

/// A dataset's extent, slowest dimension first (row-major, as numpy and h5py see it).
using Shape = std::vector<std::uint64_t>;

/// An open dataset. Rows are the first dimension: a 1-D dataset of G elements has G rows of
/// one element, a (G, k) dataset has G rows of k elements. Data buffers are flat, row-major.
/// See H5Object for the collective rules.
class H5DataSet : public H5Object {
 public:
  /// Adopts an open dataset identifier (for the h5 layer's implementation).
  H5DataSet(H5Handle handle, Communicator comm);

  /// The stored element type, or nullopt when it is none of wormnet's (a string, a compound,
  /// a float32 written by another tool).
  [[nodiscard]] std::optional<ElementType> element_type() const;
  /// The current extent.
  [[nodiscard]] Shape shape() const;
  /// Number of elements (product of the extent).
  [[nodiscard]] std::uint64_t size() const;
  /// Elements per row: the product of all dimensions but the first (1 for a 1-D dataset).
  [[nodiscard]] std::uint64_t row_elements() const;

  /// The whole dataset, row-major. Any rank may call it on its own (independent I/O).
  /// H5Error when T is not the stored type.
  template <H5Element T>
  [[nodiscard]] std::vector<T> read() const;

  /// Collective: every rank reads the rows it holds, in its runs' order.
  template <H5Element T>
  [[nodiscard]] std::vector<T> read_rows(const RowDistribution& rows) const;

  /// Collective: every rank writes the rows it holds (local.size() = local_rows x
  /// row_elements) with collective MPI-IO; ranks that hold nothing still call.
  /// `rows.global_rows()` must equal the dataset's first dimension.
  template <H5Element T>
  void write_rows(const RowDistribution& rows, std::span<const T> local) const;

  /// Collective: root writes the whole dataset from `data` (size() elements); the other
  /// ranks' `data` are ignored (they may pass an empty span).
  template <H5Element T>
  void write_root(std::span<const T> data) const;
};

}  // namespace wormnet::io
