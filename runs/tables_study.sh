#!/usr/bin/env bash
# The Angara paper's Figure 5 study: BFS, genetic and SSSP tables on random 2D, 3D and 4D
# tori (every size uniform in [2, 8], seed 1), as many systems as the paper (49, 339 and
# 1,173), one file per dimension count (study_2d.h5, ...) so that the parts can run apart,
# then analysis/tables_study.py's report and figure. Every system is flushed to its file as
# it finishes: a study stopped early leaves a seeded prefix of the full one, which the
# analysis reads as it is.
#   usage: runs/tables_study.sh path/to/wormnet OUTDIR [full|ci|DIMS:COUNT...] [ranks]
# full: the paper's 49, 339 and 1,173 systems (days on one core: the genetic algorithm on the
#       larger 4D tori takes minutes to hours each).
# ci:   the seeded subset ctest runs (tables.StudySubset): 6, 4 and 2 systems with sizes in
#       [2, 4], a few seconds.
# DIMS:COUNT...: the first COUNT systems of the full study for each DIMS, e.g. 2:49 3:339 4:40.
# ranks > 1 runs every part under mpiexec (the study's tables are rank-parallel), for the
# comparison with one rank (analysis/tables_study.py --compare).
set -euo pipefail
export LC_ALL=C

usage="usage: $0 path/to/wormnet OUTDIR [full|ci|DIMS:COUNT...] [ranks]"
wormnet=${1:?$usage}
out=${2:?$usage}
shift 2
parts=()
extra=()
ranks=1
case ${1:-full} in
  full) parts=(2:49 3:339 4:1173) ;;
  ci) parts=(2:6 3:4 4:2); extra=(--max-size 4) ;;
  *:*)
    while [[ $# -gt 0 && $1 == *:* ]]; do
      parts+=("$1")
      shift
    done
    set -- full "$@"
    ;;
  *) echo "tables_study: unknown mode '$1'; $usage" >&2; exit 2 ;;
esac
[[ $# -gt 1 ]] && ranks=$2
if [[ ! -x $wormnet ]]; then
  echo "tables_study: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
launcher=()
if [[ $ranks -gt 1 ]]; then launcher=("${MPIEXEC:-mpiexec}" --oversubscribe -n "$ranks"); fi
mkdir -p "$out"

files=()
for part in "${parts[@]}"; do
  dims=${part%%:*}
  count=${part##*:}
  file=$out/study_${dims}d.h5
  "${launcher[@]}" "$wormnet" tables-study --dims "$dims" --systems "$count" --seed 1 \
    "${extra[@]}" -o "$file"
  files+=("$file")
done

py=/usr/bin/python3
[[ -x $py ]] || py=python3
here=$(cd "$(dirname "$0")/.." && pwd)
"$py" "$here/analysis/tables_study.py" "${files[@]}" --report "$out/study.md" \
  --figure "$out/study.png" --time cpu
