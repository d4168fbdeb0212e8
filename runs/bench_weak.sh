#!/usr/bin/env bash
# Weak scaling measured by work, not time: the same box of routers per rank at 1, 2, 4, 8 and
# 16 ranks (the torus doubles one side at a time, so every rank's part keeps the box's shape),
# oversubscribed beyond the machine's cores. Time on an oversubscribed machine says nothing;
# what each rank does per window does: flit-hops per rank and cycle (the compute), and the
# messages and bytes each rank sends per window (the exchange: NeighborExchange counts them,
# the run's `exchange` line prints them). docs/scaling.md projects a cluster from these.
#
#   runs/bench_weak.sh [build-dir] [side] [max-ranks]
#     side: the per-rank box is side x side x side routers (default 16: 4,096 routers)
#   TRAFFIC="neighbor uniform" LOAD=0.01 WARMUP=300 MEASURE=1000 (defaults)
#
# Prints one row per traffic and rank count.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/release}
side=${2:-16}
max_ranks=${3:-16}
wormnet=$build/src/wormnet
traffics=${TRAFFIC:-neighbor uniform}
load=${LOAD:-0.01}
warmup=${WARMUP:-300}
measure=${MEASURE:-1000}
py=/usr/bin/python3
[[ -x $py ]] && $py -c 'import h5py' 2>/dev/null || py=python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "weak scaling, ${side}x${side}x${side} routers per rank, dor-dateline, load $load," \
  "20-flit messages, $warmup + $measure cycles ($(date -u +%F), load average" \
  "$(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-9s %5s %-14s %8s %14s %12s %12s %12s %12s\n' traffic ranks topology routers \
  "hops/rank/cyc" "msgs/rank/w" "bytes/rank/w" "sent/rank/w" "busiest/w"
for traffic in $traffics; do
  dims=("$side" "$side" "$side")
  for ((p = 1; p <= max_ranks; p *= 2)); do
    topology="torus:${dims[0]}x${dims[1]}x${dims[2]}"
    out=$work/p$p.h5
    log=$work/p$p.log
    mpiexec --oversubscribe -n "$p" "$wormnet" run -t "$topology" -r dor-dateline \
      --traffic "$traffic" --load "$load" --length 20 --warmup "$warmup" --measure "$measure" \
      --drain-limit 20000 -o "$out" >"$log" 2>&1 ||
      { echo "bench_weak: the run on $p ranks failed:" >&2; tail -n 3 "$log" >&2; exit 1; }
    hops=$($py -c "import h5py,sys
with h5py.File(sys.argv[1]) as f:
    a = f['points/000'].attrs
    print(a['flit_hops'] / (int(sys.argv[2]) * a['cycles']))" "$out" "$p")
    routers=$((dims[0] * dims[1] * dims[2]))
    if ((p == 1)); then
      msgs=0 bytes=0 sent=0 busiest=0
    else
      read -r msgs bytes sent busiest < <(awk '/^exchange/ {
        print $6, $8, substr($14, 2), $(NF - 3) }' "$log")
    fi
    printf '%-9s %5d %-14s %8d %14.3f %12s %12s %12s %12s\n' "$traffic" "$p" "$topology" \
      "$routers" "$hops" "$msgs" "$bytes" "$sent" "$busiest"
    rm -f "$out"
    # The next rank count doubles the smallest side (the first of equal ones).
    k=0
    for i in 1 2; do ((dims[i] < dims[k])) && k=$i; done
    dims[k]=$((dims[k] * 2))
  done
done
