#!/usr/bin/env bash
# Every speed and size figure the README and docs/ quote as the current code's, measured again
# in one go (issue 42, item 4): each benchmark of runs/ that stands behind a figure, one after
# the other, each output kept in OUT/<step>.txt under a header naming the commit, the command,
# the date and the machine's load average before and after. docs/scaling.md "Current figures"
# is the table made from one such run; re-run this on the final code of a change that claims
# speed and update the table from OUT/. Needs a quiet machine (look at the load average first:
# the steps are wall-clock figures but `cache` and `congestion-instructions`) and about 8
# minutes with the default steps (plus 1-2 for ten-million, 5-8 for fidelity; measured 7 Dec
# 2026). Builds nothing and is not a test.
#
#   usage: [STEPS=sim,whole,scaling,million,congestion,cache,memory,verify,load,tables,weak]
#          [BOOKSIM=path/to/booksim] runs/bench_figures.sh [build-dir] [out-dir]
#     build-dir  default build/release (its src/wormnet and tools/ are measured)
#     out-dir    default bench-figures/ (one file per step)
#   Extra steps, not in the default list: ten-million (torus:216x216x216 on 2 ranks: 9 GB of
#   memory, 1-2 minutes), congestion-instructions (callgrind, slow but load-independent),
#   fidelity (BookSim side by side: needs BOOKSIM, 5-8 minutes).
set -euo pipefail
export LC_ALL=C OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

build=${1:-build/release}
out=${2:-bench-figures}
steps=${STEPS:-sim,whole,scaling,million,congestion,cache,memory,verify,load,tables,weak}
wormnet=$build/src/wormnet
runs=$(dirname "$0")
if [[ ! -x $wormnet ]]; then
  echo "bench_figures: '$wormnet' is not built (cmake --preset release && cmake --build $build)" >&2
  exit 2
fi
IFS=, read -r -a names <<<"$steps"
known=" sim whole scaling million congestion congestion-instructions cache memory verify load tables weak ten-million fidelity "
for name in "${names[@]}"; do
  if [[ $known != *" $name "* ]]; then
    echo "bench_figures: step '$name' is not one of$known" >&2
    exit 2
  fi
  if [[ $name == fidelity && ! -x ${BOOKSIM:-} ]]; then
    echo "bench_figures: step 'fidelity' needs BOOKSIM=path/to/booksim (an executable; got '${BOOKSIM:-}')" >&2
    exit 2
  fi
done
mkdir -p "$out"

# The command of each step, as it is run and as the header records it.
command_of() {
  case $1 in
    sim) echo "$runs/bench_sim.sh $wormnet" ;;
    whole) echo "$runs/bench_whole.sh $wormnet" ;;
    scaling) echo "REPEATS=3 $runs/bench_scaling.sh $build 2" ;;
    million) echo "ROUNDS=3 $runs/bench_million.sh $wormnet" ;;
    congestion) echo "$runs/bench_congestion.sh $wormnet" ;;
    congestion-instructions) echo "INSTRUCTIONS=1 $runs/bench_congestion.sh $wormnet" ;;
    cache) echo "LL_BYTES=1048576 $runs/bench_cache_model.sh $wormnet" ;;
    memory) echo "$build/tools/wormnet_memory_bandwidth" ;;
    verify) echo "$runs/bench_verify.sh $wormnet mpiexec" ;;
    load) echo "$runs/bench_load.sh $wormnet quick" ;;
    tables) echo "$runs/bench_tables.sh $wormnet" ;;
    weak) echo "$runs/bench_weak.sh $build" ;;
    ten-million) echo "mpiexec -n 2 $wormnet run -t torus:216x216x216 -r dor-dateline --load 0.002 --length 4 --warmup 100 --measure 300 --drain-limit 1 -o $out/ten-million.h5" ;;
    fidelity) echo "$runs/fidelity/compare.py --booksim $BOOKSIM --wormnet $wormnet --out $out/fidelity" ;;
  esac
}
load() { cut -d' ' -f1-3 /proc/loadavg; }

for name in "${names[@]}"; do
  cmd=$(command_of "$name")
  file=$out/$name.txt
  {
    printf '# step %s: %s\n' "$name" "$cmd"
    printf '# wormnet %s, %d cores, %s, load average before %s\n' "$("$wormnet" --version)" \
      "$(nproc)" "$(date -u '+%d %b %Y %H:%M UTC')" "$(load)"
  } >"$file"
  echo "bench_figures: $name ($(date -u +%H:%M), load $(load)) -> $file"
  start=$(date +%s)
  status=0
  # The step's output goes to its file whole; a failed step is said and the next one runs.
  if [[ $name == fidelity ]]; then
    /usr/bin/python3 $cmd >>"$file" 2>&1 || status=$?
  else
    bash -c "$cmd" >>"$file" 2>&1 || status=$?
  fi
  rm -f "$out/ten-million.h5"
  printf '# %s s, exit status %d, load average after %s\n' "$(($(date +%s) - start))" "$status" \
    "$(load)" >>"$file"
  if [[ $status != 0 ]]; then
    echo "bench_figures: step '$name' failed (exit status $status): see $file" >&2
  fi
done
echo "bench_figures: done; the figures are in $out/"
