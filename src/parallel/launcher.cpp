#include "wormnet/parallel/launcher.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace wormnet {

namespace {

/// The variable as a positive count, or nothing (unset, empty, not wholly a number, 0).
std::optional<long> count_variable(EnvironmentLookup env, const char* name) {
  const char* text = env(name);
  if (text == nullptr) return std::nullopt;
  const std::string_view s(text);
  long value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (error != std::errc{} || end != s.data() + s.size() || value <= 0) return std::nullopt;
  return value;
}

}  // namespace

const char* process_environment(const char* name) {
  return std::getenv(name);
}

bool started_by_launcher(EnvironmentLookup env) {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_SIZE"}) {
    if (env(name) != nullptr) return true;
  }
  if (env("SLURM_PROCID") != nullptr && env("SLURM_STEP_ID") != nullptr) return true;
  const char* ess = env("OMPI_MCA_ess");
  const bool singleton = ess != nullptr && std::string_view(ess) == "singleton";
  return env("PMIX_RANK") != nullptr && !singleton;
}

bool ranks_share_one_node(EnvironmentLookup env) {
  if (!started_by_launcher(env)) return true;
  const std::optional<long> size = count_variable(env, "OMPI_COMM_WORLD_SIZE");
  const std::optional<long> local = count_variable(env, "OMPI_COMM_WORLD_LOCAL_SIZE");
  if (size && local) return *size == *local;
  if (env("SLURM_STEP_ID") != nullptr) return count_variable(env, "SLURM_STEP_NUM_NODES") == 1L;
  return false;
}

std::vector<MpiStartSetting> mpi_start_settings(EnvironmentLookup env,
                                                const std::string& session_dir) {
  std::vector<MpiStartSetting> settings;
  if (ranks_share_one_node(env)) settings.push_back({"OMPI_MCA_pml", "ob1"});
  if (!started_by_launcher(env) && !session_dir.empty()) {
    settings.push_back({"OMPI_MCA_ess_singleton_isolated", "1"});
    settings.push_back({"OMPI_MCA_orte_jobfam_session_dir", session_dir});
  }
  return settings;
}

std::string own_session_dir(EnvironmentLookup env) {
  // Where Open MPI puts its own: the user's tmpdir_base, else the first of TMPDIR, TEMP, TMP.
  std::string base = "/tmp";
  for (const char* name : {"OMPI_MCA_orte_tmpdir_base", "TMPDIR", "TEMP", "TMP"}) {
    const char* dir = env(name);
    if (dir != nullptr && *dir != '\0') {
      base = dir;
      break;
    }
  }
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  return base + "/wormnet-mpi." + std::to_string(static_cast<unsigned long>(getuid())) + "/" +
         std::to_string(static_cast<long long>(getpid())) + "." +
         std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
}

bool make_session_dir(const std::string& dir) {
  const std::size_t slash = dir.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return false;
  const std::string parent = dir.substr(0, slash);
  if (mkdir(parent.c_str(), 0700) != 0 && errno != EEXIST) return false;
  return mkdir(dir.c_str(), 0700) == 0;
}

}  // namespace wormnet
