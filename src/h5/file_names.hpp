// Private to src/io: what file names the layers below wormnet accept, checked before a file
// is opened (a name too long for them crashed the MPI-IO layer with a buffer overflow).
#pragma once

#include <cstddef>
#include <string>

namespace wormnet::io::detail {

/// Longest path (in bytes) handed to MPI-IO: OpenMPI 4.1's shared-file-pointer component
/// formats "<path>.lockedfile" into a 256-byte buffer when the file is opened, and aborts
/// the process beyond that (256 - 11 - 1).
inline constexpr std::size_t kMaxMpiIoPath = 244;
/// Longest last component of such a path: the same layer names a file "<name>_cid-<id>-<n>.sm"
/// in a temporary directory, and file systems take at most 255 bytes per component.
inline constexpr std::size_t kMaxMpiIoName = 200;

/// Why `path` is too long for the file system or, when `mpi_io`, for the MPI-IO layer, or ""
/// when it is fine. `suffix` is appended by wormnet to the name the user gave (".partial"):
/// the limit stated in the message is the one on the user's name.
std::string name_length_problem(const std::string& path, bool mpi_io, const std::string& suffix);

/// Whether files of a communicator of `ranks` ranks go through MPI-IO (several ranks with MPI
/// running) rather than HDF5's POSIX driver.
bool uses_mpi_io(int ranks);

}  // namespace wormnet::io::detail
