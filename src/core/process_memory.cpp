#include "wormnet/core/process_memory.hpp"

#include <sys/resource.h>

#include <fstream>
#include <sstream>
#include <string>

namespace wormnet {

std::uint64_t peak_resident_bytes() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024U;  // ru_maxrss: KiB
}

std::uint64_t huge_page_bytes() {
  std::ifstream in("/proc/self/smaps_rollup");
  std::string line;
  while (std::getline(in, line)) {
    // "AnonHugePages:     2048 kB"
    if (line.rfind("AnonHugePages:", 0) != 0) continue;
    std::istringstream fields(line.substr(14));
    std::uint64_t kib = 0;
    return fields >> kib ? kib * 1024U : 0;
  }
  return 0;
}

}  // namespace wormnet
