// TARGET.lock: one writer per output file (output_file.hpp), on every POSIX and cluster file
// system, with an atomic takeover of a lock whose holder is provably dead.
//
// Why a file created with O_EXCL rather than flock() or fcntl() locks: flock() is refused or
// only local to a node on some cluster file systems (Lustre mounted without -o flock, NFS
// clients before Linux 2.6.12), and fcntl() locks on NFS rest on a lock manager and leases
// that a client cut off from its server loses; an exclusive create is atomic on all of them
// (NFSv3 and later included), and the file also tells a refused user who holds it. Its cost: a
// holder that dies (kill -9, a node crash) leaves the file behind, and the next run must judge
// whether that holder is dead.
//
// The file holds one line:
//
//   wormnet <pid> <host> <job> <since> <boot id> <pid namespace>
//
// (job: $SLURM_JOB_ID or "-"; since: Unix time; boot id: /proc/sys/kernel/random/boot_id;
// pid namespace: the inode of /proc/self/ns/pid, "-" where /proc does not say.)
//
// A holder is provably dead only when its host name, boot id and pid namespace are this
// process's and no process has its pid (kill(pid, 0) fails with ESRCH). A holder on another
// host, under another kernel with the same host name (a container of that name on another
// machine), in another pid namespace (a container beside this one), or a line of another
// form (an earlier wormnet) may be alive: such a lock is never taken over, and the refusal
// says to remove it by hand once that run is gone.
//
// The takeover of a dead holder's lock is atomic: the taker creates LOCK.takeover
// exclusively with its own line, reads LOCK again, and only when LOCK still holds the same
// dead holder's line renames LOCK.takeover over it. Creating LOCK is exclusive, and an
// existing LOCK is replaced only under LOCK.takeover, which one process at a time holds, so
// two processes never both believe they hold LOCK (tests/unit/io/parallel/output_file_test.cpp
// races several). A process that finds LOCK.takeover waits briefly for the takeover to end; one
// left by a taker that died is not removed (that would need the same judgement again): the
// refusal names it.
#pragma once

#include <string>

namespace wormnet::io {

/// Suffix of the file that serializes takeovers of LOCK (see above).
inline constexpr const char* kTakeoverSuffix = ".takeover";

/// A lock file held by this process while the object lives (or until release()).
class LockFile {
 public:
  /// Takes the lock `path`: creates it, or takes it over from a provably dead holder. On
  /// failure returns an unheld LockFile and sets `why` to the reason, a clause for the
  /// user's message that names the holder and, where the user must act, what to remove.
  static LockFile acquire(const std::string& path, std::string& why);

  LockFile() = default;
  LockFile(LockFile&& other) noexcept;
  LockFile& operator=(LockFile&& other) noexcept;
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;
  ~LockFile();

  /// Removes the lock file when it still holds this process's line. Idempotent.
  void release();
  [[nodiscard]] bool held() const { return held_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string line_;  ///< what this process wrote into the file
  bool held_ = false;
};

}  // namespace wormnet::io
