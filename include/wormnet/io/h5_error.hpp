// The io layer's own failure type.
#pragma once

#include <stdexcept>
#include <string>

namespace wormnet::io {

/// Something inside an HDF5 file is not as the caller expects, or the file system failed:
/// an object missing, a stored type other than the one asked for, an I/O error. The message
/// is one line naming the file, the object path and the cause (HDF5's own diagnostic is
/// appended, its error-stack printing is always off).
///
/// Opening a file the user named throws wormnet::InputError instead (see H5File). Loaders of
/// user-supplied files (routing tables, checkpoints) should catch H5Error and rethrow it as
/// an InputError naming their option, since a file with the wrong content is bad input too.
class H5Error : public std::runtime_error {
 public:
  explicit H5Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace wormnet::io
