#!/bin/bash
# Submits a job-array sweep and its merge: one array task per load of LOADS
# (runs/slurm/sweep_array.sbatch), then runs/slurm/sweep_merge.sbatch once every task has
# ended. Run from the repository root; settings as in those scripts, from the environment
# (PYTHON: a Python with h5py for the merge, found first: runs/slurm/common.sh, find_python):
#   LOADS="0.05 0.1 0.15 0.2" CONFIG=my_sweep.toml NAME=hc12 runs/slurm/submit_sweep.sh
set -euo pipefail
: "${WORMNET_SCRIPTS:=$PWD/runs/slurm}"
: "${LOADS:=0.02 0.04 0.06 0.08 0.10 0.12 0.14 0.16}"
export WORMNET_SCRIPTS LOADS
source "$WORMNET_SCRIPTS/common.sh"
# The merge needs a Python with h5py: found (or refused, exit 1) before anything is submitted,
# and passed on to the merge job.
PYTHON=$(find_python) || exit 1
export PYTHON
read -r -a loads <<<"$LOADS"
array=$(sbatch --parsable --array="0-$((${#loads[@]} - 1))" "$WORMNET_SCRIPTS/sweep_array.sbatch")
array=${array%%;*}  # --parsable prints "jobid[;cluster]"
echo "sweep: array job $array, ${#loads[@]} points"
# afterany: the merge runs whatever the tasks' fate and says which points are not there yet.
merge=$(sbatch --parsable --dependency="afterany:$array" "$WORMNET_SCRIPTS/sweep_merge.sbatch")
echo "sweep: merge job ${merge%%;*} (after $array)"
