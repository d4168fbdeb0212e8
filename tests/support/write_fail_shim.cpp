// A full disk without root: an LD_PRELOAD library that lets writes to chosen files succeed
// until a byte budget is spent, then fails them with an errno, as a full file system or an
// exhausted quota would. For the write-error tests (tests/integration/cli_test.py,
// WriteErrors); not part of wormnet.
//
//   WORMNET_FAIL_WRITE_PATH   writes to files whose path contains this text are counted
//   WORMNET_FAIL_WRITE_AFTER  bytes those writes may add up to before failing (default 0)
//   WORMNET_FAIL_WRITE_ERRNO  the errno of the failing writes (default ENOSPC)
//
// It wraps the calls HDF5's POSIX driver and OpenMPI's MPI-IO use to open and write files
// (and dup2/dup3, which move a watched descriptor or replace it).
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
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

void track(int fd, const char* path) {
  if (fd >= 0 && fd < kMaxFd) g_watched[fd] = matches(path);
}

/// Whether a write of `bytes` to `fd` must fail (and sets errno then).
bool refuse(int fd, std::size_t bytes) {
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
  return fd;
}

int dup3(int from, int to, int flags) {
  const int fd = next<int (*)(int, int, int)>("dup3")(from, to, flags);
  if (fd >= 0 && fd < kMaxFd) g_watched[fd] = from >= 0 && from < kMaxFd && g_watched[from];
  return fd;
}

int close(int fd) {
  if (fd >= 0 && fd < kMaxFd) g_watched[fd] = false;
  return next<int (*)(int)>("close")(fd);
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
