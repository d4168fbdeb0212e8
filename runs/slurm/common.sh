# Shared by the SLURM job scripts of runs/slurm (sourced, not run). The scripts are copied by
# SLURM into its spool directory, so they find this file, the merge script and themselves
# through WORMNET_SCRIPTS: runs/slurm of the checkout they were submitted from (default:
# $SLURM_SUBMIT_DIR/runs/slurm, i.e. submit from the repository root, or set it).
#
# Settings every script reads from the environment (sbatch passes it on):
#   WORMNET          the wormnet binary (default: wormnet on PATH, else build/release/src/wormnet)
#   LAUNCH           how a parallel step is started (default: srun)
#   MAX_SUBMISSIONS  resubmissions allowed for one run before giving up (default: 20)

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

# Exit codes of `wormnet run` / `wormnet sweep` (README): 0 done, 4 deadlock (a result),
# 5 interrupted with a checkpoint (continue with --restart), anything else an error.
readonly WORMNET_DONE=0 WORMNET_DEADLOCK=4 WORMNET_INTERRUPTED=5

log() { printf '%s [job %s%s] %s\n' "$(date -u +%FT%TZ)" "${SLURM_JOB_ID:-local}" \
  "${SLURM_ARRAY_TASK_ID:+ task $SLURM_ARRAY_TASK_ID}" "$*"; }

# run_checkpointed NAME CHECKPOINT_DIR DONE_MARKER RESUBMIT_COMMAND... -- WORMNET_ARGS...
# Runs `wormnet WORMNET_ARGS` (first submission) or `wormnet run|sweep --restart DIR` (when a
# checkpoint exists) under $LAUNCH, with --walltime $WALLTIME and the checkpoint directory.
# Exit 5 (interrupted): resubmit with RESUBMIT_COMMAND (SUBMISSION+1 in its environment) and
# return 0. Exit 0 or 4: touch DONE_MARKER and return 0. Anything else: return that code, no
# resubmission (a bad input or a crash would only fail again).
run_checkpointed() {
  local name=$1 ckpt=$2 marker=$3
  shift 3
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
  log "$name: $LAUNCH $WORMNET ${args[*]}"
  $LAUNCH "$WORMNET" "${args[@]}"
  local rc=$?
  case $rc in
    "$WORMNET_DONE" | "$WORMNET_DEADLOCK")
      log "$name: finished (exit $rc)"
      touch "$marker"
      return 0
      ;;
    "$WORMNET_INTERRUPTED")
      if ((SUBMISSION >= MAX_SUBMISSIONS)); then
        log "$name: interrupted after $SUBMISSION submissions (MAX_SUBMISSIONS): not resubmitting"
        return "$rc"
      fi
      log "$name: interrupted with a checkpoint; resubmitting (submission $((SUBMISSION + 1)))"
      SUBMISSION=$((SUBMISSION + 1)) "${resubmit[@]}" || {
        log "$name: resubmission failed"
        return 1
      }
      return 0
      ;;
    *)
      log "$name: wormnet failed (exit $rc): not resubmitting; see the error above"
      return "$rc"
      ;;
  esac
}
