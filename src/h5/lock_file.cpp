#include "wormnet/h5/lock_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <system_error>
#include <thread>
#include <utility>

#include "wormnet/core/text_input.hpp"

namespace wormnet::io {

namespace {

/// How long a process waits for a lock that is being created or taken over by another
/// (both take microseconds; the margin is for a loaded node or a slow network file system).
constexpr std::chrono::milliseconds kWaitForOthers{2000};
/// Pause between two looks at such a lock.
constexpr std::chrono::milliseconds kPause{2};
/// Longest lock file read (a line is far shorter; more is not wormnet's).
constexpr std::size_t kMaxLockBytes = 1024;

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "unknown-host";
  return buf;
}

/// The first word of the file at `path` (/proc files), or "-".
std::string first_word(const char* path) {
  std::FILE* f = std::fopen(path, "r");
  if (f == nullptr) return "-";
  char word[128] = {};
  const bool read = std::fscanf(f, "%127s", word) == 1;
  std::fclose(f);
  return read ? std::string(word) : std::string("-");
}

/// This boot of the kernel: the same on every container of a machine until it reboots,
/// different on another machine.
std::string boot_id() {
  return first_word("/proc/sys/kernel/random/boot_id");
}

/// The pid namespace this process's pids belong to: the inode number in the link
/// /proc/self/ns/pid ("pid:[4026531836]"), or "-".
std::string pid_namespace() {
  std::error_code ec;
  const std::string link = std::filesystem::read_symlink("/proc/self/ns/pid", ec).string();
  const std::size_t open = link.find('[');
  const std::size_t close = link.rfind(']');
  if (ec || open == std::string::npos || close == std::string::npos || close <= open + 1)
    return "-";
  return link.substr(open + 1, close - open - 1);
}

std::string holder_line() {
  const char* job = std::getenv("SLURM_JOB_ID");
  return "wormnet " + std::to_string(static_cast<long>(getpid())) + " " + host_name() + " " +
         (job != nullptr && *job != '\0' ? std::string(job) : std::string("-")) + " " +
         std::to_string(static_cast<long long>(std::time(nullptr))) + " " + boot_id() + " " +
         pid_namespace() + "\n";
}

/// What a lock file says about its holder.
struct Holder {
  long pid = 0;
  std::string host;
  std::string job;
  long long since = 0;
  std::string boot;  ///< "" in the form of earlier versions (four fields)
  std::string pid_ns;
  bool parsed = false;  ///< at least "wormnet <pid> <host> <job> <since>"
};

Holder parse_holder(const std::string& text) {
  Holder h;
  std::istringstream in(text);
  std::string word;
  if (!(in >> word) || word != "wormnet") return h;
  if (!(in >> h.pid >> h.host >> h.job >> h.since) || h.pid <= 0) return h;
  h.parsed = true;
  if (!(in >> h.boot >> h.pid_ns)) {
    h.boot.clear();
    h.pid_ns.clear();
  }
  return h;
}

/// The contents of the file at `path` (at most kMaxLockBytes), or false when it cannot be
/// read: it vanished, or it is no regular file (`not_regular`: a FIFO there once blocked
/// open() for good, deaf to the stop signals; it is never opened for reading now).
bool read_lock(const std::string& path, std::string& text, std::string* not_regular = nullptr) {
  std::string why;
  const int fd = open_regular_file(path, why);
  if (fd < 0) {
    if (not_regular != nullptr && why.rfind("this is ", 0) == 0) *not_regular = why;
    return false;
  }
  char buf[kMaxLockBytes];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  if (n < 0) return false;
  text.assign(buf, static_cast<std::size_t>(n));
  return true;
}

/// Writes `line` into a file just created as `fd` and closes it; false when either fails.
bool write_line(int fd, const std::string& line) {
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  const bool closed = ::close(fd) == 0;
  return written && closed;
}

enum class Liveness {
  kDead,            ///< provably: this host, boot and pid namespace, no such process
  kAlive,           ///< a process with its pid runs here
  kAnotherHost,     ///< wormnet cannot look
  kAnotherMachine,  ///< same host name, another boot id or pid namespace: cannot look
  kEarlierForm,     ///< no boot id or pid namespace recorded: cannot tell
};

Liveness liveness(const Holder& h) {
  if (h.host != host_name()) return Liveness::kAnotherHost;
  if (h.boot.empty()) return Liveness::kEarlierForm;
  if (h.boot == "-" || h.pid_ns == "-" || h.boot != boot_id() || h.pid_ns != pid_namespace())
    return Liveness::kAnotherMachine;
  if (kill(static_cast<pid_t>(h.pid), 0) != 0 && errno == ESRCH) return Liveness::kDead;
  return Liveness::kAlive;
}

std::string describe(const Holder& h) {
  char when[64] = "?";
  const auto t = static_cast<std::time_t>(h.since);
  std::tm tm{};
  if (localtime_r(&t, &tm) != nullptr) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
  return "wormnet process " + std::to_string(h.pid) + " on " + h.host +
         (h.job != "-" ? " (job " + h.job + ")" : std::string()) + " since " + when;
}

/// Why a lock held by `h` (not dead) refuses this process, as the user reads it.
std::string refusal(const Holder& h, Liveness l, const std::string& lock) {
  const std::string who = describe(h) + " holds '" + lock + "'";
  const std::string remove = "once that run is gone, remove '" + lock + "'";
  switch (l) {
    case Liveness::kAlive:
      return "another run is writing it: " + who + " (if that run is dead, remove '" + lock + "')";
    case Liveness::kAnotherHost:
      return "another run may be writing it: " + who +
             " (wormnet cannot tell whether a process on another host lives; " + remove + ")";
    case Liveness::kAnotherMachine:
      return "another run may be writing it: " + who +
             ", written in another container or boot of that host name (another boot id or "
             "pid namespace: wormnet cannot tell whether that process lives; " +
             remove + ")";
    case Liveness::kEarlierForm:
    case Liveness::kDead:
      break;
  }
  return "another run may be writing it: " + who +
         ", a lock of an earlier wormnet (no boot id or pid namespace: wormnet cannot tell "
         "whether that process lives; " +
         remove + ")";
}

}  // namespace

