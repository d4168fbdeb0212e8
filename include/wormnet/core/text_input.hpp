// Text input files (workload traces, configuration files), read in bounded pieces.
//
// A text input must be a regular file: a FIFO without a writer blocks open() (and the stop
// signals' handlers restart the call, so the process hangs there for good), a device such as
// /dev/zero never ends, and a FIFO read by every rank gives each rank another part. The file
// is opened without blocking and refused in one line when it is anything else. Lines are
// gathered from reads of kChunkBytes, so a line longer than its limit is refused as soon as
// the limit is crossed (std::getline once read a line of /dev/zero whole, 1 GB/s of memory),
// and the caller's stop check (a stop signal's flag) is asked before every read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wormnet {

/// What a file of mode `mode` is when it is not a regular file ("a FIFO", "a directory", ...).
[[nodiscard]] const char* file_kind(unsigned mode);

/// `path` opened read-only without blocking (a FIFO without a writer would block open() for
/// good, deaf to the stop signals) and kept only when it is a regular file: the descriptor,
/// or -1 with `why` set (the system's reason, or "this is a FIFO" and the like).
[[nodiscard]] int open_regular_file(const std::string& path, std::string& why);

/// True when the reading should stop (a stop signal arrived). May be empty: never stop.
using StopCheck = std::function<bool()>;

/// A regular file read line by line through a fixed-size buffer.
class TextInput {
 public:
  /// Bytes per read(): the most read past a line that is too long, and the amount read
  /// between two stop checks.
  static constexpr std::size_t kChunkBytes = std::size_t{64} << 10;

  /// Opens `path`. InputError naming `option` and `path` when it cannot be opened or is not
  /// a regular file (naming what it is). Lines longer than `max_line` bytes are refused.
  TextInput(const std::string& path, std::string option, std::size_t max_line, StopCheck stop = {});
  ~TextInput();
  TextInput(const TextInput&) = delete;
  TextInput& operator=(const TextInput&) = delete;

  /// The next line, without its '\n' (a last line without one counts); false at the end.
  /// InputError "line N: longer than M characters" as soon as a line crosses the limit;
  /// Interrupted when the stop check says so; InputError when the system fails a read.
  bool next(std::string& line);

  /// Number (from 1) of the line next() returned last.
  [[nodiscard]] std::uint64_t line_number() const { return line_; }

 private:
  /// Reads the next chunk into the buffer; false at the end of the file.
  bool fill();

  int fd_ = -1;
  std::string path_;
  std::string option_;
  std::size_t max_line_;
  StopCheck stop_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  ///< first unread byte of buffer_
  std::size_t end_ = 0;    ///< one past the last byte read into buffer_
  bool at_end_ = false;
  std::uint64_t line_ = 0;
};

/// The first `max_bytes` + 1 bytes of the regular file `path` (all of it when it is no
/// larger: the caller refuses a longer text), read in chunks with `stop` asked before each.
/// InputError and Interrupted as TextInput.
std::string read_text_file(const std::string& path, const std::string& option,
                           std::size_t max_bytes, const StopCheck& stop = {});

}  // namespace wormnet
