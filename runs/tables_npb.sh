#!/usr/bin/env bash
# The Angara paper's Table III in simulation (docs/tables.md, "NPB skeletons under the
# tables"): the five NPB skeletons (npb-lu, npb-mg, npb-cg, npb-ft, npb-is; class C, sizes
# divided by 32, 4 processes per node, linear mapping) on the 32-node torus of Figure 6
# (4x4x2) and on the 128-node one (8x4x4), each under the BFS, genetic (seed 1) and SSSP
# tables (`wormnet tables`, one VC, bubble flow control, buffers of two of the skeleton's
# longest message), once with communication alone and once computing at 2 operations per
# cycle per process. Then analysis/tables_npb.py prints the completion times relative to BFS
# next to the paper's. About 3 minutes on the shared 2 cores (-j 2, niced).
#
#   runs/tables_npb.sh [-j N] [-o DIR] [--wormnet BIN] [--quick]
#
#   -j N        runs at a time (default 2)
#   -o DIR      results (default results/tables_npb): DIR/table_<torus>_<algorithm>.h5 and
#               DIR/<torus>_<algorithm>_<skeleton>_<comm|compute>.h5
#   --quick     torus:2x2x2 (8 nodes, 32 processes), class S at full size, one iteration: a
#               smoke test of the pipeline in seconds, not the study's numbers
#
# A file that exists is not made again (delete it to run it again). Runs are niced.
set -euo pipefail
export LC_ALL=C
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
source "$root/runs/study_options.sh"
jobs=2
out="$root/results/tables_npb"
wormnet="$root/build/release/src/wormnet"
quick=0
while (($#)); do
  case "$1" in
    -j|-o|--wormnet)
      study_value tables_npb.sh "$1" $#
      case "$1" in
        -j) jobs="$2" ;;
        -o) out="$2" ;;
        --wormnet) wormnet="$2" ;;
      esac
      shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) study_unknown tables_npb.sh "$1" ;;
  esac
done
study_jobs tables_npb.sh "$jobs"
study_wormnet tables_npb.sh "$wormnet"
mkdir -p "$out"

# The study's parameters (docs/tables.md gives the reasons): 4 processes per node as on
# Desmos; class C with every message's bytes and every step's operations divided by 32; a
# process computes 2 of the benchmark's operations per cycle (a cycle moves a 16-byte flit
# over a link); iterations per skeleton enough for a steady iteration (LU's holds 320
# wavefront steps, CG's 25 CG iterations).
if ((quick)); then
  tori=(torus:2x2x2)
  size=(--npb-class S --npb-scale 1)
  declare -A iterations=([lu]=1 [mg]=1 [cg]=1 [ft]=1 [is]=1)
else
  tori=(torus:4x4x2 torus:8x4x4)
  size=(--npb-class C --npb-scale 32)
  declare -A iterations=([lu]=1 [mg]=2 [cg]=1 [ft]=2 [is]=2)
fi
rate=2
algorithms=(bfs genetic sssp)
skeletons=(lu mg cg ft is)
common=(--routing table --flow-control bubble --processes-per-node 4 --mapping linear --seed 1
  "${size[@]}")

for topo in "${tori[@]}"; do
  name=${topo#torus:}
  for alg in "${algorithms[@]}"; do
    table="$out/table_${name}_${alg}.h5"
    [[ -e $table ]] && continue
    nice -n 10 "$wormnet" tables -t "$topo" -a "$alg" --seed 1 -q -o "$table"
    echo "tables_npb.sh: $table" >&2
  done
done

tasks=()
for topo in "${tori[@]}"; do
  name=${topo#torus:}
  for skeleton in "${skeletons[@]}"; do
    # Bubble flow control needs buffers of two of the longest message (docs/workloads.md):
    # the run's first line says how long it is (a run stopped at once, nothing written).
    probe=$("$wormnet" run -t "$topo" --tables "$out/table_${name}_bfs.h5" "${common[@]}" \
      --workload "npb-$skeleton" --buffer 65535 --drain-limit 1 | head -1) || true
    longest=$(sed -n 's/.*messages of [0-9]*\.\.\([0-9]*\) flits.*/\1/p' <<<"$probe")
    [[ -n $longest ]] || { echo "tables_npb.sh: no message length in '$probe'" >&2; exit 1; }
    buffer=$((2 * longest < 8 ? 8 : 2 * longest))
    for alg in "${algorithms[@]}"; do
      for mode in comm compute; do
        file="$out/${name}_${alg}_${skeleton}_${mode}.h5"
        [[ -e $file ]] && continue
        extra=(--iterations "${iterations[$skeleton]}" --buffer "$buffer" --drain-limit 1000000000)
        [[ $mode == compute ]] && extra+=(--compute-rate "$rate")
        tasks+=("$(printf '%q ' "$wormnet" run -t "$topo" --tables "$out/table_${name}_${alg}.h5" \
          "${common[@]}" --workload "npb-$skeleton" "${extra[@]}" -q -o "$file")")
      done
    done
  done
done
echo "tables_npb.sh: ${#tasks[@]} runs to do, $jobs at a time, into $out" >&2
if ((${#tasks[@]})); then
  printf '%s\n' "${tasks[@]}" | xargs -r -P "$jobs" -I{} sh -c 'nice -n 10 {} >/dev/null || { echo "failed: {}" >&2; exit 255; }'
fi
/usr/bin/python3 "$root/analysis/tables_npb.py" "$out"
