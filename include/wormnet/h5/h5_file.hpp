// One HDF5 file, opened by all ranks of a communicator together through MPI-IO.
#pragma once

#include <string>
#include <string_view>

#include "wormnet/h5/h5_group.hpp"
#include "wormnet/h5/h5_handle.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::io {

/// An HDF5 file shared by every rank of a Communicator: through MPI-IO for several ranks,
/// through HDF5's POSIX (sec2) driver for one rank (also in a process without MPI, a serial
/// tool or unit test); the file and the behaviour are the same, and the POSIX driver reports
/// the system's reason for a failed write. Creating, opening, flushing and closing are
/// collective. Names too long for the layers below (MPI-IO copies names into fixed buffers)
/// are refused before anything is opened.
///
/// Files use HDF5's default, oldest compatible format (superblock version 0), which h5py
/// and every HDF5 >= 1.8 read, and which, unlike the 1.10 "latest" format, does not refuse
/// to open a file whose writer was killed.
///
/// Opening the file a user named can fail for reasons that are the user's: those throw
/// wormnet::InputError naming `option` (for example "-o"), the path and the reason, the
/// same on every rank. A create the file system refuses while writing (a full disk) throws
/// wormnet::OutputError instead. HDF5's error-stack printing is switched off before the
/// first call, so users never see HDF5 traces; its diagnostic is folded into the message.
///
/// close() also closes every group, dataset and table still open in the file (MPI-IO
/// needs a file closed with nothing left open); objects used after that throw H5Error. A
/// file still open when its H5File is destroyed is closed then, collectively, except while
/// an exception unwinds the stack: that may happen on one rank only (a broken invariant on
/// its way to MPI_Abort), where a collective close would hang, so the file is left to HDF5,
/// which closes it when MPI is finalized on every rank. A file abandoned that way keeps the
/// status "running" (see run_status.hpp).
class H5File {
 public:
  /// Creates `path`, truncating an existing file. InputError when the directory is missing
  /// or not writable, or the path is a directory or another non-regular file. Outputs the
  /// user names go through OutputFile (output_file.hpp), which creates their partial
  /// sibling with this.
  static H5File create(const Communicator& comm, const std::string& path, std::string_view option);
  /// As create(); with `sealed`, the file gets the user block its seal is written into
  /// after it is closed (file_seal.hpp).
  static H5File create(const Communicator& comm, const std::string& path, std::string_view option,
                       bool sealed);
  /// Opens an existing file for reading. InputError when it is missing, not a regular
  /// file, not HDF5 at all, or truncated.
  static H5File open_read_only(const Communicator& comm, const std::string& path,
                               std::string_view option);
  /// Opens an existing file for reading and writing (e.g. to continue a run); errors as
  /// open_read_only(), plus a file that cannot be written.
  static H5File open_read_write(const Communicator& comm, const std::string& path,
                                std::string_view option);

  H5File(H5File&& other) noexcept = default;
  /// Not assignable: assigning over an open file would hide a collective close.
  H5File& operator=(H5File&& other) = delete;
  H5File(const H5File&) = delete;
  H5File& operator=(const H5File&) = delete;
  ~H5File();

  /// The root group "/".
  [[nodiscard]] H5Group root() const;
  /// Collective. Writes every buffer and HDF5's metadata to the file (H5Fflush, global
  /// scope) so that the file on disk is complete as of now: a process killed afterwards,
  /// before the next write, leaves a file that opens with everything written so far.
  void flush() const;
  /// Collective. Closes every object still open in the file, then flushes and closes it.
  void close();

  [[nodiscard]] bool is_open() const { return handle_.valid(); }
  [[nodiscard]] bool read_only() const { return read_only_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const Communicator& communicator() const { return comm_; }

 private:
  H5File(H5Handle handle, Communicator comm, std::string path, bool read_only);
  H5Handle handle_;
  Communicator comm_;
  std::string path_;
  bool read_only_ = false;
  /// std::uncaught_exceptions() when the file was opened: more now means we are unwinding.
  int uncaught_at_open_ = 0;
};

}  // namespace wormnet::io
