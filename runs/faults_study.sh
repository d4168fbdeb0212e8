#!/usr/bin/env bash
# What faults cost (docs/faults_study.md): Angara tables made around random failed links and
# nodes on torus:8x8x8 and torus:4x4x4x4. For every fault set, BFS, genetic and SSSP tables
# (`wormnet tables --json`: pairs without a legal route, mean and largest stretch, pi,
# sigma(4,R)); for one seed of each fault count, the SSSP table drives a sweep under uniform
# and all-to-all traffic (saturation throughput = the highest accepted load).
# analysis/faults_study.py reads the files, prints the tables and draws the figure.
#   usage: runs/faults_study.sh path/to/wormnet OUTDIR [quick]
# quick: torus:8x8x8 only, fewer fault sets and shorter windows (to try the script out).
set -euo pipefail
export LC_ALL=C

wormnet=${1:?usage: $0 path/to/wormnet OUTDIR [quick]}
out=${2:?usage: $0 path/to/wormnet OUTDIR [quick]}
mode=${3:-full}
if [[ ! -x $wormnet ]]; then
  echo "faults_study: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
mkdir -p "$out"

topologies=(torus:8x8x8 torus:4x4x4x4)
link_counts=(4 16 48)
link_seeds=(1 2 3)
node_counts=(1 4)
node_seeds=(1 2)
warmup=500
measure=1500
if [[ $mode == quick ]]; then
  topologies=(torus:8x8x8)
  link_counts=(16)
  link_seeds=(1)
  node_counts=(4)
  node_seeds=(1)
  measure=1000
fi
# The genetic algorithm is cut at 25 generations (its default patience takes minutes on
# 512 nodes); BFS and SSSP are as `wormnet tables` makes them.
generator=(--seed 1 --max-generations 25 --allow-unroutable)
# 8-flit packets in 32-flit buffers, one VC, bubble flow control in the rings (as
# runs/tables_sim.sh); loads 0.1 .. 1.0 until one point past saturation.
sim=(--routing table --flow-control bubble --length 8 --buffer 32 --warmup "$warmup"
  --measure "$measure" --load-range 0.1:1.0:0.1 --after-saturation 1 --seed 1 --quiet)

# Fault sets: name and options (an empty set: no faults).
sets=("none|")
for k in "${link_counts[@]}"; do
  for s in "${link_seeds[@]}"; do sets+=("links${k}_s${s}|--fail-links $k --fault-seed $s"); done
done
for k in "${node_counts[@]}"; do
  for s in "${node_seeds[@]}"; do sets+=("nodes${k}_s${s}|--fail-nodes $k --fault-seed $s"); done
done

for topo in "${topologies[@]}"; do
  shape=${topo#torus:}
  for entry in "${sets[@]}"; do
    name=${entry%%|*}
    read -r -a faults <<<"${entry#*|}"
    gen=("${generator[@]}")
    [[ ${#faults[@]} -eq 0 ]] && gen=(--seed 1 --max-generations 25)
    for alg in bfs genetic sssp; do
      base=$out/table_${shape}_${name}_${alg}
      if [[ ! -s $base.json ]]; then
        rm -f "$base.h5"
        "$wormnet" tables -t "$topo" -a "$alg" "${gen[@]}" "${faults[@]}" --json -o "$base.h5" \
          >"$base.json"
      fi
      echo "[$shape $name $alg] table done"
    done
    # Simulated: the first seed of each fault count, SSSP's table.
    if [[ $name == none || $name == *_s1 ]]; then
      drop=()
      [[ ${#faults[@]} -gt 0 ]] && drop=(--drop-unroutable)
      for pattern in uniform all-to-all; do
        sweep=$out/sweep_${shape}_${name}_sssp_${pattern}.h5
        if [[ ! -s $sweep ]]; then
          "$wormnet" sweep -t "$topo" --tables "$out/table_${shape}_${name}_sssp.h5" \
            "${faults[@]}" --traffic "$pattern" "${sim[@]}" "${drop[@]}" -o "$sweep"
        fi
        echo "[$shape $name sssp] $pattern done"
      done
    fi
  done
done
echo "faults_study: files in $out; read them with /usr/bin/python3 analysis/faults_study.py $out"
