#include "wormnet/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <system_error>
#include <utility>

#include "file_names.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/io/file_seal.hpp"
#include "wormnet/io/h5_error.hpp"

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

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown-host";
  return buf;
}

/// What a lock file says about its holder: "wormnet <pid> <host> <job> <unix time>".
struct Holder {
  long pid = 0;
  std::string host;
  std::string job;
  long long since = 0;
  bool parsed = false;
};

std::string holder_line() {
  const char* job = std::getenv("SLURM_JOB_ID");
  return "wormnet " + std::to_string(static_cast<long>(getpid())) + " " + host_name() + " " +
         (job != nullptr && *job != '\0' ? std::string(job) : std::string("-")) + " " +
         std::to_string(static_cast<long long>(std::time(nullptr))) + "\n";
}

Holder read_holder(const std::string& lock) {
  Holder h;
  std::FILE* f = std::fopen(lock.c_str(), "r");
  if (f == nullptr) return h;
  char host[256] = {};
  char job[128] = {};
  h.parsed = std::fscanf(f, "wormnet %ld %255s %127s %lld", &h.pid, host, job, &h.since) == 4;
  std::fclose(f);
  h.host = host;
  h.job = job;
  return h;
}

/// A holder that certainly no longer runs: on this host, with no such process.
bool dead(const Holder& h) {
  return h.parsed && h.pid > 0 && h.host == host_name() &&
         kill(static_cast<pid_t>(h.pid), 0) != 0 && errno == ESRCH;
}

std::string describe(const Holder& h) {
  if (!h.parsed) return "a lock file wormnet cannot read";
  char when[64] = "?";
  const std::time_t t = static_cast<std::time_t>(h.since);
  std::tm tm{};
  if (localtime_r(&t, &tm) != nullptr) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
  return "wormnet process " + std::to_string(h.pid) + " on " + h.host +
         (h.job != "-" ? " (job " + h.job + ")" : std::string()) + " since " + when;
}

/// Root: creates `lock` exclusively, taking over a dead holder's file once. "" on success,
/// else why not.
std::string try_lock(const std::string& lock) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int fd = ::open(lock.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      const std::string line = holder_line();
      const bool written =
          ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
      const bool closed = ::close(fd) == 0;
      if (written && closed) return "";
      ::unlink(lock.c_str());
      return "cannot write the lock file '" + lock + "'";
    }
    if (errno != EEXIST) {
      return "cannot create the lock file '" + lock + "': " + std::strerror(errno);
    }
    const Holder h = read_holder(lock);
    if (attempt == 0 && dead(h)) {
      // Left by a process that died on this host (kill -9, a crash). Read it again right
      // before removing it, so that a lock another run took meanwhile is not removed.
      const Holder again = read_holder(lock);
      if (again.parsed && again.pid == h.pid && again.since == h.since) ::unlink(lock.c_str());
      continue;
    }
    return "another run is writing it: " + describe(h) + " holds '" + lock +
           "' (if that run is dead, remove the lock file)";
  }
  return "the lock file '" + lock + "' keeps reappearing: another run is starting";
}

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
  if (fs::exists(followed) && ::access(p.c_str(), W_OK) != 0) {
    return "the existing file is write-protected (make it writable to replace it)";
  }
  std::string partial = target;
  partial += kPartialSuffix;
  const fs::file_status pst = fs::symlink_status(partial, ec);
  if (fs::exists(pst) && !fs::is_regular_file(pst)) {
    return "'" + partial + "' is in the way (not a regular file)";
  }
  return detail::name_length_problem(target, false, kLockSuffix);
}

}  // namespace

OutputLock OutputLock::acquire(const Communicator& comm, const std::string& target,
                               const std::string& option) {
  OutputLock lock;
  lock.path_ = strip_trailing_slashes(target) + kLockSuffix;
  std::string problem;
  if (comm.is_root()) {
    problem = try_lock(lock.path_);
    lock.held_ = problem.empty();
  }
  problem = shared_text(comm, problem);
  if (!problem.empty()) throw InputError(option, target, problem);
  return lock;
}

OutputLock::OutputLock(OutputLock&& other) noexcept
    : path_(std::move(other.path_)), held_(std::exchange(other.held_, false)) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    held_ = std::exchange(other.held_, false);
  }
  return *this;
}

OutputLock::~OutputLock() {
  release();
}

void OutputLock::release() {
  if (!held_) return;
  held_ = false;
  ::unlink(path_.c_str());
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
                             const std::string& option, bool create_directory) {
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
  std::string error;
  if (comm.is_root() && seal) {
    if (const std::string failed = seal_file(partial()); !failed.empty()) {
      error = "cannot seal '" + partial() + "': " + failed;
    }
  }
  if (comm.is_root() && error.empty()) {
    std::error_code ec;
    fs::rename(partial(), target_, ec);
    if (ec) error = "cannot rename '" + partial() + "' over it: " + ec.message();
  }
  error = shared_text(comm, error);
  if (!error.empty()) throw OutputError(target_, error);
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
    std::error_code ec;
    fs::rename(target_, partial(), ec);
    if (ec) error = ec.message();
  }
  error = shared_text(comm, error);
  if (!error.empty())
    throw OutputError(partial(), "cannot rename '" + target_ + "' to it: " + error);
}

void OutputFile::discard_partial(const Communicator& comm) const {
  if (comm.is_root()) ::unlink(partial().c_str());
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
