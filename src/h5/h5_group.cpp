#include "wormnet/h5/h5_group.hpp"

#include <string>
#include <utility>

#include "h5_api.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet::io {

namespace {

using detail::check;
using detail::check_id;
using detail::fail;

/// The HDF5 identifier type of the object at `path` (which must exist).
H5I_type_t object_kind(hid_t loc, const std::string& path) {
  H5Handle obj(
      check_id(H5Oopen(loc, path.c_str(), H5P_DEFAULT), loc, "cannot open '" + path + "'"));
  return H5Iget_type(obj.id());
}

herr_t collect_member(hid_t /*group*/, const char* name, const H5L_info_t* /*info*/, void* client) {
  static_cast<std::vector<std::string>*>(client)->emplace_back(name);
  return 0;
}

/// Dataset creation properties shared by every dataset: storage allocated at creation and
/// filled with an explicit 0. Without an explicit fill value HDF5 leaves new storage
/// unwritten, and a collective write with holes (rows no rank holds) then fills the holes
/// with whatever the MPI-IO aggregator's buffer held before (seen with both OMPIO and ROMIO
/// of OpenMPI 4.1): the holes must hold real zeros on disk before the write.
H5Handle creation_list(hid_t where, ElementType type) {
  H5Handle dcpl(check_id(H5Pcreate(H5P_DATASET_CREATE), where, "cannot create dcpl"));
  const std::uint64_t zero = 0;  // 8 zero bytes: 0 in every element type
  check(H5Pset_fill_value(dcpl.id(), detail::native_type(type), &zero), where,
        "cannot set the fill value");
  check(H5Pset_alloc_time(dcpl.id(), H5D_ALLOC_TIME_EARLY), where, "cannot set alloc time");
  check(H5Pset_fill_time(dcpl.id(), H5D_FILL_TIME_ALLOC), where, "cannot set fill time");
  return dcpl;
}

}  // namespace

H5Group::H5Group(H5Handle handle, Communicator comm)
    : H5Object(std::move(handle), std::move(comm)) {}

bool H5Group::exists(std::string_view path) const {
  const std::string p(path);
  if (p.empty()) return false;
  // H5Lexists fails (rather than answering false) when a group on the way is missing, so
  // walk the path one component at a time.
  for (std::size_t slash = p.find('/', 1); slash != std::string::npos;
       slash = p.find('/', slash + 1)) {
    const std::string prefix = p.substr(0, slash);
    const htri_t found = H5Lexists(native_id(), prefix.c_str(), H5P_DEFAULT);
    if (found <= 0) return false;
  }
  const htri_t found = H5Lexists(native_id(), p.c_str(), H5P_DEFAULT);
  if (found <= 0) return false;
  return H5Oexists_by_name(native_id(), p.c_str(), H5P_DEFAULT) > 0;
}

bool H5Group::has_group(std::string_view path) const {
  return exists(path) && object_kind(native_id(), std::string(path)) == H5I_GROUP;
}

bool H5Group::has_dataset(std::string_view path) const {
  return exists(path) && object_kind(native_id(), std::string(path)) == H5I_DATASET;
}

std::vector<std::string> H5Group::member_names() const {
  std::vector<std::string> names;
  hsize_t index = 0;
  check(H5Literate(native_id(), H5_INDEX_NAME, H5_ITER_INC, &index, collect_member, &names),
        native_id(), "cannot list members");
  return names;
}

