#!/usr/bin/env bash
# The whole test suite: configure, build and run ctest with one preset (release by default;
# `./run_tests.sh asan` for AddressSanitizer + UndefinedBehaviorSanitizer).
set -euo pipefail
cd "$(dirname "$0")"
preset=${1:-release}
cmake --preset "$preset"
cmake --build --preset "$preset" --parallel "${WORMNET_JOBS:-2}"
ctest --preset "$preset"
