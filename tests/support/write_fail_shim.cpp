// A full disk without root: an LD_PRELOAD library that lets writes to chosen files succeed
// until a byte budget is spent, then fails them with an errno, as a full file system or an
// exhausted quota would. For the write-error tests (tests/integration/cli_test.py,
// WriteErrors); not part of wormnet.
//
//   WORMNET_FAIL_WRITE_PATH   writes to files whose path contains this text are counted
//   WORMNET_FAIL_WRITE_AFTER  bytes those writes may add up to before failing (default 0)
//   WORMNET_FAIL_WRITE_ERRNO  the errno of the failing writes (default ENOSPC)
//
// A failing or watched fsync, the same way (for the tests of durable publishing):
//
//   WORMNET_FAIL_FSYNC_PATH   fsync / fdatasync of descriptors opened on a path containing this
//                             text fail ...
//   WORMNET_FAIL_FSYNC_KIND   ... "file": of regular files only; "dir": of directories only
//   WORMNET_FAIL_FSYNC_ERRNO  ... with this errno (default EIO)
//   WORMNET_SYNC_LOG          a file that gets one line per event on a path containing
//   WORMNET_SYNC_LOG_PATH     this text: "PID write PATH" (the first write to a descriptor
//                             since it was opened or synced), "PID fsync PATH" and
//                             "PID rename FROM TO", in the order they happened
//
// It wraps the calls HDF5's POSIX driver and OpenMPI's MPI-IO use to open, write and sync
// files (and dup2/dup3, which move a watched descriptor or replace it), and rename().
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kMaxFd = 65536;
std::atomic<bool> g_watched[kMaxFd];
std::atomic<unsigned long long> g_written{0};

template <class F>
F next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

bool matches(const char* path) {
  const char* pattern = std::getenv("WORMNET_FAIL_WRITE_PATH");
  return pattern != nullptr && *pattern != '\0' && path != nullptr &&
         std::strstr(path, pattern) != nullptr;
}

/// The path each low descriptor was opened on (for the fsync and log rules), and whether it
/// was written since it was opened or synced.
constexpr int kMaxPathFd = 1024;
constexpr std::size_t kMaxPath = 1024;
char g_path[kMaxPathFd][kMaxPath];
std::atomic<bool> g_dirty[kMaxPathFd];

bool contains(const char* text, const char* env) {
  const char* pattern = std::getenv(env);
  return pattern != nullptr && *pattern != '\0' && text != nullptr &&
         std::strstr(text, pattern) != nullptr;
}

const char* path_of(int fd) {
  return fd >= 0 && fd < kMaxPathFd ? g_path[fd] : "";
}

/// Appends "PID what a [b]" to WORMNET_SYNC_LOG when `a` or `b` is a logged path (one
/// write() with O_APPEND: the lines of several processes do not mix).
void log_event(const char* what, const char* a, const char* b = nullptr) {
  const char* log = std::getenv("WORMNET_SYNC_LOG");
  if (log == nullptr || *log == '\0') return;
  if (!contains(a, "WORMNET_SYNC_LOG_PATH") && !contains(b, "WORMNET_SYNC_LOG_PATH")) return;
  char line[3 * kMaxPath];
  const int n = std::snprintf(line, sizeof line, "%ld %s %s%s%s\n", static_cast<long>(getpid()),
                              what, a, b != nullptr ? " " : "", b != nullptr ? b : "");
  if (n <= 0) return;
  const int saved = errno;
  const int fd = reinterpret_cast<int (*)(const char*, int, ...)>(dlsym(RTLD_NEXT, "open"))(
      log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) {
    const auto write_fn =
        reinterpret_cast<ssize_t (*)(int, const void*, size_t)>(dlsym(RTLD_NEXT, "write"));
    static_cast<void>(write_fn(fd, line, std::min(static_cast<std::size_t>(n), sizeof line - 1)));
    reinterpret_cast<int (*)(int)>(dlsym(RTLD_NEXT, "close"))(fd);
  }
  errno = saved;
}

void track(int fd, const char* path) {
  if (fd >= 0 && fd < kMaxFd) g_watched[fd] = matches(path);
  if (fd >= 0 && fd < kMaxPathFd) {
    std::snprintf(g_path[fd], kMaxPath, "%s", path != nullptr ? path : "");
    g_dirty[fd] = false;
  }
}

/// A write to `fd` is about to happen: logged when it is the first since open or sync.
void note_write(int fd) {
  if (fd < 0 || fd >= kMaxPathFd || g_dirty[fd].exchange(true)) return;
  log_event("write", g_path[fd]);
}

/// Whether a write of `bytes` to `fd` must fail (and sets errno then).
bool refuse(int fd, std::size_t bytes) {
  note_write(fd);
  if (fd < 0 || fd >= kMaxFd || !g_watched[fd]) return false;
  const char* after = std::getenv("WORMNET_FAIL_WRITE_AFTER");
  const unsigned long long budget = after != nullptr ? std::strtoull(after, nullptr, 10) : 0;
  if (g_written.load() + bytes <= budget) {
    g_written += bytes;
    return false;
  }
  const char* code = std::getenv("WORMNET_FAIL_WRITE_ERRNO");
  errno = code != nullptr ? std::atoi(code) : ENOSPC;
  return true;
}

std::size_t total(const struct iovec* iov, int count) {
  std::size_t n = 0;
  for (int i = 0; i < count; ++i) n += iov[i].iov_len;
  return n;
}

