// Whether an MPI launcher started this process, and whether all the job's ranks share this
// machine, from the variables launchers set for the processes they start (before MPI_Init,
// so that the MPI session can be set up for it).
#pragma once

#include <string>
#include <vector>

namespace wormnet {

/// A variable of the process's environment, or null (std::getenv; tests pass their own).
using EnvironmentLookup = const char* (*)(const char* name);
[[nodiscard]] const char* process_environment(const char* name);

/// Open MPI's mpiexec (OMPI_COMM_WORLD_SIZE), MPICH's hydra (PMI_RANK, PMI_SIZE), SLURM's
/// srun (SLURM_STEP_ID with SLURM_PROCID), other PMIx launchers (PMIX_RANK). False for a
/// process started by itself (a singleton: one rank), even after MPI_Init, which sets
/// PMIX_RANK with OMPI_MCA_ess=singleton.
[[nodiscard]] bool started_by_launcher(EnvironmentLookup env = process_environment);

/// Every rank of the job runs on this machine: a singleton; Open MPI's mpiexec with as many
/// ranks on this node as in the job (OMPI_COMM_WORLD_LOCAL_SIZE = OMPI_COMM_WORLD_SIZE); a
/// SLURM job step on one node (SLURM_STEP_NUM_NODES = 1). False when unsure (another launcher,
/// a variable missing or not a number): the ranks may then need a network.
[[nodiscard]] bool ranks_share_one_node(EnvironmentLookup env = process_environment);

/// An Open MPI setting (an OMPI_MCA_ variable) to put in the environment before MPI_Init.
struct MpiStartSetting {
  std::string name;
  std::string value;
  friend bool operator==(const MpiStartSetting&, const MpiStartSetting&) = default;
};

/// What this start of the process needs from Open MPI, each setting to be set only where the
/// user has not set it (setenv without overwrite; MpiSession does):
///   * ranks that all share this machine: OMPI_MCA_pml=ob1 (shared memory; the default
///     layer first probes the network devices before it settles for shared memory);
///   * a process started alone, given a session directory of its own (`session_dir` not
///     empty): OMPI_MCA_ess_singleton_isolated=1, so that MPI_Init does not start Open MPI's
///     daemon (orted) beside it, which only a process that spawns others needs and wormnet
///     never does (its start is most of a one-rank start's cost: docs/scaling.md, "Strong scaling
///     of the whole process"), and OMPI_MCA_orte_jobfam_session_dir = `session_dir`. Every isolated
///     singleton has the same job name, so without it concurrent ones share Open MPI's job
///     session directory, and one's MPI_Finalize removes it while another's MPI_Init creates
///     it (docs/analysis.md, section 6, has the failure's measurements). A user's own
///     OMPI_MCA_ess_singleton_isolated=0 keeps the daemon, which works in the own directory.
///     Without a directory (none could be made): Open MPI's defaults, daemon included.
/// Ranks on several nodes, or under a launcher that cannot tell: nothing.
[[nodiscard]] std::vector<MpiStartSetting> mpi_start_settings(EnvironmentLookup env,
                                                              const std::string& session_dir);

/// A session directory of this process's own for an isolated singleton:
/// BASE/wormnet-mpi.UID/PID.NS, BASE where Open MPI puts its own by default
/// (OMPI_MCA_orte_tmpdir_base, else TMPDIR, TEMP, TMP, else /tmp), named after the process id
/// and the start time in nanoseconds, which no other process running at once has; the
/// per-user parent keeps what an abnormal exit leaves (as Open MPI's ompi.HOST.UID) together.
[[nodiscard]] std::string own_session_dir(EnvironmentLookup env = process_environment);

/// Makes `dir` and its parent (owner only; an existing parent is fine): true when `dir` is
/// new and ours. False (nothing to use) when the place cannot hold it: read-only, missing,
/// not a directory. MPI_Finalize removes `dir`; the parent stays.
[[nodiscard]] bool make_session_dir(const std::string& dir);

}  // namespace wormnet
