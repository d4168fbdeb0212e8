#include "wormnet/core/text_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// `path` opened for reading, refused unless it is a regular file.
int open_regular(const std::string& path, const std::string& option) {
  std::string why;
  const int fd = open_regular_file(path, why);
  if (fd < 0) {
    throw InputError(option, path,
                     why.rfind("this is ", 0) == 0 ? "a regular file (" + why + ")"
                                                   : "a readable regular file (" + why + ")");
  }
  return fd;
}

/// read() of up to `size` bytes into `to`: the count, 0 at the end. A read a signal cut short
/// is repeated unless `stop` says to stop.
std::size_t read_some(int fd, char* to, std::size_t size, const std::string& path,
                      const std::string& option, const StopCheck& stop) {
  while (true) {
    if (stop && stop()) throw Interrupted("reading '" + path + "' was interrupted by a signal");
    const ssize_t n = ::read(fd, to, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) {
      throw InputError(option, path, "a readable file (" + std::string(std::strerror(errno)) + ")");
    }
  }
}

}  // namespace

const char* file_kind(unsigned mode) {
  const auto m = static_cast<mode_t>(mode);
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

int open_regular_file(const std::string& path, std::string& why) {
  // O_NONBLOCK: open() returns at once on a FIFO without a writer (it is then refused); on a
  // regular file the flag changes nothing.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    why = std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    why = std::strerror(errno);
    ::close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    why = std::string("this is ") + file_kind(st.st_mode);
    ::close(fd);
    return -1;
  }
  return fd;
}

TextInput::TextInput(const std::string& path, std::string option, std::size_t max_line,
                     StopCheck stop)
    : fd_(open_regular(path, option)),
      path_(path),
      option_(std::move(option)),
      max_line_(max_line),
      stop_(std::move(stop)),
      buffer_(kChunkBytes) {}

TextInput::~TextInput() {
  if (fd_ >= 0) ::close(fd_);
}

bool TextInput::fill() {
  if (at_end_) return false;
  begin_ = 0;
  end_ = read_some(fd_, buffer_.data(), buffer_.size(), path_, option_, stop_);
  at_end_ = end_ == 0;
  return !at_end_;
}

bool TextInput::next(std::string& line) {
  line.clear();
  while (true) {
    if (begin_ == end_ && !fill()) {
      if (line.empty()) return false;
      ++line_;  // the last line, without a '\n'
      return true;
    }
    const char* from = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(from, '\n', end_ - begin_));
    const std::size_t take =
        newline != nullptr ? static_cast<std::size_t>(newline - from) : end_ - begin_;
    if (line.size() + take > max_line_) {
      throw InputError(option_, path_,
                       "line " + std::to_string(line_ + 1) + ": longer than " +
                           std::to_string(max_line_) + " characters");
    }
    line.append(from, take);
    begin_ += take;
    if (newline != nullptr) {
      ++begin_;
      ++line_;
      return true;
    }
  }
}

std::string read_text_file(const std::string& path, const std::string& option,
                           std::size_t max_bytes, const StopCheck& stop) {
  const int fd = open_regular(path, option);
  std::string text;
  try {
    while (text.size() <= max_bytes) {
      const std::size_t want = std::min(TextInput::kChunkBytes, max_bytes + 1 - text.size());
      const std::size_t at = text.size();
      text.resize(at + want);
      const std::size_t got = read_some(fd, text.data() + at, want, path, option, stop);
      text.resize(at + got);
      if (got == 0) break;
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return text;
}

}  // namespace wormnet
