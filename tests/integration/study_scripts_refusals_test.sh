#!/usr/bin/env bash
# The study scripts refuse bad options in one line naming the script, the option and the
# value, with exit code 2, before running anything (runs/study_options.sh).
#   usage: study_scripts_refusals_test.sh RUNS_DIR
set -uo pipefail
runs=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for script in fig5/run_all.sh workloads/study.sh honeycomb_tori/study.sh tables_npb.sh; do
  name=$(basename "$script")
  # arguments | a word the one line must contain
  for case in "-j|-j needs a value" "-o|-o needs a value" "--wormnet|--wormnet needs a value" \
              "-j 0|-j '0'" "-j two|-j 'two'" "--wormnet /nonexistent|'/nonexistent'" \
              "--bogus|'--bogus'"; do
    args=${case%%|*} want=${case#*|}
    # shellcheck disable=SC2086  # the arguments are words on purpose
    "$runs/$script" $args >/dev/null 2>"$err"
    code=$?
    [[ $code -eq 2 ]] || fail "$script $args: exit $code, expected 2 ($(cat "$err"))"
    [[ $(wc -l <"$err") -eq 1 ]] || fail "$script $args: not one line: $(cat "$err")"
    grep -qF -- "$name: " "$err" || fail "$script $args: the line does not name $name"
    grep -qF -- "$want" "$err" || fail "$script $args: '$want' missing in: $(cat "$err")"
  done
done
echo "study scripts: all refusals one line, exit 2"
