// Ownership of one HDF5 identifier (hid_t), without exposing <hdf5.h>.
#pragma once

#include <cstdint>

namespace wormnet::io {

/// Owns one reference to an HDF5 identifier of any kind (file, group, dataset, dataspace,
/// datatype, property list). Copies share the identifier (HDF5 reference count + 1); the
/// last owner to go releases it. hid_t is a 64-bit signed integer in HDF5 >= 1.10, checked
/// where <hdf5.h> is visible.
///
/// Releasing the last reference to a file identifier closes the file, which under the
/// MPI-IO driver is collective; that is why files are closed through H5File::close(), which
/// also closes the objects still open in the file (their handles then see an invalid id and
/// do nothing).
class H5Handle {
 public:
  H5Handle() = default;
  /// Takes over one reference that the caller owns (a freshly opened/created id).
  explicit H5Handle(std::int64_t id) : id_(id) {}
  H5Handle(const H5Handle& other);
  H5Handle& operator=(const H5Handle& other);
  H5Handle(H5Handle&& other) noexcept : id_(other.id_) { other.id_ = kInvalid; }
  H5Handle& operator=(H5Handle&& other) noexcept;
  ~H5Handle();

  /// The raw identifier (a hid_t), or a negative number when empty.
  [[nodiscard]] std::int64_t id() const { return id_; }
  [[nodiscard]] bool valid() const { return id_ >= 0; }
  /// Drops this reference now (errors are ignored: nothing sensible can be done with them).
  void reset();
  /// Gives up ownership without touching the reference count and returns the id.
  [[nodiscard]] std::int64_t release();

 private:
  static constexpr std::int64_t kInvalid = -1;
  std::int64_t id_ = kInvalid;
};

}  // namespace wormnet::io