H5Group H5Group::create_group(std::string_view path) const {
  const std::string p(path);
  if (exists(p)) fail(native_id(), "cannot create group '" + p + "': it exists");
  H5Handle lcpl(check_id(H5Pcreate(H5P_LINK_CREATE), native_id(), "cannot create lcpl"));
  check(H5Pset_create_intermediate_group(lcpl.id(), 1), native_id(), "cannot set lcpl");
  return H5Group(
      H5Handle(check_id(H5Gcreate2(native_id(), p.c_str(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT),
                        native_id(), "cannot create group '" + p + "'")),
      communicator());
}

H5Group H5Group::open_group(std::string_view path) const {
  const std::string p(path);
  if (!exists(p)) fail(native_id(), "group '" + p + "' is missing");
  if (object_kind(native_id(), p) != H5I_GROUP) fail(native_id(), "'" + p + "' is not a group");
  return H5Group(H5Handle(check_id(H5Gopen2(native_id(), p.c_str(), H5P_DEFAULT), native_id(),
                                   "cannot open group '" + p + "'")),
                 communicator());
}

void H5Group::remove(std::string_view path) const {
  const std::string p(path);
  if (!exists(p)) return;
  check(H5Ldelete(native_id(), p.c_str(), H5P_DEFAULT), native_id(), "cannot remove '" + p + "'");
}

H5Group H5Group::require_group(std::string_view path) const {
  return exists(path) ? open_group(path) : create_group(path);
}

H5DataSet H5Group::open_dataset(std::string_view path) const {
  const std::string p(path);
  if (!exists(p)) fail(native_id(), "dataset '" + p + "' is missing");
  if (object_kind(native_id(), p) != H5I_DATASET) {
    fail(native_id(), "'" + p + "' is not a dataset");
  }
  return H5DataSet(H5Handle(check_id(H5Dopen2(native_id(), p.c_str(), H5P_DEFAULT), native_id(),
                                     "cannot open dataset '" + p + "'")),
                   communicator());
}

H5DataSet H5Group::create_dataset(std::string_view name, ElementType type,
                                  const Shape& shape) const {
  const std::string n(name);
  if (exists(n)) fail(native_id(), "cannot create dataset '" + n + "': it exists");
  const std::vector<hsize_t> dims = detail::to_hsize(shape);
  H5Handle space(check_id(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                          native_id(), "cannot create the dataspace of '" + n + "'"));
  const H5Handle dcpl = creation_list(native_id(), type);
  H5Handle lcpl(check_id(H5Pcreate(H5P_LINK_CREATE), native_id(), "cannot create lcpl"));
  check(H5Pset_create_intermediate_group(lcpl.id(), 1), native_id(), "cannot set lcpl");
  return H5DataSet(H5Handle(check_id(H5Dcreate2(native_id(), n.c_str(), detail::file_type(type),
                                                space.id(), lcpl.id(), dcpl.id(), H5P_DEFAULT),
                                     native_id(), "cannot create dataset '" + n + "'")),
                   communicator());
}

H5DataSet H5Group::create_extendible_dataset(std::string_view name, ElementType type,
                                             std::uint64_t rows, const Shape& row_shape,
                                             std::uint64_t chunk_rows) const {
  require(chunk_rows > 0, "create_extendible_dataset: chunk_rows must be positive");
  const std::string n(name);
  if (exists(n)) fail(native_id(), "cannot create dataset '" + n + "': it exists");
  std::vector<hsize_t> dims{rows};
  std::vector<hsize_t> max_dims{H5S_UNLIMITED};
  std::vector<hsize_t> chunk{chunk_rows};
  for (const std::uint64_t d : row_shape) {
    dims.push_back(d);
    max_dims.push_back(d);
    chunk.push_back(d);
  }
  const int rank = static_cast<int>(dims.size());
  H5Handle space(check_id(H5Screate_simple(rank, dims.data(), max_dims.data()), native_id(),
                          "cannot create the dataspace of '" + n + "'"));
  const H5Handle dcpl = creation_list(native_id(), type);
  check(H5Pset_chunk(dcpl.id(), rank, chunk.data()), native_id(),
        "cannot chunk dataset '" + n + "'");
  H5Handle lcpl(check_id(H5Pcreate(H5P_LINK_CREATE), native_id(), "cannot create lcpl"));
  check(H5Pset_create_intermediate_group(lcpl.id(), 1), native_id(), "cannot set lcpl");
  return H5DataSet(H5Handle(check_id(H5Dcreate2(native_id(), n.c_str(), detail::file_type(type),
                                                space.id(), lcpl.id(), dcpl.id(), H5P_DEFAULT),
                                     native_id(), "cannot create dataset '" + n + "'")),
                   communicator());
}

template <H5Element T>
H5DataSet H5Group::write_dataset(std::string_view name, std::span<const T> data,
                                 const Shape& shape) const {
  std::vector<std::uint64_t> dims = shape.empty() ? Shape{data.size()} : shape;
  detail::broadcast_values(communicator(), dims);
  const H5DataSet ds = create_dataset(name, element_type_of<T>(), dims);
  ds.write_root(data);
  return ds;
}

template <H5Element T>
H5DataSet H5Group::write_distributed(std::string_view name, const RowDistribution& rows,
                                     std::span<const T> local, const Shape& row_shape) const {
  Shape dims{rows.global_rows()};
  dims.insert(dims.end(), row_shape.begin(), row_shape.end());
  const H5DataSet ds = create_dataset(name, element_type_of<T>(), dims);
  ds.write_rows(rows, local);
  return ds;
}

// The element types of H5Element, instantiated here once for every client.
template H5DataSet H5Group::write_dataset<double>(std::string_view, std::span<const double>,
                                                  const Shape&) const;
template H5DataSet H5Group::write_dataset<std::int64_t>(std::string_view,
                                                        std::span<const std::int64_t>,
                                                        const Shape&) const;
template H5DataSet H5Group::write_dataset<std::uint64_t>(std::string_view,
                                                         std::span<const std::uint64_t>,
                                                         const Shape&) const;
template H5DataSet H5Group::write_dataset<std::int32_t>(std::string_view,
                                                        std::span<const std::int32_t>,
                                                        const Shape&) const;
template H5DataSet H5Group::write_dataset<std::uint32_t>(std::string_view,
                                                         std::span<const std::uint32_t>,
                                                         const Shape&) const;
template H5DataSet H5Group::write_dataset<std::uint8_t>(std::string_view,
                                                        std::span<const std::uint8_t>,
                                                        const Shape&) const;
template H5DataSet H5Group::write_distributed<double>(std::string_view, const RowDistribution&,
                                                      std::span<const double>, const Shape&) const;
template H5DataSet H5Group::write_distributed<std::int64_t>(std::string_view,
                                                            const RowDistribution&,
                                                            std::span<const std::int64_t>,
                                                            const Shape&) const;
template H5DataSet H5Group::write_distributed<std::uint64_t>(std::string_view,
                                                             const RowDistribution&,
                                                             std::span<const std::uint64_t>,
                                                             const Shape&) const;
template H5DataSet H5Group::write_distributed<std::int32_t>(std::string_view,
                                                            const RowDistribution&,
                                                            std::span<const std::int32_t>,
                                                            const Shape&) const;
template H5DataSet H5Group::write_distributed<std::uint32_t>(std::string_view,
                                                             const RowDistribution&,
                                                             std::span<const std::uint32_t>,
                                                             const Shape&) const;
template H5DataSet H5Group::write_distributed<std::uint8_t>(std::string_view,
                                                            const RowDistribution&,
                                                            std::span<const std::uint8_t>,
                                                            const Shape&) const;

}  // namespace wormnet::io
