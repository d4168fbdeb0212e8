#!/usr/bin/env bash
# Runs every Figure 5 sweep (runs/fig5/<variant>/*.toml) into a results directory, then the
# two-seed noise check, then draws the figures and prints the saturation points.
#
#   runs/fig5/run_all.sh [-j N] [-o DIR] [--figures DIR] [--wormnet BIN]
#                        [--variants "paper shared b1"] [--no-seeds] [--quick]
#
#   -j N        sweeps run at a time (default 1; each sweep is one process on one core)
#   -o DIR      results directory (default results/fig5): DIR/<variant>/<curve>.h5 and .log,
#               DIR/seeds/<curve>_seed2.h5
#   --figures   where the PNGs go (default DIR/figures; docs/img holds the committed ones)
#   --wormnet   the wormnet binary (default build/release/src/wormnet)
#   --variants  which configuration folders to run (default: paper shared b1)
#   --no-seeds  skip the second-seed runs
#   --quick     short windows (a smoke test of the pipeline: 2 minutes instead of 17 at -j 2;
#               the numbers are not statistically sound)
#
# A sweep whose log ends in "done" is skipped, so an interrupted study resumes where it
# stopped; delete the log to run a sweep again. Runs are niced (nice -n 10): the machine is
# shared. See docs/figure5.md for what the variants are and what came out.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$root/runs/study_options.sh"

jobs=1
out="$root/results/fig5"
wormnet="$root/build/release/src/wormnet"
variants="paper shared b1"
seeds=1
quick=()
figures=""
while (($#)); do
  case "$1" in
    -j|-o|--figures|--wormnet|--variants)
      study_value run_all.sh "$1" $#
      case "$1" in
        -j) jobs="$2" ;;
        -o) out="$2" ;;
        --figures) figures="$2" ;;
        --wormnet) wormnet="$2" ;;
        --variants) variants="$2" ;;
      esac
      shift 2 ;;
    -j*) jobs="${1#-j}"; shift ;;
    --no-seeds) seeds=0; shift ;;
    --quick) quick=(--warmup 2000 --measure 20000 --drain-limit 20000); shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) study_unknown run_all.sh "$1" ;;
  esac
done
study_jobs run_all.sh "$jobs"
study_wormnet run_all.sh "$wormnet"
python=/usr/bin/python3

# The second-seed check: curve and the loads (fractions of (N-1)/pi, all in the curve's
# configuration) to run again with seed 2: low load, the knee, and just below saturation.
seed_checks=(
  "paper/a_h6_double-xy 0.029,0.232,0.2697"
  "paper/a_mesh16_west-first 0.041,0.328,0.3813"
  "paper/b_h4_xy-first_100 0.0385,0.308,0.3581"
)

# One sweep: run_one CONFIG OUTPUT_H5 LOG [extra wormnet options...]
run_one() {
  local config="$1" h5="$2" log="$3"
  shift 3
  if [[ -f $log ]] && [[ $(tail -n 1 "$log") == done ]]; then
    echo "skip  $h5 (done)"
    return 0
  fi
  echo "start $h5"
  local start=$SECONDS
  if nice -n 10 "$wormnet" sweep --config "$config" -o "$h5" "${quick[@]}" "$@" >"$log" 2>&1; then
    echo "done" >>"$log"
    echo "end   $h5 ($((SECONDS - start)) s)"
  else
    echo "FAIL  $h5 (exit $?; see $log)" >&2
    return 1
  fi
}

failures=0
running=0
# Starts a job, keeping at most $jobs running.
spawn() {
  while ((running >= jobs)); do
    wait -n || failures=$((failures + 1))
    running=$((running - 1))
  done
  run_one "$@" &
  running=$((running + 1))
}

for variant in $variants; do
  if [[ ! -d $here/$variant ]]; then
    echo "run_all.sh: --variants: no folder runs/fig5/$variant" >&2; exit 2
  fi
  mkdir -p "$out/$variant"
  for config in "$here/$variant"/*.toml; do
    name="$(basename "$config" .toml)"
    spawn "$config" "$out/$variant/$name.h5" "$out/$variant/$name.log"
  done
done
if ((seeds)); then
  mkdir -p "$out/seeds"
  for check in "${seed_checks[@]}"; do
    read -r curve loads <<<"$check"
    name="$(basename "$curve")"
    spawn "$here/$curve.toml" "$out/seeds/${name}_seed2.h5" "$out/seeds/${name}_seed2.log" \
      --seed 2 --loads "$loads"
  done
fi
while ((running > 0)); do
  wait -n || failures=$((failures + 1))
  running=$((running - 1))
done
if ((failures > 0)); then
  echo "run_all.sh: $failures sweep(s) failed; figures not drawn" >&2
  exit 1
fi

export MPLCONFIGDIR="${MPLCONFIGDIR:-$out/.matplotlib}"
figures="${figures:-$out/figures}"
for variant in $variants; do
  inputs=("$out/$variant")
  # Routings with one VC give identical results with shared or per-VC bandwidth: the
  # shared-bandwidth figure borrows them from the paper variant.
  if [[ $variant == shared && -d $out/paper ]]; then
    inputs+=("$out"/paper/a_h6_xy-first.h5 "$out"/paper/a_mesh16_west-first.h5
             "$out"/paper/b_h4_xy-first_*.h5)
  fi
  "$python" "$root/analysis/fig5.py" "${inputs[@]}" --out-dir "$figures" \
    --prefix "fig5_$variant" --table
done
# The effect of the VC bandwidth: both variants in one figure (same denominator per topology).
if [[ -d $out/paper && -d $out/shared ]]; then
  "$python" "$root/analysis/fig5.py" "$out/paper" "$out/shared" --out-dir "$figures" \
    --prefix fig5_paper_and_shared --norm bisection
fi
if ((seeds)) && [[ -d $out/paper ]]; then
  "$python" "$root/analysis/compare_seeds.py" "$out/seeds"/*.h5 --against "$out/paper"
fi
