#!/usr/bin/env bash
# The whole test suite: configure, build and run ctest with one preset (release by default).
#   ./run_tests.sh          release build, every test
#   ./run_tests.sh asan     AddressSanitizer + UndefinedBehaviorSanitizer build: every test
#                           but the rank-determinism, SLURM dry-run, batch, bad-input corpus and
#                           tables-study cases (WORMNET_ASAN_EXCLUDE, a ctest -E regex; set it
#                           to "^$" for all), which run the same code paths as the unit, MPI and
#                           cli tests many times over and take minutes each under ASan
#   ./run_tests.sh fuzz     clang + libFuzzer: the fuzz targets, a few seconds each on their
#                           seed corpus (docs/fuzzing.md)
set -euo pipefail
cd "$(dirname "$0")"
preset=${1:-release}
cmake --preset "$preset"
cmake --build --preset "$preset" --parallel "${WORMNET_JOBS:-2}"
case $preset in
  asan) ctest --preset asan -E "${WORMNET_ASAN_EXCLUDE:-^(determinism|slurm|batch)\\.|^cli\\.Corpus$|^tables\\.StudySubset$}" ;;
  *) ctest --preset "$preset" ;;
esac
