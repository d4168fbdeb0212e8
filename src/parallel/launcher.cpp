#include "wormnet/parallel/launcher.hpp"

#include <cstdlib>
#include <string_view>

namespace wormnet {

bool started_by_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  if (std::getenv("SLURM_PROCID") != nullptr && std::getenv("SLURM_STEP_ID") != nullptr) {
    return true;
  }
  const char* ess = std::getenv("OMPI_MCA_ess");
  const bool singleton = ess != nullptr && std::string_view(ess) == "singleton";
  return std::getenv("PMIX_RANK") != nullptr && !singleton;
}

}  // namespace wormnet
