#!/usr/bin/env bash
# Two wormnet binaries side by side on one rank's share of the million-router benchmark
# (runs/bench_million.sh): torus:100x100x50 under dor-dateline, 4-flit messages at 0.002
# flits/node/cycle, one process per binary at the same time, each pinned to a core of its own,
# the cores swapped every round. Both run through the same minutes of a machine whose speed
# drifts (this one's by up to 1.5x within the hour), which alternating runs only average out;
# the swap cancels a difference between the cores. Prints each round's loop seconds and the
# sums and minima over the rounds (lower is faster). Builds nothing and is not a test. Needs
# two cores and about 1.2 GB of memory.
#
#   usage: [ROUNDS=4] runs/bench_million_side.sh path/to/wormnet_A path/to/wormnet_B
set -uo pipefail
export LC_ALL=C

rounds=${ROUNDS:-4}
if [[ $# -ne 2 ]]; then
  echo "usage: [ROUNDS=4] $0 path/to/wormnet_A path/to/wormnet_B" >&2
  exit 2
fi
for b in "$@"; do
  if [[ ! -x $b ]]; then
    echo "bench_million_side: '$b' is not an executable wormnet binary" >&2
    exit 2
  fi
done
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "bench_million_side: ROUNDS '$rounds' must be a positive integer" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {  # binary core: the loop's seconds, or "failed"
  local log
  log=$(taskset -c "$2" "$1" run -t torus:100x100x50 -r dor-dateline --load 0.002 --length 4 \
    --warmup 100 --measure 200 -o "$out/core$2.h5" 2>&1) || {
    echo failed
    return
  }
  echo "$log" | sed -nE 's/^speed +[0-9]+ cycles in ([0-9.]+) s.*/\1/p'
}

printf '# torus:100x100x50 dor-dateline, load 0.002, 4-flit messages, one rank each; load average %s\n' \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '# A %s\n# B %s\n' "$1" "$2"
printf '%-6s %8s %8s %12s %12s\n' round "A core" "B core" "A loop s" "B loop s"
sum_a=0
sum_b=0
min_a=
min_b=
for ((round = 1; round <= rounds; ++round)); do
  core_a=$(((round - 1) % 2))
  core_b=$((1 - core_a))
  run "$1" "$core_a" >"$out/a" &
  run "$2" "$core_b" >"$out/b"
  wait
  a=$(cat "$out/a")
  b=$(cat "$out/b")
  printf '%-6s %8s %8s %12s %12s\n' "$round" "$core_a" "$core_b" "$a" "$b"
  if [[ $a == failed || $b == failed || -z $a || -z $b ]]; then
    echo "bench_million_side: a run failed in round $round" >&2
    exit 1
  fi
  sum_a=$(awk -v s="$sum_a" -v x="$a" 'BEGIN { print s + x }')
  sum_b=$(awk -v s="$sum_b" -v x="$b" 'BEGIN { print s + x }')
  min_a=$(awk -v m="${min_a:-$a}" -v x="$a" 'BEGIN { print (x < m ? x : m) }')
  min_b=$(awk -v m="${min_b:-$b}" -v x="$b" 'BEGIN { print (x < m ? x : m) }')
done
# The sum weighs every round; the fastest round of each binary is the one least disturbed by
# whatever else the host runs (on a shared machine single rounds were 1.5x slow at times).
awk -v a="$sum_a" -v b="$sum_b" \
  'BEGIN { printf "sum    %30.3f %12.3f   A/B %.3f\n", a, b, a / b }'
awk -v a="$min_a" -v b="$min_b" \
  'BEGIN { printf "min    %30.3f %12.3f   A/B %.3f\n", a, b, a / b }'
