#include "file_names.hpp"

#include <unistd.h>

#include <climits>
#include <filesystem>

#include "wormnet/parallel/communicator.hpp"

namespace wormnet::io::detail {

std::string name_length_problem(const std::string& path, bool mpi_io, const std::string& suffix) {
  const std::string full = path + suffix;
  const std::filesystem::path p(full);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
  long name_max = pathconf(dir.c_str(), _PC_NAME_MAX);
  if (name_max <= 0) name_max = 255;  // the directory may not exist yet; a common limit
  const std::string last = p.filename().string();
  for (const auto& part : p) {
    const std::string s = part.string();
    if (s.size() > static_cast<std::size_t>(name_max)) {
      // The suffix is wormnet's: state the length and limit of the name the user gave.
      const std::size_t own = s == last ? suffix.size() : 0;
      return "a name of " + std::to_string(s.size() - own) + " characters in the path: this " +
             "file system takes at most " +
             std::to_string(static_cast<std::size_t>(name_max) - own) + " per name";
    }
  }
  const auto limit_for_user = [&](std::size_t limit) {
    return std::to_string(limit > suffix.size() ? limit - suffix.size() : 0);
  };
  if (full.size() >= PATH_MAX) {
    return "a path of " + std::to_string(path.size()) + " characters: at most " +
           limit_for_user(PATH_MAX - 1) + " here";
  }
  if (mpi_io) {
    if (full.size() > kMaxMpiIoPath) {
      return "a path of " + std::to_string(path.size()) +
             " characters: the MPI-IO layer takes at most " + limit_for_user(kMaxMpiIoPath) +
             " (use a shorter path, a relative one or a symbolic link)";
    }
    const std::string name = p.filename().string();
    if (name.size() > kMaxMpiIoName) {
      return "a file name of " + std::to_string(name.size() - suffix.size()) +
             " characters: the MPI-IO layer takes at most " + limit_for_user(kMaxMpiIoName);
    }
  }
  return "";
}

bool uses_mpi_io(int ranks) {
  return ranks > 1 && MpiSession::active();
}

}  // namespace wormnet::io::detail
