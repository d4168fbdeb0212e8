// Error types. Bad input is an InputError (exit code 2, one line); an output the system
// refused to store is an OutputError (exit code 6, one line); an input whose reading a stop
// signal ended is Interrupted (exit code 5); a broken internal invariant is an
// InvariantError (rank and cycle printed, the job aborted).
#pragma once

#include <stdexcept>
#include <string>

namespace wormnet {

/// Bad user input: names the option, the value given and what is allowed.
class InputError : public std::runtime_error {
 public:
  InputError(std::string option, std::string value, std::string allowed);

  [[nodiscard]] const std::string& option() const { return option_; }
  [[nodiscard]] const std::string& value() const { return value_; }
  [[nodiscard]] const std::string& allowed() const { return allowed_; }

 private:
  std::string option_;
  std::string value_;
  std::string allowed_;
};

/// An output file that could not be written: the disk or quota is full, the file system
/// failed. Names the file and the system's reason; not the user's input, not a bug.
class OutputError : public std::runtime_error {
 public:
  OutputError(std::string path, std::string reason);

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  std::string path_;
  std::string reason_;
};

/// Reading an input stopped because a stop signal arrived (SIGTERM, SIGINT, SIGUSR1): not an
/// error; the run ends during its setup with exit code 5 and nothing written.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(const std::string& what) : std::runtime_error(what) {}
};

/// A model invariant that does not hold: a bug, never the user's fault.
class InvariantError : public std::logic_error {
 public:
  explicit InvariantError(const std::string& what) : std::logic_error(what) {}
};

/// Throws InvariantError with `what` when `condition` is false. Cheap enough for hot paths
/// only where the check is a comparison of values already in registers.
inline void require(bool condition, const char* what) {
  if (!condition) throw InvariantError(what);
}

}  // namespace wormnet
