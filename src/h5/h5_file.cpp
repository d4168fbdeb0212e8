#include "wormnet/h5/h5_file.hpp"

#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "file_names.hpp"
#include "h5_api.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/file_seal.hpp"
#include "wormnet/h5/h5_error.hpp"

namespace wormnet::io {

namespace {

namespace fs = std::filesystem;

enum class Access { kCreate, kReadOnly, kReadWrite };

/// Hash slots of the raw-data chunk cache; with a 0-byte cache the value does not matter
/// (HDF5's default).
constexpr std::size_t kChunkCacheSlots = 521;

/// Exit code of a job whose ranks disagree on whether a file opened (internal error).
constexpr int kExitInconsistentOpen = 3;

/// Why `path` cannot be used (as seen from this process), or "" when it looks fine. The
/// checks run before HDF5 so that the common mistakes get a precise reason, and so that MPI-IO
/// is never handed a directory or a name too long for it (some MPI-IO layers print to stderr
/// on the first and overflow a buffer on the second).
std::string path_problem(const std::string& path, Access access, bool mpi_io) {
  if (path.empty())
    return access == Access::kCreate ? "cannot create file (empty path)"
                                     : "file does not exist (empty path)";
  if (std::string too_long = detail::name_length_problem(path, mpi_io, ""); !too_long.empty()) {
    return too_long;
  }
  std::error_code ec;
  const fs::path p(path);
  const fs::file_status st = fs::status(p, ec);
  if (access == Access::kCreate) {
    if (fs::is_directory(st)) return "cannot create file (the path is a directory)";
    if (fs::exists(st) && !fs::is_regular_file(st)) {
      return "cannot create file (not a regular file: a device, pipe or socket)";
    }
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    const fs::file_status dst = fs::status(dir, ec);
    if (!fs::exists(dst)) {
      return "cannot create file (directory '" + dir.string() + "' does not exist)";
    }
    if (!fs::is_directory(dst)) {
      return "cannot create file ('" + dir.string() + "' is not a directory)";
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
      return "cannot create file (directory '" + dir.string() + "' is not writable)";
    }
    if (fs::exists(st) && ::access(p.c_str(), W_OK) != 0) {
      return "cannot create file (the existing file is not writable)";
    }
    return "";
  }
  if (!fs::exists(st)) return "file does not exist";
  if (fs::is_directory(st)) return "is a directory, not an HDF5 file";
  if (!fs::is_regular_file(st)) return "is not a regular file";
  if (::access(p.c_str(), R_OK) != 0) return "file is not readable";
  if (access == Access::kReadWrite && ::access(p.c_str(), W_OK) != 0) {
    return "file is not writable";
  }
  return "";
}

/// The number after `key` in `text` ("eof = 5000, ..."), or nullopt.
std::optional<unsigned long long> number_after(const std::string& text, const std::string& key) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t begin = at + key.size();
  const std::size_t end = text.find_first_not_of("0123456789", begin);
  if (end == begin) return std::nullopt;
  return std::stoull(text.substr(begin, end - begin));
}

/// The reason HDF5 gave for a failed create/open, phrased for the user. Reads the error
/// stack, so it must come right after the failed call.
std::string hdf5_problem(Access access) {
  if (access == Access::kCreate) return "cannot create file (" + detail::error_detail() + ")";
  if (detail::innermost_error_is(H5E_NOTHDF5)) return "not an HDF5 file";
  if (detail::innermost_error_is(H5E_TRUNCATED)) {
    // HDF5 says "truncated file: eof = <size>, sblock->base_addr = 0, stored_eof = <size>".
    const std::string detail = detail::error_detail();
    const auto have = number_after(detail, " eof = ");
    const auto need = number_after(detail, "stored_eof = ");
    if (have && need) {
      return "HDF5 file is truncated (" + std::to_string(*have) + " of " + std::to_string(*need) +
             " bytes present: an interrupted copy or a full disk?)";
    }
    return "HDF5 file is truncated (" + detail + ")";
  }
  return "cannot open as HDF5 (" + detail::error_detail() + ")";
}

/// File access through MPI-IO on a communicator of several ranks; through HDF5's POSIX
/// (sec2) driver for one rank, where MPI-IO brings nothing but its limits: the POSIX driver
/// reports the system's reason for a failed write ("No space left on device"), where MPI-IO
/// reports none and some of its layers print their own lines on stderr.
H5Handle file_access_list(const Communicator& comm) {
  H5Handle fapl(detail::check_id(H5Pcreate(H5P_FILE_ACCESS), -1, "cannot create a fapl"));
  if (detail::uses_mpi_io(comm.size())) {
    const MPI_Comm mpi = *static_cast<const MPI_Comm*>(comm.native_handle());
    detail::check(H5Pset_fapl_mpio(fapl.id(), mpi, MPI_INFO_NULL), -1,
                  "cannot select the MPI-IO driver");
  } else {
    require(comm.size() == 1, "H5File: a communicator of several ranks without MPI running");
    // HDF5's own flock() locking would keep readers (h5py watching a running job) out while
    // wormnet writes, and fails on file systems without flock; outputs are locked by
    // wormnet instead (output_file.hpp).
    detail::check(H5Pset_file_locking(fapl.id(), false, true), -1,
                  "cannot switch off HDF5's file locking");
  }
  // No raw-data chunk cache, as a precaution: with MPI-IO, HDF5 moves raw data around that
  // cache anyway, but a few operations still go through it (shrinking a chunked dataset
  // fills the cut-off part of its last chunk there), and a chunk cached by one rank would go
  // stale as soon as another rank writes it.
  detail::check(H5Pset_cache(fapl.id(), 0, kChunkCacheSlots, 0, 0.0), -1,
                "cannot switch off the chunk cache");
  return fapl;
}

/// Opens or creates `path` on every rank of `comm`: the same outcome everywhere, either a
/// file id or an InputError with root's reason.
H5Handle open_collectively(const Communicator& comm, const std::string& path,
                           std::string_view option, Access access, bool sealed = false) {
  detail::silence_hdf5_errors();
  // Root inspects the path for everyone (on a shared file system they all see the same).
  std::string problem =
      comm.is_root() ? path_problem(path, access, detail::uses_mpi_io(comm.size())) : std::string();
  detail::broadcast_text(comm, problem);
  if (!problem.empty()) throw InputError(std::string(option), path, problem);

  hid_t id = H5I_INVALID_HID;
  bool write_failed = false;
  {
    const H5Handle fapl = file_access_list(comm);
    // Released after the error stack is read below, like fapl (releasing clears the stack).
    H5Handle fcpl(detail::check_id(H5Pcreate(H5P_FILE_CREATE), -1, "cannot create a fcpl"));
    if (sealed) {
      detail::check(H5Pset_userblock(fcpl.id(), kSealBytes), -1, "cannot reserve the user block");
    }
    switch (access) {
      case Access::kCreate:
        id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.id(), fapl.id());
        break;
      case Access::kReadOnly:
        id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.id());
        break;
      case Access::kReadWrite:
        id = H5Fopen(path.c_str(), H5F_ACC_RDWR, fapl.id());
        break;
    }
    // Read HDF5's error stack now: the next HDF5 call (releasing fapl) clears it. A create
    // that failed writing (a full disk) is the file system's refusal, not bad input.
    if (id < 0) {
      write_failed = access == Access::kCreate && detail::innermost_error_is(H5E_WRITEERROR);
      problem = write_failed ? detail::system_error_detail() : hdf5_problem(access);
      if (write_failed && problem.empty()) problem = "cannot write the file";
    }
  }
  H5Eclear2(H5E_DEFAULT);
  const bool failed_here = id < 0;
  if (!comm.any(failed_here)) return H5Handle(id);
  if (!failed_here) {
    // Some ranks opened the file and others could not (a path that is not on a file system
    // all ranks share): the ranks holding it cannot close it alone. End the job cleanly.
    std::fprintf(stderr,
                 "wormnet: rank %d: %s '%s': opened here but not on every rank "
                 "(is the file system shared by all ranks?)\n",
                 comm.rank(), std::string(option).c_str(), path.c_str());
    comm.abort(kExitInconsistentOpen);
  }
  detail::broadcast_text(comm, problem);
  if (comm.any(comm.is_root() && write_failed)) throw OutputError(path, problem);
  throw InputError(std::string(option), path, problem);
}

}  // namespace

