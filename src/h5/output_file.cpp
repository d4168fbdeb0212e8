#include "wormnet/h5/output_file.hpp"

#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <span>
#include <system_error>
#include <utility>

#include "file_names.hpp"
#include "file_sync.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/file_seal.hpp"
#include "wormnet/h5/h5_error.hpp"

namespace wormnet::io {

namespace {

namespace fs = std::filesystem;

/// Below this many free bytes a failed write is put down to a full file system.
constexpr unsigned long long kNearlyFullBytes = 4ULL << 20;
/// How long a rank whose write failed waits for the others to learn of it (seconds). They
/// are either about to (they finished the same collective call) or stuck in a collective of
/// the I/O layer the failing rank left, and never will.
constexpr double kAgreeSeconds = 20.0;
/// Exit code of a job whose output could not be written (README, main.cpp).
constexpr int kExitOutputFailed = 6;

/// Root's answer as the same text on every rank.
std::string shared_text(const Communicator& comm, std::string text) {
  if (comm.size() > 1) comm.broadcast(text, 0);
  return text;
}

std::string strip_trailing_slashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

/// Why `target` cannot be written as an output (root), or "".
std::string target_problem(const std::string& target, bool mpi_io) {
  if (target.empty()) return "no file name given";
  if (std::string problem = detail::name_length_problem(target, mpi_io, kPartialSuffix);
      !problem.empty()) {
    return problem;
  }
  std::error_code ec;
  const fs::path p(target);
  const fs::file_status st = fs::symlink_status(p, ec);
  const fs::file_status followed = fs::status(p, ec);
  if (fs::is_directory(followed)) return "is a directory, not a file";
  if (fs::exists(followed) && !fs::is_regular_file(followed)) {
    return "is not a regular file (a device, pipe or socket): wormnet writes its outputs "
           "beside the target and renames them over it";
  }
  if (fs::is_symlink(st) && !fs::exists(followed)) return "is a symbolic link to nothing";
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const fs::file_status dst = fs::status(dir, ec);
  std::string quoted_dir = "'";
  quoted_dir += dir.string();
  quoted_dir += "'";
  if (!fs::exists(dst)) return "directory " + quoted_dir + " does not exist";
  if (!fs::is_directory(dst)) return quoted_dir + " is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return "directory " + quoted_dir + " is not writable";
  // Root may write anything (access() says yes): a file nobody may write was protected on
  // purpose, whoever runs wormnet.
  constexpr fs::perms kAnyWrite =
      fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
  if (fs::exists(followed) &&
      (::access(p.c_str(), W_OK) != 0 || (followed.permissions() & kAnyWrite) == fs::perms::none)) {
    return "the existing file is write-protected (make it writable to replace it)";
  }
  std::string partial = target;
  partial += kPartialSuffix;
  const fs::file_status pst = fs::symlink_status(partial, ec);
  if (fs::exists(pst) && !fs::is_regular_file(pst)) {
    return "'" + partial + "' is in the way (not a regular file)";
  }
  std::string lock_suffix = kLockSuffix;  // the longest sibling: TARGET.lock.takeover
  lock_suffix += kTakeoverSuffix;
  return detail::name_length_problem(target, false, lock_suffix);
}

/// Why an earlier run's partial file of `target` stops this claim (root), or "".
std::string earlier_partial_problem(const std::string& target, EarlierPartial policy) {
  if (policy == EarlierPartial::kContinue || policy == EarlierPartial::kReplace) return "";
  std::string partial = target;
  partial += kPartialSuffix;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(partial, ec))) return "";
  std::string problem = "'" + partial +
                        "' was left by an earlier run that did not finish (killed, or stopped by "
                        "an error): ";
  if (policy == EarlierPartial::kRefuseOrRestart) {
    problem += "continue that run with --restart and its checkpoint directory, or ";
  }
  return problem + "remove it to start again";
}

/// The reason of the lowest rank that has one, on every rank; "" when no rank has one.
std::string first_reason(const Communicator& comm, std::string reason) {
  if (comm.size() == 1) return reason;
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  std::uint64_t first = reason.empty() ? ranks : static_cast<std::uint64_t>(comm.rank());
  comm.min(std::span<std::uint64_t>(&first, 1));
  if (first == ranks) return "";
  comm.broadcast(reason, static_cast<int>(first));
  return reason;
}

}  // namespace

