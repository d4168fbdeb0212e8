#include "wormnet/h5/h5_dataset.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "h5_api.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet::io {

namespace {

using detail::check;
using detail::check_id;
using detail::fail;

Shape extent_of(hid_t dataset) {
  H5Handle space(check_id(H5Dget_space(dataset), dataset, "cannot read the extent"));
  const int rank = H5Sget_simple_extent_ndims(space.id());
  check(rank, dataset, "cannot read the extent");
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr);
  return Shape(dims.begin(), dims.end());
}

std::uint64_t product(const Shape& dims, std::size_t from) {
  std::uint64_t n = 1;
  for (std::size_t i = from; i < dims.size(); ++i) n *= dims[i];
  return n;
}

/// Fails unless the dataset stores exactly T.
template <H5Element T>
void require_type(const H5DataSet& ds) {
  const std::optional<ElementType> stored = ds.element_type();
  if (stored == element_type_of<T>()) return;
  H5Handle type(check_id(H5Dget_type(ds.native_id()), ds.native_id(), "cannot read the type"));
  fail(ds.native_id(), "dataset holds " + detail::describe_type(type.id()) + ", not " +
                           std::string(to_string(element_type_of<T>())));
}

/// A 1-D memory dataspace of `n` elements; with n = 0 a scalar space with nothing selected
/// (HDF5 needs a space even when a rank transfers nothing in a collective call).
H5Handle memory_space(std::uint64_t n) {
  if (n == 0) {
    H5Handle space(check_id(H5Screate(H5S_SCALAR), -1, "cannot create dataspace"));
    check(H5Sselect_none(space.id()), -1, "cannot select nothing");
    return space;
  }
  const hsize_t dim = n;
  return H5Handle(check_id(H5Screate_simple(1, &dim, nullptr), -1, "cannot create dataspace"));
}

/// Runs per leaf of the union tree built by select_runs().
constexpr std::size_t kRunsPerLeaf = 32;

/// A copy of `space` with the union of runs[lo, hi) (whole rows) selected. Adding runs one by
/// one to a selection costs HDF5 time proportional to the selection so far (8000 runs took
/// 2.3 s with HDF5 1.10.8), so the union is built as a balanced tree: short leaves joined
/// pairwise with H5Scombine_select, nearly linear (256000 runs in 0.8 s).
H5Handle select_range(hid_t space, const std::vector<hsize_t>& dims,
                      const std::vector<IndexRun>& runs, std::size_t lo, std::size_t hi) {
  if (hi - lo <= kRunsPerLeaf) {
    H5Handle leaf(check_id(H5Scopy(space), -1, "cannot copy dataspace"));
    std::vector<hsize_t> start(dims.size(), 0);
    std::vector<hsize_t> count = dims;
    for (std::size_t i = lo; i < hi; ++i) {
      start[0] = runs[i].offset;
      count[0] = runs[i].count;
      check(H5Sselect_hyperslab(leaf.id(), i == lo ? H5S_SELECT_SET : H5S_SELECT_OR, start.data(),
                                nullptr, count.data(), nullptr),
            -1, "cannot select rows");
    }
    return leaf;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  const H5Handle left = select_range(space, dims, runs, lo, mid);
  const H5Handle right = select_range(space, dims, runs, mid, hi);
  return H5Handle(check_id(H5Scombine_select(left.id(), H5S_SELECT_OR, right.id()), -1,
                           "cannot join row selections"));
}

/// The dataset's file space with the union of `runs` (whole rows) selected.
H5Handle select_runs(hid_t dataset, const Shape& dims, const std::vector<IndexRun>& runs) {
  H5Handle space(check_id(H5Dget_space(dataset), dataset, "cannot read the extent"));
  if (runs.empty()) {
    check(H5Sselect_none(space.id()), dataset, "cannot select nothing");
    return space;
  }
  return select_range(space.id(), detail::to_hsize(dims), runs, 0, runs.size());
}

void check_rows(const H5DataSet& ds, const Shape& dims, const RowDistribution& rows,
                std::size_t local_size) {
  if (dims.empty() || dims[0] != rows.global_rows()) {
    throw InvariantError(ds.path() + ": the row distribution has " +
                         std::to_string(rows.global_rows()) +
                         " global rows, the dataset's first dimension differs");
  }
  if (local_size != rows.local_rows() * product(dims, 1)) {
    throw InvariantError(ds.path() + ": local data of " + std::to_string(local_size) +
                         " elements for " + std::to_string(rows.local_rows()) + " rows of " +
                         std::to_string(product(dims, 1)));
  }
}

}  // namespace

H5DataSet::H5DataSet(H5Handle handle, Communicator comm)
    : H5Object(std::move(handle), std::move(comm)) {}

std::optional<ElementType> H5DataSet::element_type() const {
  H5Handle type(check_id(H5Dget_type(native_id()), native_id(), "cannot read the type"));
  return detail::element_type_of(type.id());
}

Shape H5DataSet::shape() const {
  return extent_of(native_id());
}

std::uint64_t H5DataSet::size() const {
  return product(shape(), 0);
}

std::uint64_t H5DataSet::row_elements() const {
  return product(shape(), 1);
}

template <H5Element T>
std::vector<T> H5DataSet::read() const {
  require_type<T>(*this);
  std::vector<T> out(size());
  if (out.empty()) return out;
  check(H5Dread(native_id(), detail::native_type(element_type_of<T>()), H5S_ALL, H5S_ALL,
                H5P_DEFAULT, out.data()),
        native_id(), "cannot read the dataset");
  return out;
}