H5File::H5File(H5Handle handle, Communicator comm, std::string path, bool read_only)
    : handle_(std::move(handle)),
      comm_(std::move(comm)),
      path_(std::move(path)),
      read_only_(read_only),
      uncaught_at_open_(std::uncaught_exceptions()) {}

H5File H5File::create(const Communicator& comm, const std::string& path, std::string_view option) {
  return create(comm, path, option, false);
}

H5File H5File::create(const Communicator& comm, const std::string& path, std::string_view option,
                      bool sealed) {
  return H5File(open_collectively(comm, path, option, Access::kCreate, sealed), comm, path, false);
}

H5File H5File::open_read_only(const Communicator& comm, const std::string& path,
                              std::string_view option) {
  return H5File(open_collectively(comm, path, option, Access::kReadOnly), comm, path, true);
}

H5File H5File::open_read_write(const Communicator& comm, const std::string& path,
                               std::string_view option) {
  return H5File(open_collectively(comm, path, option, Access::kReadWrite), comm, path, false);
}

H5File::~H5File() {
  if (!handle_.valid()) return;
  if (std::uncaught_exceptions() > uncaught_at_open_ && comm_.size() > 1) {
    // Unwinding: maybe on this rank only (a broken invariant on its way to MPI_Abort), and
    // a collective close would then wait forever for the others. Leave the file to HDF5,
    // which closes what is still open when MPI is finalized on every rank. (A one-rank file
    // has no one to wait for: it is closed, as a failed write needs it to be.)
    static_cast<void>(handle_.release());
    return;
  }
  try {
    close();
  } catch (const std::exception&) {
    // Nothing sensible to do in a destructor; close() explicitly to see the error.
  }
}

