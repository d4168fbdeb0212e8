#!/usr/bin/env bash
# Times `wormnet verify` on the speed targets, H_30 (5,400 nodes) under every honeycomb
# routing and the 8x8x8x8 torus under dor-dateline and angara, pinned to one core (taskset -c
# 0 when available); then, with an mpiexec, H_40 double-xy and H_30 double-xy-turn split over
# 1 and 2 ranks (every rank explores its share of the destinations). "states" is the number of
# routing states the verifier explored ("-" for a binary that does not say). Builds nothing and
# is not a test: it prints the times.
#   usage: runs/bench_verify.sh path/to/wormnet [mpiexec]
set -uo pipefail
export LC_ALL=C

wormnet=${1:?usage: $0 path/to/wormnet [mpiexec]}
mpiexec=${2:-}
if [[ ! -x $wormnet ]]; then
  echo "bench_verify: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c 0); fi

printf '# wormnet %s, %s, load average %s\n' "$("$wormnet" --version)" \
  "${pin[*]:-not pinned (no taskset)}" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %-18s %-16s %9s %8s %11s %10s\n' topology routing verdict "wall [s]" "cpu [s]" \
  "verify [s]" states

bench() {
  local topo=$1 routing=$2 out cpu start end rc verdict ms states
  local run=("${pin[@]}")
  [[ -n ${3:-} ]] && run=(env OMPI_MCA_mpi_yield_when_idle=1 "$mpiexec" --oversubscribe -n "$3")
  out=$(mktemp)
  cpu=$(mktemp)
  local TIMEFORMAT='%U %S'
  start=$(date +%s%N)
  { time "${run[@]}" "$wormnet" verify --topology "$topo" --routing "$routing" --json \
      >"$out" 2>&1; } 2>"$cpu"
  rc=$?
  end=$(date +%s%N)
  case $rc in
    0) verdict=deadlock-free ;;
    1) verdict="cycle of $(grep -o '"direction"' "$out" | wc -l)" ;;
    *) printf '%-16s %-18s not run: %s\n' "$topo" "$routing" "$(head -n 1 "$out")"
       rm -f "$out" "$cpu"
       return ;;
  esac
  ms=$(((end - start) / 1000000))
  # cpu = user + system time of the process (less sensitive than wall time to other load on
  # the machine); "seconds" in the JSON = the analysis alone, without building the topology.
  states=$(sed -n 's/.*"states":\([0-9]*\).*/\1/p' "$out")
  printf '%-16s %-18s %-16s %5d.%03d %8.2f %11.3f %10s\n' "${topo}${3:+ ($3 ranks)}" "$routing" \
    "$verdict" $((ms / 1000)) $((ms % 1000)) "$(awk '{print $1 + $2}' "$cpu")" \
    "$(sed -n 's/.*"seconds":\([0-9.eE+-]*\).*/\1/p' "$out")" "${states:--}"
  rm -f "$out" "$cpu"
}

for routing in stojmenovic xy-first double-xy double-xy-turn minimal-adaptive; do
  bench honeycomb:30 "$routing"
done
for routing in dor-dateline angara; do
  bench torus:8x8x8x8 "$routing"
done
if [[ -n $mpiexec ]]; then
  for ranks in 1 2; do bench honeycomb:40 double-xy "$ranks"; done
  # The one H_30 routing whose dependencies have no symmetry to use: the ranks must share it.
  for ranks in 1 2; do bench honeycomb:30 double-xy-turn "$ranks"; done
fi
