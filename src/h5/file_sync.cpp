#include "file_sync.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace wormnet::io::detail {

namespace {

/// fsync of what `open(path, flags)` gives; `unreadable_is_done` for a directory that
/// cannot be opened for reading.
std::string sync_path(const std::string& path, int flags, bool unreadable_is_done) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) {
    if (unreadable_is_done && errno == EACCES) return "";
    return std::string("cannot open it to sync it: ") + std::strerror(errno);
  }
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc == 0 || error == EINVAL || error == ENOTSUP || error == ENOSYS)  // ENOTSUP: EOPNOTSUPP too
    return "";
  return std::strerror(error);
}

}  // namespace

std::string sync_file(const std::string& path) {
  return sync_path(path, O_RDONLY, false);
}

std::string sync_directory_of(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
  return sync_path(dir, O_RDONLY | O_DIRECTORY, true);
}

std::string rename_durably(const std::string& from, const std::string& to, bool& renamed) {
  renamed = false;
  if (std::rename(from.c_str(), to.c_str()) != 0) return std::strerror(errno);
  renamed = true;
  return sync_directory_of(to);
}

}  // namespace wormnet::io::detail
