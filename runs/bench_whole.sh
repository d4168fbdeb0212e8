#!/usr/bin/env bash
# Strong scaling of the whole process (issue 42, item 2): the wall clock from the start of the
# command to its exit, setup, loop, results and MPI start included, on 1 rank (a process
# started alone) and on P ranks (mpiexec -n P), runs alternating so that a drift of the
# machine's speed hits both alike. Prints each run, then per case the medians and their ratio.
# The cases: torus:64x64 at 20,000 measured cycles (the README's figure), H_40 under Double XY
# past saturation (its drain included) and the million-router torus. Not a test: it checks
# nothing. Needs about 1.2 GB and 3-4 minutes per round on this machine.
#
#   usage: [ROUNDS=3] [RANKS=2] [CASES=torus64,h40,torus100] runs/bench_whole.sh [path/to/wormnet]
set -uo pipefail
export LC_ALL=C OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

wormnet=${1:-build/release/src/wormnet}
rounds=${ROUNDS:-3}
ranks=${RANKS:-2}
cases=${CASES:-torus64,h40,torus100}
if [[ ! -x $wormnet ]]; then
  echo "bench_whole: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
if ! [[ $rounds =~ ^[1-9][0-9]*$ && $ranks =~ ^[2-9][0-9]*$ ]]; then
  echo "bench_whole: ROUNDS '$rounds' must be a positive integer and RANKS '$ranks' at least 2" >&2
  exit 2
fi
declare -A args=(
  [torus64]="-t torus:64x64 -r dor-dateline --load 0.013 --warmup 2000 --measure 20000"
  [h40]="-t honeycomb:40 -r double-xy --load 0.005 --warmup 2000 --measure 20000"
  [torus100]="-t torus:100x100x100 -r dor-dateline --load 0.002 --length 4 --warmup 100 --measure 200"
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

seconds() {  # command...: its wall-clock seconds (its output discarded; a failure is said)
  local start end
  start=$(date +%s.%N)
  if ! "$@" >"$tmp/log" 2>&1; then
    echo "bench_whole: failed: $*" >&2
    tail -3 "$tmp/log" >&2
  fi
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '# wormnet %s, %d cores, load average %s, %s\n' "$("$wormnet" --version)" "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u '+%d %b %Y %H:%M UTC')"
IFS=, read -r -a names <<<"$cases"
for name in "${names[@]}"; do
  if [[ -z ${args[$name]:-} ]]; then
    echo "bench_whole: case '$name' is not one of torus64, h40, torus100" >&2
    exit 2
  fi
  read -r -a words <<<"${args[$name]}"
  : >"$tmp/one"
  : >"$tmp/many"
  for ((i = 0; i < rounds; ++i)); do
    a=$(seconds "$wormnet" run "${words[@]}" -q -o "$tmp/out.h5")
    b=$(seconds mpiexec -n "$ranks" "$wormnet" run "${words[@]}" -q -o "$tmp/out.h5")
    echo "$a" >>"$tmp/one"
    echo "$b" >>"$tmp/many"
    printf '%-10s round %d: %8.3f s on 1 rank, %8.3f s on %d\n' "$name" "$((i + 1))" "$a" "$b" "$ranks"
  done
  m1=$(median <"$tmp/one")
  mp=$(median <"$tmp/many")
  printf '%-10s median %8.3f s on 1 rank, %8.3f s on %d: %.2fx   (%s)\n' "$name" "$m1" "$mp" \
    "$ranks" "$(awk -v a="$m1" -v b="$mp" 'BEGIN { print a / b }')" "${args[$name]}"
done
printf '# load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
