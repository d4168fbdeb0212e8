#!/usr/bin/env bash
# The honeycomb-torus and Duato study (docs/honeycomb-tori.md, docs/duato.md): load analysis
# and saturation sweeps of
#   HT_8 (honeycomb-torus:8, 384 nodes), H_8 (honeycomb:8, 384) and the 20x20 torus (400),
# each under its deterministic deadlock-free routing (double-xy-dateline, double-xy,
# dor-dateline-dest, also with as many VCs as Duato's routing, and dor-dateline) and under
# Duato's routing over that escape routing (priority and least-occupied selection), for
# uniform, transpose and tornado traffic, with 4-flit VC buffers (wormhole: a 20-flit
# message spans five routers) and with 20-flit ones (a whole message fits: cut-through);
# then draws docs/img/honeycomb_tori_load.png and docs/img/duato_gain.png and prints the
# tables (analysis/honeycomb_tori.py).
#
#   runs/honeycomb_tori/study.sh [-j N] [-o DIR] [--figures DIR] [--wormnet BIN] [--quick]
#
#   -j N        sweeps at a time (default 2)
#   -o DIR      results (default results/honeycomb_tori): DIR/b<B>/<net>_<routing>_<pattern>.h5
#               and DIR/b<B>/load_<net>_<routing>.json for B = 4 and 20
#   --figures   where the PNGs go (default DIR; docs/img holds the committed ones)
#   --quick     short windows (a smoke test of the pipeline, not sound numbers)
#
# A sweep whose .h5 exists is skipped (delete it to run it again). Runs are niced.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
source "$root/runs/study_options.sh"
jobs=2
out="$root/results/honeycomb_tori"
figures=""
wormnet="$root/build/release/src/wormnet"
window=(--warmup 2000 --measure 8000 --drain-limit 5000)
while (($#)); do
  case "$1" in
    -j|-o|--figures|--wormnet)
      study_value study.sh "$1" $#
      case "$1" in
        -j) jobs="$2" ;;
        -o) out="$2" ;;
        --figures) figures="$2" ;;
        --wormnet) wormnet="$2" ;;
      esac
      shift 2 ;;
    --quick) window=(--warmup 300 --measure 1500 --drain-limit 1500); shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) study_unknown study.sh "$1" ;;
  esac
done
study_jobs study.sh "$jobs"
study_wormnet study.sh "$wormnet"
mkdir -p "$out"
figures="${figures:-$out}"

# network name, topology, deterministic routings (the first is Duato's escape routing; with
# @V it runs with V VCs, as many as Duato's routing has: its first VC class gets the extra one).
nets=(
  "ht8 honeycomb-torus:8 double-xy-dateline double-xy-dateline@7"
  "h8 honeycomb:8 double-xy double-xy@3"
  "t20 torus:20x20 dor-dateline-dest dor-dateline-dest@3 dor-dateline"
)
# Offered loads: a geometric grid (x1.25) of fractions of each routing's uniform saturation
# rate (N-1)/pi, from 0.02 to 1.5 (loads above 1 flit/node/cycle left out); the sweep stops
# one point after the first saturated one. A second sweep (<file>.fine.h5) then runs three
# loads evenly spaced between the last load that did not saturate and the first that did,
# so the saturation throughput is known to about 6 %.
fractions="$(/usr/bin/python3 -c 'print(" ".join(f"{0.02 * 1.25 ** k:.4f}" for k in range(20) if 0.02 * 1.25 ** k <= 1.5))')"
loads_for() {  # JSON file of wormnet info --load -> comma-separated absolute loads
  /usr/bin/python3 -c 'import json, sys
rate = json.load(open(sys.argv[1]))["saturation_rate"]
print(",".join(f"{f * rate:.5f}" for f in map(float, sys.argv[2].split()) if f * rate <= 1))' \
    "$1" "$fractions"
}
fine_loads_for() {  # coarse sweep file -> three loads between its last good and first saturated
  /usr/bin/python3 -c 'import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    offered = f["summary/offered_load"][()]
    saturated = f["summary/saturated"][()]
bad = [i for i, s in enumerate(saturated) if s]
if bad and bad[0] > 0:
    lo, hi = offered[bad[0] - 1], offered[bad[0]]
    print(",".join(f"{lo + (hi - lo) * k / 4:.5f}" for k in (1, 2, 3)))' "$1"
}

tasks=()
declare -A base_cmd  # sweep file -> its command without --loads and -o
for buffer in 4 20; do
  dir="$out/b$buffer"
  mkdir -p "$dir"
  for entry in "${nets[@]}"; do
    read -r net topo escapes <<<"$entry"
    for routing in $escapes duato duato:least-occupied; do
      name="${routing/:/-}"
      name="${name/@/-vcs}"
      r="${routing%%[:@]*}"
      json="$dir/load_${net}_${name}.json"
      [[ -s $json ]] || "$wormnet" info --load -t "$topo" -r "$r" --json >"$json"
      loads="$(loads_for "$json")"
      for pattern in uniform transpose tornado; do
        file="$dir/${net}_${name}_${pattern}.h5"
        opts=(--traffic "$pattern" --after-saturation 1 --buffer "$buffer")
        [[ $routing == *:* ]] && opts+=(--selection "${routing#*:}")
        [[ $routing == *@* ]] && opts+=(--vcs "${routing#*@}")
        base_cmd[$file]="$(printf '%q ' "$wormnet" sweep -t "$topo" -r "$r" "${opts[@]}" \
                             "${window[@]}" -q)"
        [[ -e $file ]] || tasks+=("${base_cmd[$file]}--loads $loads -o $(printf '%q' "$file")")
      done
    done
  done
done
run_tasks() {
  echo "study.sh: ${#tasks[@]} sweeps to run, $jobs at a time, into $out"
  # A failed sweep stops the study (xargs ends at an exit code of 255) rather than feed the
  # analysis a missing point.
  printf '%s\n' "${tasks[@]}" |
    xargs -r -P "$jobs" -I{} sh -c 'nice -n 10 {} || { echo "failed: {}" >&2; exit 255; }'
}
run_tasks
# The refining sweeps: same options, the three loads between.
tasks=()
for file in "${!base_cmd[@]}"; do
  [[ -e $file && ! -e ${file%.h5}.fine.h5 ]] || continue
  fine="$(fine_loads_for "$file")"
  [[ -n $fine ]] && tasks+=("${base_cmd[$file]}--loads $fine -o $(printf '%q' "${file%.h5}.fine.h5")")
done
run_tasks
/usr/bin/python3 "$root/analysis/honeycomb_tori.py" "$out/b4" --deep "$out/b20" --figures "$figures"
