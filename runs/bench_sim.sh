#!/usr/bin/env bash
# Simulation speed and memory on the simulation issue's benchmark configurations, one core
# (taskset -c 0 when available), next to the BookSim2 reference figures the issue quotes for
# this machine class (0.9 and 0.5 million flit-hops/s; about 60 KB per router on 16x16x16).
# Builds nothing and is not a test: it prints router-cycles/s, flit-hops/s and bytes/router.
#   usage: runs/bench_sim.sh path/to/wormnet [measure-cycles]
set -uo pipefail
export LC_ALL=C

wormnet=${1:?usage: $0 path/to/wormnet [measure-cycles]}
measure=${2:-50000}
if [[ ! -x $wormnet ]]; then
  echo "bench_sim: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c 0); fi

printf '# wormnet %s, %s, load average %s\n' "$("$wormnet" --version)" \
  "${pin[*]:-not pinned (no taskset)}" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %14s %14s %10s %12s %12s\n' case "router-cyc/s" "flit-hops/s" "x BookSim" \
  "model B/rtr" "RSS B/rtr"

bench() {
  local name=$1 booksim=$2
  shift 2
  local out
  out=$("${pin[@]}" "$wormnet" run "$@" 2>&1)
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    printf '%-34s failed (exit %d): %s\n' "$name" "$rc" "$(echo "$out" | tail -n 1)"
    return
  fi
  local speed memory rcs fhs model rss
  speed=$(echo "$out" | grep '^speed')
  memory=$(echo "$out" | grep '^memory')
  rcs=$(echo "$speed" | sed -E 's/.* s: ([0-9.e+]+) router-cycles\/s.*/\1/')
  fhs=$(echo "$speed" | sed -E 's/.*, ([0-9.e+]+) flit-hops\/s.*/\1/')
  model=$(echo "$memory" | sed -E 's/^memory +([0-9]+) bytes\/router.*/\1/')
  rss=$(echo "$memory" | sed -E 's/.*= ([0-9]+) bytes\/router.*/\1/')
  local ratio=-
  if [[ $booksim != - ]]; then ratio=$(awk -v a="$fhs" -v b="$booksim" 'BEGIN{printf "%.1f", a/b}'); fi
  printf '%-34s %14s %14s %10s %12s %12s\n' "$name" "$rcs" "$fhs" "$ratio" "$model" "$rss"
}

common=(--vcs 2 --buffer 4 --load 0.10 --traffic uniform --warmup 2000 --measure "$measure")
bench "mesh:16x16 xy, 20-flit packets" 0.9e6 -t mesh:16x16 -r xy --length 20 "${common[@]}"
bench "torus:8x8x8 dor-dateline, 4 flits" 0.5e6 -t torus:8x8x8 -r dor-dateline --length 4 \
  "${common[@]}"
bench "torus:16x16x16 dor-dateline (mem)" - -t torus:16x16x16 -r dor-dateline --length 4 \
  --vcs 2 --buffer 4 --load 0.10 --warmup 500 --measure 2000