OutputLock OutputLock::acquire(const Communicator& comm, const std::string& target,
                               const std::string& option) {
  OutputLock lock;
  lock.path_ = strip_trailing_slashes(target) + kLockSuffix;
  std::string problem;
  if (comm.is_root()) lock.file_ = LockFile::acquire(lock.path_, problem);
  problem = shared_text(comm, problem);
  if (!problem.empty()) throw InputError(option, target, problem);
  return lock;
}

OutputLock::OutputLock(OutputLock&& other) noexcept = default;
OutputLock& OutputLock::operator=(OutputLock&& other) noexcept = default;
OutputLock::~OutputLock() = default;

void OutputLock::release() {
  file_.release();
}

/// Root: creates the missing directories above `target`; the ones made, outermost first.
std::vector<std::string> create_parents(const std::string& target, std::string& error) {
  std::vector<std::string> made;
  const fs::path dir = fs::path(target).parent_path();
  if (dir.empty()) return made;
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto p = missing.rbegin(); p != missing.rend(); ++p) {
    if (!fs::create_directory(*p, ec) && ec) {
      error = "cannot create the directory '" + p->string() + "': " + ec.message();
      break;
    }
    made.push_back(p->string());
  }
  return made;
}

OutputFile OutputFile::claim(const Communicator& comm, const std::string& target,
                             const std::string& option, bool create_directory,
                             EarlierPartial partial) {
  OutputFile out;
  if (create_directory) {
    std::string error;
    if (comm.is_root()) out.created_dirs_ = create_parents(target, error);
    error = shared_text(comm, error);
    if (!error.empty()) {
      out.release();
      throw InputError(option, target, error);
    }
  }
  // A symbolic link stands for the file it points to: that file is replaced (the link is
  // left as it is) and the partial and lock files go beside it.
  std::string resolved = target;
  if (comm.is_root()) {
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(target, ec))) {
      const fs::path real = fs::canonical(target, ec);
      if (!ec) resolved = real.string();
    }
  }
  resolved = shared_text(comm, resolved);
  std::string problem =
      comm.is_root() ? target_problem(resolved, detail::uses_mpi_io(comm.size())) : std::string();
  problem = shared_text(comm, problem);
  if (!problem.empty()) {
    out.release();
    throw InputError(option, target, problem);
  }
  out.lock_ = OutputLock::acquire(comm, resolved, option);
  out.target_ = resolved;
  out.option_ = option;
  // Looked at under the lock: a partial file a live run is writing was refused above, naming
  // that run; what is left now is an earlier run's.
  problem = comm.is_root() ? earlier_partial_problem(resolved, partial) : std::string();
  problem = shared_text(comm, problem);
  if (!problem.empty()) {
    out.release();
    throw InputError(option, target, problem);
  }
  return out;
}

OutputFile::~OutputFile() {
  release();
}

void OutputFile::release() {
  lock_.release();
  if (!committed_) {
    // Only empty directories go (remove() refuses others); deepest first.
    std::error_code ec;
    for (auto d = created_dirs_.rbegin(); d != created_dirs_.rend(); ++d) fs::remove(*d, ec);
  }
  created_dirs_.clear();
}

void OutputFile::commit(const Communicator& comm, bool seal) {
  committed_ = true;
  failed_after_rename_ = false;
  std::string error;
  if (comm.is_root() && seal) {
    if (const std::string failed = seal_file(partial()); !failed.empty()) {
      error = "cannot seal '" + partial() + "': " + failed;
    }
  }
  error = shared_text(comm, error);
  if (!error.empty()) throw OutputError(target_, error);
  // Each rank's writes sit in its own node's page cache (MPI-IO); syncing on every rank that
  // may have written puts all of them on the disk before the new name can point at the file.
  std::string reason;
  if (comm.is_root() || detail::uses_mpi_io(comm.size())) reason = detail::sync_file(partial());
  reason = first_reason(comm, reason);
  if (!reason.empty()) {
    throw OutputError(target_, "cannot sync '" + partial() + "' to the disk (fsync): " + reason +
                                   "; it was not renamed over the target");
  }
  bool renamed = false;
  if (comm.is_root()) {
    reason = detail::rename_durably(partial(), target_, renamed);
    if (!renamed) {
      error = "cannot rename '" + partial() + "' over it: " + reason;
    } else if (!reason.empty()) {
      error = "renamed into place, but its directory could not be synced to the disk (fsync): " +
              reason + "; the new file may not survive a crash of the machine";
    }
  }
  error = shared_text(comm, error);
  if (error.empty()) return;
  failed_after_rename_ = comm.any(renamed);
  throw OutputError(target_, error);
}

