# Option checks shared by the study scripts (runs/fig5/run_all.sh, runs/workloads/study.sh,
# runs/honeycomb_tori/study.sh): a bad option is refused in one line naming the script, the
# option and its value, with exit code 2 (the project's rule for bad input). Source it, then
# call the functions; $script is the name used in the messages.

# study_value SCRIPT OPTION ARGC: refuses OPTION given as the last argument (no value).
study_value() {
  (($3 >= 2)) || { echo "$1: $2 needs a value (see --help)" >&2; exit 2; }
}

# study_unknown SCRIPT ARGUMENT
study_unknown() {
  echo "$1: unknown argument '$2' (see --help)" >&2
  exit 2
}

# study_jobs SCRIPT VALUE: -j must be a positive integer.
study_jobs() {
  [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "$1: -j '$2': expected a positive integer" >&2; exit 2; }
}

# study_wormnet SCRIPT PATH: --wormnet must be an executable.
study_wormnet() {
  [[ -x $2 ]] || {
    echo "$1: --wormnet '$2': not an executable (build with cmake --preset release)" >&2
    exit 2
  }
}