/// Whether an fsync of `fd` must fail (and sets errno then); logs it otherwise.
bool refuse_sync(int fd) {
  const char* path = path_of(fd);
  if (contains(path, "WORMNET_FAIL_FSYNC_PATH")) {
    const char* kind = std::getenv("WORMNET_FAIL_FSYNC_KIND");
    struct stat st {};
    const bool dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    if (kind == nullptr || *kind == '\0' || (std::strcmp(kind, "dir") == 0) == dir) {
      const char* code = std::getenv("WORMNET_FAIL_FSYNC_ERRNO");
      errno = code != nullptr ? std::atoi(code) : EIO;
      return true;
    }
  }
  if (fd >= 0 && fd < kMaxPathFd) g_dirty[fd] = false;
  log_event("fsync", path);
  return false;
}

mode_t mode_arg(int flags, va_list args) {
  return (flags & (O_CREAT | O_TMPFILE)) != 0 ? static_cast<mode_t>(va_arg(args, int)) : 0;
}

}  // namespace

extern "C" {

int open(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_arg(flags, args);
  va_end(args);
  const int fd = next<int (*)(const char*, int, ...)>("open")(path, flags, mode);
  track(fd, path);
  return fd;
}

int open64(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_arg(flags, args);
  va_end(args);
  const int fd = next<int (*)(const char*, int, ...)>("open64")(path, flags, mode);
  track(fd, path);
  return fd;
}

int openat(int dir, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_arg(flags, args);
  va_end(args);
  const int fd = next<int (*)(int, const char*, int, ...)>("openat")(dir, path, flags, mode);
  track(fd, path);
  return fd;
}

int openat64(int dir, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_arg(flags, args);
  va_end(args);
  const int fd = next<int (*)(int, const char*, int, ...)>("openat64")(dir, path, flags, mode);
  track(fd, path);
  return fd;
}

int creat(const char* path, mode_t mode) {
  const int fd = next<int (*)(const char*, mode_t)>("creat")(path, mode);
  track(fd, path);
  return fd;
}

int dup2(int from, int to) {
  const int fd = next<int (*)(int, int)>("dup2")(from, to);
  if (fd >= 0 && fd < kMaxFd) g_watched[fd] = from >= 0 && from < kMaxFd && g_watched[from];
  if (fd >= 0 && fd < kMaxPathFd) track(fd, path_of(from));
  return fd;
}

int dup3(int from, int to, int flags) {
  const int fd = next<int (*)(int, int, int)>("dup3")(from, to, flags);
  if (fd >= 0 && fd < kMaxFd) g_watched[fd] = from >= 0 && from < kMaxFd && g_watched[from];
  if (fd >= 0 && fd < kMaxPathFd) track(fd, path_of(from));
  return fd;
}

int close(int fd) {
  if (fd >= 0 && fd < kMaxFd) g_watched[fd] = false;
  if (fd >= 0 && fd < kMaxPathFd) {
    g_path[fd][0] = '\0';
    g_dirty[fd] = false;
  }
  return next<int (*)(int)>("close")(fd);
}

// Streams (std::ofstream opens with fopen): their descriptor is tracked like open()'s. The
// writes of stdio itself (fwrite, fflush) go to the C library's internal write and are
// neither counted nor logged.
FILE* fopen(const char* path, const char* mode) {
  FILE* f = next<FILE* (*)(const char*, const char*)>("fopen")(path, mode);
  if (f != nullptr) track(fileno(f), path);
  return f;
}

FILE* fopen64(const char* path, const char* mode) {
  FILE* f = next<FILE* (*)(const char*, const char*)>("fopen64")(path, mode);
  if (f != nullptr) track(fileno(f), path);
  return f;
}

int fclose(FILE* f) {
  if (f != nullptr) track(fileno(f), "");
  return next<int (*)(FILE*)>("fclose")(f);
}

int fsync(int fd) {
  if (refuse_sync(fd)) return -1;
  return next<int (*)(int)>("fsync")(fd);
}

int fdatasync(int fd) {
  if (refuse_sync(fd)) return -1;
  return next<int (*)(int)>("fdatasync")(fd);
}

int rename(const char* from, const char* to) {
  const int rc = next<int (*)(const char*, const char*)>("rename")(from, to);
  if (rc == 0) log_event("rename", from, to);
  return rc;
}

int renameat(int from_dir, const char* from, int to_dir, const char* to) {
  const int rc =
      next<int (*)(int, const char*, int, const char*)>("renameat")(from_dir, from, to_dir, to);
  if (rc == 0) log_event("rename", from, to);
  return rc;
}

ssize_t write(int fd, const void* buf, size_t n) {
  if (refuse(fd, n)) return -1;
  return next<ssize_t (*)(int, const void*, size_t)>("write")(fd, buf, n);
}

ssize_t pwrite(int fd, const void* buf, size_t n, off_t at) {
  if (refuse(fd, n)) return -1;
  return next<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite")(fd, buf, n, at);
}

ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t at) {
  if (refuse(fd, n)) return -1;
  return next<ssize_t (*)(int, const void*, size_t, off64_t)>("pwrite64")(fd, buf, n, at);
}

ssize_t writev(int fd, const struct iovec* iov, int count) {
  if (refuse(fd, total(iov, count))) return -1;
  return next<ssize_t (*)(int, const struct iovec*, int)>("writev")(fd, iov, count);
}

ssize_t pwritev(int fd, const struct iovec* iov, int count, off_t at) {
  if (refuse(fd, total(iov, count))) return -1;
  return next<ssize_t (*)(int, const struct iovec*, int, off_t)>("pwritev")(fd, iov, count, at);
}

ssize_t pwritev64(int fd, const struct iovec* iov, int count, off64_t at) {
  if (refuse(fd, total(iov, count))) return -1;
  return next<ssize_t (*)(int, const struct iovec*, int, off64_t)>("pwritev64")(fd, iov, count, at);
}

}  // extern "C"
