// The life of every file wormnet writes (results, sweep points, checkpoints, routing tables,
// table studies, workload traces): nothing the user already has is lost, no two runs write
// one file, and what is published survives a crash of the machine.
//
//   TARGET.lock     held while a run writes TARGET (lock_file.hpp: created exclusively,
//                   holding the writer's process, host, job, boot and pid namespace); a second
//                   run that wants TARGET is refused naming the holder. A lock whose holder is
//                   provably dead (this host, boot and pid namespace, no such process) is
//                   taken over atomically; any other must be removed by hand.
//   TARGET.partial  what the run writes, flushed as it goes (a run killed with kill -9 leaves
//                   it, readable, with status "running"). A new run that finds one refuses
//                   to start (EarlierPartial) rather than replace it.
//   TARGET          replaced by TARGET.partial only by commit(), when the run has finished
//                   writing it: the file is synced to the disk (fsync on every rank that wrote
//                   it), renamed over TARGET (atomic within the directory), and the directory
//                   synced; until then an earlier TARGET stays as it was, after a failure too.
//
// The layout of each file and the statuses are in docs/hdf5-schema.md.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/h5/lock_file.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::io {

/// Suffixes of the sibling files (see above).
inline constexpr const char* kPartialSuffix = ".partial";
inline constexpr const char* kLockSuffix = ".lock";

/// TARGET.lock (lock_file.hpp), held by root for as long as this object lives (or until
/// release()).
class OutputLock {
 public:
  /// Collective; root acts. InputError naming `option` and `target` when another process
  /// holds the lock or may (its host, process id and job id in the message, and what to
  /// remove once it is gone) or the lock file cannot be created.
  static OutputLock acquire(const Communicator& comm, const std::string& target,
                            const std::string& option);
  OutputLock() = default;
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  /// Releases the lock (local to root: safe while an exception unwinds on one rank).
  ~OutputLock();

  /// Removes the lock file if this process holds it. Idempotent, not collective.
  void release();
  [[nodiscard]] bool held() const { return file_.held(); }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  LockFile file_;  ///< on root: held while this process owns the lock
};

/// What OutputFile::claim() does with a TARGET.partial an earlier run left (killed, or
/// stopped by an error).
enum class EarlierPartial {
  kRefuse,           ///< refused: "remove it to start again"
  kRefuseOrRestart,  ///< refused, naming --restart, which continues it (results of run, sweep)
  kContinue,         ///< left to the caller, which continues it (the results of a --restart)
  kReplace,          ///< written over: it never holds anything to keep (a checkpoint's, whose
                     ///< previous version is the target; a trace a --restart writes again)
};

/// An output file claimed by this run: locked, checked, written as its partial sibling and
/// published over the target by commit().
class OutputFile {
 public:
  /// Collective; root inspects the path for everyone. InputError naming `option` when
  /// `target` cannot be written this way: a directory or another non-regular file (a
  /// device, a pipe, a symbolic link to either) stands there, the existing file is
  /// write-protected (no write permission for anyone, or none for this process), the
  /// directory is missing or not writable, a name is too long for the file system or the
  /// MPI-IO layer (partial sibling included), another process holds the lock, or (per
  /// `partial`) an earlier run's partial file is there.
  /// With `create_directory`, the target's missing directories are created first (a
  /// checkpoint directory), and removed again, when still empty, if the output is released
  /// without a commit (bad input found later leaves no empty directory behind).
  static OutputFile claim(const Communicator& comm, const std::string& target,
                          const std::string& option, bool create_directory = false,
                          EarlierPartial partial = EarlierPartial::kRefuse);
  OutputFile() = default;
  OutputFile(OutputFile&&) noexcept = default;
  OutputFile& operator=(OutputFile&&) noexcept = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// Releases the lock (and removes the directories it created if nothing was committed).
  ~OutputFile();

  [[nodiscard]] const std::string& target() const { return target_; }
  /// TARGET.partial: the file to create and write.
  [[nodiscard]] std::string partial() const {
    std::string p = target_;
    p += kPartialSuffix;
    return p;
  }
  [[nodiscard]] const std::string& option() const { return option_; }

  /// Collective, after every rank closed the partial file: publishes it durably. With
  /// `seal`, root writes the file's seal (file_seal.hpp: it was created sealed); then every
  /// rank that may have written it (all of them through MPI-IO, else root) syncs it to the
  /// disk (fsync), root renames it over the target and syncs the directory. The one way any
  /// output of wormnet replaces its target. OutputError naming the target and the system's
  /// reason when a step fails; failed_after_rename() then says whether the target was
  /// already replaced (the directory's sync comes after the rename).
  void commit(const Communicator& comm, bool seal = false);
  /// Whether the last commit() threw after renaming the partial file over the target: the
  /// target holds the new file, whose directory could not be synced (the same on every rank).
  [[nodiscard]] bool failed_after_rename() const { return failed_after_rename_; }
  /// Collective: whether the partial file exists (root looks).
  [[nodiscard]] bool partial_exists(const Communicator& comm) const;
  /// Collective: whether the target exists (root looks).
  [[nodiscard]] bool target_exists(const Communicator& comm) const;
  /// Collective: renames the target to the partial name (and syncs the directory), so that a
  /// restart continues the file of an interrupted run where a killed one would leave it.
  /// OutputError on failure.
  void reclaim_target(const Communicator& comm) const;
  /// Removes the partial file (root; best effort, for a failed checkpoint that must not
  /// linger). Not collective.
  void discard_partial(const Communicator& comm) const;
  /// After `failure` to write or publish (before any rename): removes the partial file, as
  /// discard_partial(), and throws `failure` again, saying that an earlier target is unchanged.
  [[noreturn]] void discard_after(const Communicator& comm, const OutputError& failure) const;
  /// Releases the lock (see OutputLock::release()); removes the directories claim()
  /// created when nothing was committed and they are empty. Not collective.
  void release();

 private:
  std::string target_;
  std::string option_;
  OutputLock lock_;
  std::vector<std::string> created_dirs_;  ///< root: made by claim(), deepest last
  bool committed_ = false;
  bool failed_after_rename_ = false;
};

/// Collective: runs `write` (calls that write the file `path`) on every rank and makes a
/// failure of the file system collective. When `write` throws H5Error on any rank, every rank
/// throws the same OutputError naming `path` and the system's reason (the lowest failing
/// rank's: HDF5's errno message, or diagnose_write_failure()). Other exceptions pass through.
void guarded_write(const Communicator& comm, const std::string& path,
                   const std::function<void()>& write);

/// The system's explanation of why writing into the directory of `path` failed when the
/// layer below gave none (MPI-IO passes no errno on): "No space left on device" when the
/// file system has (almost) no room left, else a generic I/O error. Local.
std::string diagnose_write_failure(const std::string& path);

}  // namespace wormnet::io
