// A temporary file name that every rank of a communicator agrees on, removed afterwards.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "wormnet/parallel/communicator.hpp"

namespace wormnet::test {

/// Root creates a unique empty file "<tmp>/wormnet-<stem>-XXXXXX.h5" and broadcasts its name;
/// the destructor (collective) removes it, unless WORMNET_KEEP_TEMP is set (to inspect the
/// file after a failure; pass it to the ranks with mpiexec -x). Tests running at the same
/// time never collide.
class SharedTempFile {
 public:
  SharedTempFile(const Communicator& comm, std::string_view stem) : comm_(comm) {
    if (comm_.is_root()) {
      std::string pattern =
          (std::filesystem::temp_directory_path() / ("wormnet-" + std::string(stem) + "-XXXXXX.h5"))
              .string();
      const int fd = mkstemps(pattern.data(), 3);
      if (fd >= 0) close(fd);
      path_ = pattern;
    }
    comm_.broadcast(path_, 0);
  }
  ~SharedTempFile() {
    comm_.barrier();
    if (comm_.is_root() && std::getenv("WORMNET_KEEP_TEMP") == nullptr) {
      std::error_code ec;
      std::filesystem::remove(path_, ec);
    }
  }
  SharedTempFile(const SharedTempFile&) = delete;
  SharedTempFile& operator=(const SharedTempFile&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  Communicator comm_;
  std::string path_;
};

}  // namespace wormnet::test
