# Shared by the SLURM job scripts of runs/slurm (sourced, not run). The scripts are copied by
# SLURM into its spool directory, so they find this file, the merge script and themselves
# through WORMNET_SCRIPTS: runs/slurm of the checkout they were submitted from (default:
# $SLURM_SUBMIT_DIR/runs/slurm, i.e. submit from the repository root, or set it).
#
# Settings every script reads from the environment (sbatch passes it on):
#   WORMNET          the wormnet binary (default: wormnet on PATH, else build/release/src/wormnet)
#   LAUNCH           how a parallel step is started (default: srun)
#   MAX_SUBMISSIONS  resubmissions allowed for one run before giving up (default: 20)
#   PYTHON           a Python with h5py and numpy, for the merge (default: the first of
#                    python3 on PATH and /usr/bin/python3 that has them; see find_python)

: "${WORMNET_SCRIPTS:=${SLURM_SUBMIT_DIR:-$PWD}/runs/slurm}"
if [[ -z ${WORMNET:-} ]]; then
  if command -v wormnet >/dev/null 2>&1; then
    WORMNET=wormnet
  else
    WORMNET=${SLURM_SUBMIT_DIR:-$PWD}/build/release/src/wormnet
  fi
fi
: "${LAUNCH:=srun}"
: "${MAX_SUBMISSIONS:=20}"
: "${SUBMISSION:=1}"

# Exit codes of `wormnet run` / `wormnet sweep` (README): 0 done, 2 bad input, 4 deadlock (a
# result), 5 interrupted with a checkpoint (continue with --restart), 6 an output could not be
# written, 7 a workload the drain limit ended unfinished (status "incomplete"). A launcher may
# not pass them on (OpenMPI's mpiexec returns 1 when its ranks end with 5; a rank killed by
# the batch system leaves whatever the launcher makes of it), so the scripts decide from what
# the run left: the status of its results file (`wormnet status`) and its checkpoint.
readonly WORMNET_INTERRUPTED=5
readonly WORMNET_INCOMPLETE=7

log() { printf '%s [job %s%s] %s\n' "$(date -u +%FT%TZ)" "${SLURM_JOB_ID:-local}" \
  "${SLURM_ARRAY_TASK_ID:+ task $SLURM_ARRAY_TASK_ID}" "$*"; }

# find_python: prints a Python that imports h5py and numpy (runs/merge_points.py needs them):
# $PYTHON when set (it must have them), else the first of python3 on PATH and /usr/bin/python3
# that does (the python3 first on PATH, a module's or a virtual environment's, often lacks
# h5py: the merge once ended in a traceback). Without one: one line on stderr naming what was
# tried and what to set, and status 1.
find_python() {
  local candidates=() p
  if [[ -n ${PYTHON:-} ]]; then
    candidates=("$PYTHON")
  else
    candidates=(python3 /usr/bin/python3)
  fi
  for p in "${candidates[@]}"; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import h5py, numpy' >/dev/null 2>&1; then
      printf '%s\n' "$p"
      return 0
    fi
  done
  log "no Python with h5py and numpy (tried: ${candidates[*]}): set PYTHON to one" \
    "(Debian: /usr/bin/python3 with python3-h5py and python3-numpy)" >&2
  return 1
}

# results_state OUTPUT STAMP: the status this submission left at OUTPUT (complete, deadlock,
# incomplete, interrupted, failed, running = killed before a clean stop), or "none" when
# neither OUTPUT nor OUTPUT.partial was written after the file STAMP (an older file says
# nothing about this submission).
results_state() {
  local output=$1 stamp=$2
  if [[ -z $(find "$output" "$output.partial" -maxdepth 0 -newer "$stamp" 2>/dev/null) ]]; then
    echo none
    return
  fi
  "$WORMNET" status "$output" 2>/dev/null || echo unreadable
}