LockFile LockFile::acquire(const std::string& path, std::string& why) {
  LockFile lock;
  lock.path_ = path;
  lock.line_ = holder_line();
  why.clear();
  const std::string takeover = path + kTakeoverSuffix;
  const auto deadline = std::chrono::steady_clock::now() + kWaitForOthers;
  const auto may_wait = [&] {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPause);
    return true;
  };
  for (;;) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      if (write_line(fd, lock.line_)) {
        lock.held_ = true;
        return lock;
      }
      ::unlink(path.c_str());
      why = "cannot write the lock file '" + path + "'";
      return lock;
    }
    if (errno != EEXIST) {
      why = "cannot create the lock file '" + path + "': " + std::strerror(errno);
      return lock;
    }
    std::string text;
    std::string not_regular;
    if (!read_lock(path, text, &not_regular)) {
      if (!not_regular.empty()) {
        why = "'" + path + "' is in the lock file's place, but " + not_regular +
              ", not a lock file (remove it)";
        return lock;
      }
      if (may_wait()) continue;  // released meanwhile: create it
      why = "the lock file '" + path + "' keeps appearing and vanishing: another run is starting";
      return lock;
    }
    const Holder holder = parse_holder(text);
    if (!holder.parsed) {
      // A line not yet ended: its creator may still be writing it.
      if ((text.empty() || text.back() != '\n') && may_wait()) continue;
      why = "a lock file wormnet cannot read holds '" + path +
            "' (once the run that wrote it is gone, remove it)";
      return lock;
    }
    const Liveness l = liveness(holder);
    if (l != Liveness::kDead) {
      why = refusal(holder, l, path);
      return lock;
    }
    // A dead holder's lock: replaced under LOCK.takeover, which one process at a time holds.
    const int t = ::open(takeover.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (t < 0) {
      if (errno != EEXIST) {
        why = "cannot create '" + takeover +
              "' to take over the lock of a dead process: " + std::strerror(errno);
        return lock;
      }
      std::string other;
      const Holder taker = read_lock(takeover, other) ? parse_holder(other) : Holder{};
      if (taker.parsed && liveness(taker) == Liveness::kDead) {
        why = "the takeover of the dead holder's lock '" + path + "' by " + describe(taker) +
              " was never finished: remove '" + takeover + "' and '" + path + "'";
        return lock;
      }
      if (may_wait()) continue;  // another process is taking it over: look again after it
      why = "another run is taking over the lock '" + path + "' ('" + takeover +
            "' stays; once no run is starting on this file, remove it)";
      return lock;
    }
    if (!write_line(t, lock.line_)) {
      ::unlink(takeover.c_str());
      why = "cannot write '" + takeover + "'";
      return lock;
    }
    // Under LOCK.takeover nobody else replaces LOCK, and its dead holder cannot remove it:
    // if it still holds the same line, the rename replaces exactly that dead holder's lock.
    std::string again;
    const bool unchanged = read_lock(path, again) && again == text;
    if (unchanged && ::rename(takeover.c_str(), path.c_str()) == 0) {
      lock.held_ = true;
      return lock;
    }
    const int error = errno;
    ::unlink(takeover.c_str());
    if (unchanged) {
      why =
          "cannot replace the lock file '" + path + "' of a dead process: " + std::strerror(error);
      return lock;
    }
    if (!may_wait()) {
      why = "the lock file '" + path + "' keeps changing: another run is starting";
      return lock;
    }
  }
}

LockFile::LockFile(LockFile&& other) noexcept
    : path_(std::move(other.path_)),
      line_(std::move(other.line_)),
      held_(std::exchange(other.held_, false)) {}

LockFile& LockFile::operator=(LockFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    line_ = std::move(other.line_);
    held_ = std::exchange(other.held_, false);
  }
  return *this;
}

LockFile::~LockFile() {
  release();
}

void LockFile::release() {
  if (!held_) return;
  held_ = false;
  // Only this process's own lock: one that a user removed and another run created since is
  // that run's.
  std::string text;
  if (read_lock(path_, text) && text == line_) ::unlink(path_.c_str());
}

}  // namespace wormnet::io
