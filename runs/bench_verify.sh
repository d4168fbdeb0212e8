#!/usr/bin/env bash
# Times `wormnet verify` on the Foundation issue's speed targets, H_30 (5,400 nodes) under every
# honeycomb routing and the 8x8x8x8 torus under dor-dateline and angara, pinned to one core
# (taskset -c 0 when available). Builds nothing and is not a test: it prints the times.
#   usage: runs/bench_verify.sh path/to/wormnet
set -uo pipefail
export LC_ALL=C

wormnet=${1:?usage: $0 path/to/wormnet}
if [[ ! -x $wormnet ]]; then
  echo "bench_verify: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c 0); fi

printf '# wormnet %s, %s\n' "$("$wormnet" --version)" "${pin[*]:-not pinned (no taskset)}"
printf '%-16s %-18s %-16s %9s %8s %11s\n' topology routing verdict "wall [s]" "cpu [s]" "verify [s]"

bench() {
  local topo=$1 routing=$2 out cpu start end rc verdict ms
  out=$(mktemp)
  cpu=$(mktemp)
  local TIMEFORMAT='%U %S'
  start=$(date +%s%N)
  { time "${pin[@]}" "$wormnet" verify --topology "$topo" --routing "$routing" --json \
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
  printf '%-16s %-18s %-16s %5d.%03d %8.2f %11.3f\n' "$topo" "$routing" "$verdict" \
    $((ms / 1000)) $((ms % 1000)) "$(awk '{print $1 + $2}' "$cpu")" \
    "$(sed -n 's/.*"seconds":\([0-9.eE+-]*\).*/\1/p' "$out")"
  rm -f "$out" "$cpu"
}

for routing in stojmenovic xy-first double-xy double-xy-turn minimal-adaptive; do
  bench honeycomb:30 "$routing"
done
for routing in dor-dateline angara; do
  bench torus:8x8x8x8 "$routing"
done