# run_checkpointed NAME OUTPUT CHECKPOINT_DIR DONE_MARKER RESUBMIT_COMMAND... -- WORMNET_ARGS...
# Runs `wormnet WORMNET_ARGS` (first submission) or `wormnet run|sweep --restart DIR` (when a
# checkpoint exists) under $LAUNCH, with --walltime $WALLTIME and the checkpoint directory;
# WORMNET_ARGS write the results to OUTPUT. Then, from the status the run left at OUTPUT:
# complete or deadlock: touch DONE_MARKER, return 0. Incomplete (a workload the drain limit
# ended before its last message): not done, no resubmission (a restart would end the same
# way); return the launcher's code (7 if it was 0). Interrupted, or running (the run was
# killed before it could stop cleanly) with a checkpoint to continue from: resubmit with
# RESUBMIT_COMMAND (SUBMISSION+1 in its environment) and return 0. Anything else (bad input,
# a failed write, no checkpoint): return the launcher's code (1 if it was 0), no
# resubmission, since it would only fail again.
run_checkpointed() {
  local name=$1 output=$2 ckpt=$3 marker=$4
  shift 4
  local resubmit=()
  while [[ $# -gt 0 && $1 != -- ]]; do resubmit+=("$1"); shift; done
  shift
  local command=$1
  local args=("$@")
  if [[ -e $marker ]]; then
    log "$name: already complete ($marker); nothing to do"
    return 0
  fi
  if [[ -f $ckpt/checkpoint.h5 ]]; then
    log "$name: submission $SUBMISSION, continuing from $ckpt/checkpoint.h5"
    args=("$command" --restart "$ckpt")
  else
    log "$name: submission $SUBMISSION, starting"
  fi
  args+=(--checkpoint-dir "$ckpt")
  [[ -n ${WALLTIME:-} ]] && args+=(--walltime "$WALLTIME")
  [[ -n ${CHECKPOINT_EVERY:-} ]] && args+=(--checkpoint-every "$CHECKPOINT_EVERY")
  local stamp
  stamp=$(mktemp "${TMPDIR:-/tmp}/wormnet-launch.XXXXXX") || return 1
  log "$name: $LAUNCH $WORMNET ${args[*]}"
  $LAUNCH "$WORMNET" "${args[@]}"
  local rc=$?
  local state
  state=$(results_state "$output" "$stamp")
  rm -f "$stamp"
  log "$name: launcher exit $rc, results status: $state"
  case $state in
    complete | deadlock)
      log "$name: finished ($state)"
      touch "$marker"
      return 0
      ;;
    incomplete)
      log "$name: the workload did not finish before --drain-limit (results status incomplete):" \
        "not marked done, not resubmitting; raise --drain-limit or see why messages stayed"
      return $((rc == 0 ? WORMNET_INCOMPLETE : rc))
      ;;
    interrupted | running)
      if [[ ! -f $ckpt/checkpoint.h5 ]]; then
        log "$name: stopped ($state) without a checkpoint to continue from: not resubmitting"
        return $((rc == 0 ? 1 : rc))
      fi
      if ((SUBMISSION >= MAX_SUBMISSIONS)); then
        log "$name: $state after $SUBMISSION submissions (MAX_SUBMISSIONS): not resubmitting"
        return $((rc == 0 ? WORMNET_INTERRUPTED : rc))
      fi
      if [[ $state == running ]]; then
        log "$name: the run ended without a clean stop (killed?); continuing from its last checkpoint"
      fi
      log "$name: interrupted with a checkpoint; resubmitting (submission $((SUBMISSION + 1)))"
      SUBMISSION=$((SUBMISSION + 1)) "${resubmit[@]}" || {
        log "$name: resubmission failed"
        return 1
      }
      return 0
      ;;
    *)
      log "$name: wormnet failed (exit $rc, results status $state): not resubmitting; see the error above"
      return $((rc == 0 ? 1 : rc))
      ;;
  esac
}