template <H5Element T>
std::vector<T> H5DataSet::read_rows(const RowDistribution& rows) const {
  require_type<T>(*this);
  const Shape dims = shape();
  const std::uint64_t n = rows.local_rows() * product(dims, 1);
  check_rows(*this, dims, rows, n);
  std::vector<T> file_ordered(n);
  // An empty dataset has no storage for HDF5 to address, even with nothing selected; every
  // rank knows the extent, so every rank skips the collective call alike.
  if (product(dims, 0) == 0) return file_ordered;
  const H5Handle file_space = select_runs(native_id(), dims, rows.file_runs());
  const H5Handle mem_space = memory_space(n);
  const H5Handle dxpl = detail::collective_transfer(communicator());
  T dummy{};
  check(H5Dread(native_id(), detail::native_type(element_type_of<T>()), mem_space.id(),
                file_space.id(), dxpl.id(), n > 0 ? file_ordered.data() : &dummy),
        native_id(), "cannot read rows");
  if (rows.in_file_order()) return file_ordered;
  std::vector<T> local(n);
  rows.from_file_order(std::as_bytes(std::span<const T>(file_ordered)),
                       std::as_writable_bytes(std::span<T>(local)), product(dims, 1) * sizeof(T));
  return local;
}

template <H5Element T>
void H5DataSet::write_rows(const RowDistribution& rows, std::span<const T> local) const {
  require_type<T>(*this);
  const Shape dims = shape();
  check_rows(*this, dims, rows, local.size());
  std::vector<T> reordered;
  std::span<const T> data = local;
  if (!rows.in_file_order()) {
    reordered.resize(local.size());
    rows.to_file_order(std::as_bytes(local), std::as_writable_bytes(std::span<T>(reordered)),
                       product(dims, 1) * sizeof(T));
    data = reordered;
  }
  if (product(dims, 0) == 0) return;  // see read_rows()
  const H5Handle file_space = select_runs(native_id(), dims, rows.file_runs());
  const H5Handle mem_space = memory_space(data.size());
  const H5Handle dxpl = detail::collective_transfer(communicator());
  const T dummy{};
  check(H5Dwrite(native_id(), detail::native_type(element_type_of<T>()), mem_space.id(),
                 file_space.id(), dxpl.id(), data.empty() ? &dummy : data.data()),
        native_id(), "cannot write rows");
}

template <H5Element T>
void H5DataSet::write_root(std::span<const T> data) const {
  require_type<T>(*this);
  // Root alone writes, with independent I/O (the storage was allocated at creation): a
  // collective write would make every rank take part in moving root's bytes.
  detail::write_on_root(communicator(), [&] {
    const std::uint64_t n = size();
    if (data.size() != n) {
      throw InvariantError(path() + ": root passed " + std::to_string(data.size()) +
                           " elements for a dataset of " + std::to_string(n));
    }
    if (n == 0) return;  // see read_rows()
    const H5Handle mem_space = memory_space(n);
    check(H5Dwrite(native_id(), detail::native_type(element_type_of<T>()), mem_space.id(), H5S_ALL,
                   H5P_DEFAULT, data.data()),
          native_id(), "cannot write the dataset");
  });
}

// The element types of H5Element, instantiated here once for every client.
template std::vector<double> H5DataSet::read<double>() const;
template std::vector<double> H5DataSet::read_rows<double>(const RowDistribution&) const;
template void H5DataSet::write_rows<double>(const RowDistribution&, std::span<const double>) const;
template void H5DataSet::write_root<double>(std::span<const double>) const;
template std::vector<std::int64_t> H5DataSet::read<std::int64_t>() const;
template std::vector<std::int64_t> H5DataSet::read_rows<std::int64_t>(const RowDistribution&) const;
template void H5DataSet::write_rows<std::int64_t>(const RowDistribution&,
                                                  std::span<const std::int64_t>) const;
template void H5DataSet::write_root<std::int64_t>(std::span<const std::int64_t>) const;
template std::vector<std::uint64_t> H5DataSet::read<std::uint64_t>() const;
template std::vector<std::uint64_t> H5DataSet::read_rows<std::uint64_t>(
    const RowDistribution&) const;
template void H5DataSet::write_rows<std::uint64_t>(const RowDistribution&,
                                                   std::span<const std::uint64_t>) const;
template void H5DataSet::write_root<std::uint64_t>(std::span<const std::uint64_t>) const;
template std::vector<std::int32_t> H5DataSet::read<std::int32_t>() const;
template std::vector<std::int32_t> H5DataSet::read_rows<std::int32_t>(const RowDistribution&) const;
template void H5DataSet::write_rows<std::int32_t>(const RowDistribution&,
                                                  std::span<const std::int32_t>) const;
template void H5DataSet::write_root<std::int32_t>(std::span<const std::int32_t>) const;
template std::vector<std::uint32_t> H5DataSet::read<std::uint32_t>() const;
template std::vector<std::uint32_t> H5DataSet::read_rows<std::uint32_t>(
    const RowDistribution&) const;
template void H5DataSet::write_rows<std::uint32_t>(const RowDistribution&,
                                                   std::span<const std::uint32_t>) const;
template void H5DataSet::write_root<std::uint32_t>(std::span<const std::uint32_t>) const;
template std::vector<std::uint8_t> H5DataSet::read<std::uint8_t>() const;
template std::vector<std::uint8_t> H5DataSet::read_rows<std::uint8_t>(const RowDistribution&) const;
template void H5DataSet::write_rows<std::uint8_t>(const RowDistribution&,
                                                  std::span<const std::uint8_t>) const;
template void H5DataSet::write_root<std::uint8_t>(std::span<const std::uint8_t>) const;

}  // namespace wormnet::io