bool OutputFile::partial_exists(const Communicator& comm) const {
  std::error_code ec;
  return comm.any(comm.is_root() && fs::is_regular_file(partial(), ec));
}

bool OutputFile::target_exists(const Communicator& comm) const {
  std::error_code ec;
  return comm.any(comm.is_root() && fs::is_regular_file(target_, ec));
}

void OutputFile::reclaim_target(const Communicator& comm) const {
  std::string error;
  if (comm.is_root()) {
    bool renamed = false;
    const std::string reason = detail::rename_durably(target_, partial(), renamed);
    if (!renamed) {
      error = "cannot rename '" + target_ + "' to it: " + reason;
    } else if (!reason.empty()) {
      error = "renamed from '" + target_ +
              "', but its directory could not be synced (fsync): " + reason;
    }
  }
  error = shared_text(comm, error);
  if (!error.empty()) throw OutputError(partial(), error);
}

void OutputFile::discard_partial(const Communicator& comm) const {
  if (comm.is_root()) ::unlink(partial().c_str());
}

void OutputFile::discard_after(const Communicator& comm, const OutputError& failure) const {
  discard_partial(comm);
  throw OutputError(failure.path(), failure.reason() +
                                        "; the partial file was removed, an earlier '" + target_ +
                                        "', if any, is unchanged");
}

void guarded_write(const Communicator& comm, const std::string& path,
                   const std::function<void()>& write) {
  std::string reason;
  bool failed = false;
  try {
    write();
  } catch (const H5Error& e) {
    failed = true;
    reason = !e.system_reason().empty() ? e.system_reason() : diagnose_write_failure(path);
  }
  // A rank whose write failed may have left a collective of the I/O layer that the other
  // ranks are still in (HDF5 does not make its errors collective): it waits a while for
  // them, then ends the job rather than wait for ever.
  const std::optional<bool> any = comm.any_within(failed, failed ? kAgreeSeconds : 0.0);
  if (!any) {
    std::fprintf(stderr,
                 "wormnet: error: cannot write '%s': %s (rank %d; the other ranks did not "
                 "answer within %.0f s, stuck in the I/O layer: the job is ended)\n",
                 path.c_str(), reason.c_str(), comm.rank(), kAgreeSeconds);
    std::fflush(stderr);
    comm.abort(kExitOutputFailed);
  }
  if (!*any) return;
  const auto me = static_cast<std::uint64_t>(failed ? comm.rank() : comm.size());
  std::uint64_t first = me;
  comm.min(std::span<std::uint64_t>(&first, 1));
  if (comm.size() > 1) comm.broadcast(reason, static_cast<int>(first));
  throw OutputError(path, reason);
}

std::string diagnose_write_failure(const std::string& path) {
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  struct statvfs vfs {};
  if (statvfs(dir.c_str(), &vfs) == 0) {
    const unsigned long long free_bytes = static_cast<unsigned long long>(vfs.f_bavail) *
                                          static_cast<unsigned long long>(vfs.f_frsize);
    if (free_bytes < kNearlyFullBytes) {
      return std::string(std::strerror(ENOSPC)) + " (" + std::to_string(free_bytes) +
             " bytes free)";
    }
    if ((vfs.f_flag & ST_RDONLY) != 0) return std::strerror(EROFS);
  }
  return "input/output error (the MPI-IO layer gave no reason; see its messages, if any)";
}

}  // namespace wormnet::io