H5Group H5File::root() const {
  require(is_open(), "H5File::root on a closed file");
  return H5Group(H5Handle(detail::check_id(H5Gopen2(handle_.id(), "/", H5P_DEFAULT), handle_.id(),
                                           "cannot open the root group")),
                 comm_);
}

void H5File::flush() const {
  require(is_open(), "H5File::flush on a closed file");
  if (read_only_) return;
  detail::check(H5Fflush(handle_.id(), H5F_SCOPE_GLOBAL), handle_.id(), "cannot flush");
}

void H5File::close() {
  if (!handle_.valid()) return;
  const hid_t id = handle_.id();
  std::optional<H5Error> failed;
  const auto record = [&](const char* what) {
    if (failed) return;
    const std::string detail = detail::error_detail();
    failed = H5Error(path_ + ": " + what + (detail.empty() ? "" : " (HDF5: " + detail + ")"),
                     detail::system_error_detail());
    H5Eclear2(H5E_DEFAULT);
  };
  // Objects opened from this file id (H5F_OBJ_LOCAL), held by H5Group / H5DataSet copies
  // that may outlive this call: drop every reference so that the file can close. Their
  // H5Handles then find the ids invalid and leave them alone (HDF5 1.10 numbers ids from a
  // counter and does not hand out a closed id again).
  const unsigned kinds =
      H5F_OBJ_DATASET | H5F_OBJ_GROUP | H5F_OBJ_DATATYPE | H5F_OBJ_ATTR | H5F_OBJ_LOCAL;
  const ssize_t open_objects = H5Fget_obj_count(id, kinds);
  if (open_objects > 0) {
    std::vector<hid_t> ids(static_cast<std::size_t>(open_objects));
    const ssize_t listed = H5Fget_obj_ids(id, kinds, ids.size(), ids.data());
    for (ssize_t k = 0; k < listed; ++k) {
      const hid_t obj = ids[static_cast<std::size_t>(k)];
      while (H5Iis_valid(obj) > 0 && H5Idec_ref(obj) > 0) {
      }
    }
  }
  H5Eclear2(H5E_DEFAULT);
  // Through MPI-IO, what each rank wrote reaches the storage with MPI_File_sync, which
  // HDF5's MPI-IO driver calls on a flush but skips on the flush of a close (HDF5 1.10
  // H5FD__mpio_flush): a file that was written is flushed, collectively, before it is closed.
  // (The rest, what the close itself writes, is synced by OutputFile::commit on every rank.)
  if (!read_only_ && detail::uses_mpi_io(comm_.size()) && H5Fflush(id, H5F_SCOPE_GLOBAL) < 0) {
    record("cannot flush");
  }
  // A close that fails (its flush hit a full disk) leaves the file half torn down: HDF5
  // 1.10 can then no longer shut down cleanly (its metadata cache is left mid-flush), which
  // is why wormnet ends at once after a failed write (main.cpp).
  if (H5Fclose(handle_.release()) < 0) record("cannot close");
  if (failed) throw *failed;
}

}  // namespace wormnet::io
