#!/usr/bin/env bash
# The cluster scaling scripts (runs/scaling/*.sbatch) run without a scheduler, launching with
# mpiexec: each writes one CSV row per rank count, with the network size the script meant
# (strong: the same routers on every row; weak: about R routers per rank) and the run's figures.
#   usage: scaling_scripts_test.sh RUNS_DIR WORMNET MPIEXEC OUT_DIR
set -euo pipefail
runs=$1 wormnet=$2 mpiexec=$3 out=$4
rm -rf "$out" && mkdir -p "$out"
export WORMNET=$wormnet OUT=$out NTASKS=2 MEASURE=300 LAUNCH="$mpiexec --oversubscribe -n"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$runs/scaling/strong.sbatch" torus:8x6 dor-dateline 0.05 >/dev/null
csv=$out/strong-local.csv
[[ $(wc -l <"$csv") -eq 3 ]] || fail "strong: expected a header and 2 rows in $csv"
awk -F, 'NR > 1 && ($1 != NR - 1 || $2 != 48 || $3 <= 0 || $4 <= 0 || $5 <= 0) { bad = 1 }
         END { exit bad }' "$csv" || fail "strong: wrong rows in $csv: $(cat "$csv")"
[[ $(sed -n 2p "$csv" | cut -d, -f5) == 1.000 ]] || fail "strong: one rank is not the base"

"$runs/scaling/weak.sbatch" 200 0.02 >/dev/null
csv=$out/weak-200-local.csv
[[ $(wc -l <"$csv") -eq 3 ]] || fail "weak: expected a header and 2 rows in $csv"
# Routers per rank within 30% of 200 (the torus sides are whole numbers).
awk -F, 'NR > 1 { per = $2 / $1; if (per < 140 || per > 260) bad = 1 } END { exit bad }' "$csv" ||
  fail "weak: network sizes do not follow the ranks: $(cat "$csv")"

# A failed run is reported, not hidden.
if WORMNET=/bin/false "$runs/scaling/strong.sbatch" torus:8x6 2>"$out/err.txt"; then
  fail "strong: a failing run did not fail the script"
fi
grep -q "failed" "$out/err.txt" || fail "strong: no message for a failing run"
echo "scaling scripts: ok"
