// Whether an MPI launcher started this process, from the variables launchers set for the
// processes they start (before MPI_Init, so that the MPI session can be set up for it).
#pragma once

namespace wormnet {

/// Open MPI's mpiexec (OMPI_COMM_WORLD_SIZE), MPICH's hydra (PMI_RANK, PMI_SIZE), SLURM's
/// srun (SLURM_STEP_ID with SLURM_PROCID), other PMIx launchers (PMIX_RANK). False for a
/// process started by itself (a singleton: one rank), even after MPI_Init, which sets
/// PMIX_RANK with OMPI_MCA_ess=singleton.
[[nodiscard]] bool started_by_launcher();

}  // namespace wormnet
