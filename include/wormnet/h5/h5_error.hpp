// The h5 layer's own failure type.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace wormnet::io {

/// Something inside an HDF5 file is not as the caller expects, or the file system failed:
/// an object missing, a stored type other than the one asked for, an I/O error. The message
/// is one line naming the file, the object path and the cause (HDF5's own diagnostic is
/// appended, its error-stack printing is always off).
///
/// Opening a file the user named throws wormnet::InputError instead (see H5File). Loaders of
/// user-supplied files (routing tables, checkpoints) should catch H5Error and rethrow it as
/// an InputError naming their option, since a file with the wrong content is bad input too.
///
/// When the failure came from the operating system (a write on a full disk, a read error),
/// system_reason() holds its message ("No space left on device") as HDF5 reported it; it is
/// empty when HDF5 gave none (the MPI-IO driver does not pass errno on).
class H5Error : public std::runtime_error {
 public:
  explicit H5Error(const std::string& what, std::string system_reason = "")
      : std::runtime_error(what), system_reason_(std::move(system_reason)) {}

  [[nodiscard]] const std::string& system_reason() const { return system_reason_; }

 private:
  std::string system_reason_;
};

}  // namespace wormnet::io
