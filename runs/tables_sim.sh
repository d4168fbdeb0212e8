#!/usr/bin/env bash
# Table-driven simulation, the counterpart of the Angara paper's Figure 6: BFS, genetic and
# SSSP tables on a 32-node torus (4x4x2; the paper's Desmos cluster has 32 nodes and does not
# state its shape) and on a larger 3D torus (8x4x4, 128 nodes: transpose needs equal sizes or
# a power-of-two node count), each driving `wormnet sweep` under Transpose, Neighbor, Tornado
# and All-to-all with one VC and bubble flow control. The paper times 1 MB MPI messages on
# the real machine; here every pattern is swept over offered load until one point past
# saturation, so each table gets a saturation throughput and a latency curve.
# analysis/tables_sim.py reads the files and draws them.
#   usage: runs/tables_sim.sh path/to/wormnet OUTDIR [quick]
# quick: 4x4x2 only and shorter windows (a minute or two; used to try the script out).
set -euo pipefail
export LC_ALL=C

wormnet=${1:?usage: $0 path/to/wormnet OUTDIR [quick]}
out=${2:?usage: $0 path/to/wormnet OUTDIR [quick]}
mode=${3:-full}
if [[ ! -x $wormnet ]]; then
  echo "tables_sim: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
mkdir -p "$out"

topologies=(torus:4x4x2 torus:8x4x4)
warmup=2000
measure=6000
if [[ $mode == quick ]]; then
  topologies=(torus:4x4x2)
  warmup=1000
  measure=2000
fi
algorithms=(bfs genetic sssp)
patterns=(transpose neighbor tornado all-to-all)
# Packets of 8 flits in 32-flit buffers: bubble flow control needs room for two whole packets
# to enter a ring, and with only two (16 flits) that rule, not the table, caps even Neighbor
# (one hop) at about 0.57 flits/node/cycle on 4x4x2.
sim=(--routing table --flow-control bubble --length 8 --buffer 32 --warmup "$warmup"
  --measure "$measure" --load-range 0.05:1.0:0.05 --after-saturation 1 --seed 1 --quiet)

for topo in "${topologies[@]}"; do
  name=${topo#torus:}
  for alg in "${algorithms[@]}"; do
    table=$out/table_${name}_${alg}.h5
    "$wormnet" tables -t "$topo" -a "$alg" --seed 1 -o "$table" |
      grep -E '^(wormnet|table|proof)' | sed "s/^/[$name $alg] /"
    for pattern in "${patterns[@]}"; do
      "$wormnet" sweep -t "$topo" --tables "$table" --traffic "$pattern" "${sim[@]}" \
        -o "$out/sweep_${name}_${alg}_${pattern}.h5"
      echo "[$name $alg] $pattern done"
    done
  done
done
echo "tables_sim: files in $out; draw them with /usr/bin/python3 analysis/tables_sim.py $out"
