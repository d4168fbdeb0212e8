#!/usr/bin/env bash
# Completion time of application workloads on H_4 and the 2-D mesh and torus of the same node
# count (docs/workloads.md "Motifs on three networks"): honeycomb:4, mesh:12x8 and torus:12x8
# (96 nodes each, process grid 12x8, topology mapping), each under its deterministic
# deadlock-free routing (double-xy, xy, dor-dateline-dest), that routing with as many VCs as
# Duato's routing has, and Duato's adaptive routing over it; motifs halo2d, sweep2d,
# allreduce-ring, allreduce-rd and alltoall, 3 iterations of 16-flit messages. Then prints
# the table and draws the figure (analysis/workloads.py). 4.5 minutes at load average 18 on
# 2 shared cores (-j 2); less on a quiet machine.
#
#   runs/workloads/study.sh [-j N] [-o DIR] [--figure FILE] [--wormnet BIN] [--quick]
#
#   -j N        runs at a time (default 2)
#   -o DIR      results (default results/workloads): DIR/<net>_<routing>_<motif>.h5
#   --figure    the PNG (default DIR/workloads.png; docs/img/workloads.png is the committed one)
#   --quick     honeycomb:2, mesh:6x4, torus:6x4 (24 nodes), 1 iteration of 4-flit messages:
#               a smoke test of the pipeline in seconds, not the figure's numbers
#
# A run whose .h5 exists is skipped (delete it to run it again). Runs are niced.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$root/runs/study_options.sh"
jobs=2
out="$root/results/workloads"
figure=""
wormnet="$root/build/release/src/wormnet"
quick=0
while (($#)); do
  case "$1" in
    -j|-o|--figure|--wormnet)
      study_value study.sh "$1" $#
      case "$1" in
        -j) jobs="$2" ;;
        -o) out="$2" ;;
        --figure) figure="$2" ;;
        --wormnet) wormnet="$2" ;;
      esac
      shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) study_unknown study.sh "$1" ;;
  esac
done
study_jobs study.sh "$jobs"
study_wormnet study.sh "$wormnet"
mkdir -p "$out"
figure="${figure:-$out/workloads.png}"

# net name, topology, deterministic routing, Duato's VC count (docs/duato.md: escape + 1).
if ((quick)); then
  nets=("ht honeycomb:2 double-xy 3" "mesh mesh:6x4 xy 2" "torus torus:6x4 dor-dateline-dest 3")
  sizes=(--iterations 1 --message-size 4)
else
  nets=("ht honeycomb:4 double-xy 3" "mesh mesh:12x8 xy 2" "torus torus:12x8 dor-dateline-dest 3")
  sizes=(--iterations 3 --message-size 16)
fi
motifs=(halo2d sweep2d allreduce-ring allreduce-rd alltoall)
# The drain limit only bounds a run; alltoall on H_4 under double-xy takes ~35000 cycles an
# iteration, so it is far above every completion time (a run that hits it is flagged).
common=(--mapping topology --drain-limit 400000 --seed 1 -q)

tasks=()
for entry in "${nets[@]}"; do
  read -r net topo det vcs <<<"$entry"
  for variant in "$det" "$det-vcs$vcs" duato; do
    opts=(-t "$topo" -r "${variant%-vcs*}")
    [[ $variant == *-vcs* ]] && opts+=(--vcs "$vcs")
    for motif in "${motifs[@]}"; do
      file="$out/${net}_${variant}_${motif}.h5"
      [[ -e $file ]] && continue
      tasks+=("$(printf '%q ' "$wormnet" run "${opts[@]}" --workload "$motif" "${sizes[@]}" \
                 "${common[@]}" -o "$file")")
    done
  done
done
echo "study.sh: ${#tasks[@]} runs to do, $jobs at a time, into $out" >&2
if ((${#tasks[@]})); then
  # Exit code 7: the drain limit ended the workload (status incomplete): a result the table
  # flags, not a failure.
  printf '%s\n' "${tasks[@]}" | xargs -r -P "$jobs" -I{} sh -c 'nice -n 10 {} >/dev/null; rc=$?; [ $rc -eq 0 ] || [ $rc -eq 7 ] || { echo "failed: {}" >&2; exit 255; }'
fi
MPLCONFIGDIR="${MPLCONFIGDIR:-$out/mpl}" /usr/bin/python3 "$root/analysis/workloads.py" "$out" -o "$figure"
