#!/usr/bin/env bash
# The whole test suite: configure, build and run ctest with one preset (release by default).
#   ./run_tests.sh          release build, every test
#   ./run_tests.sh asan     AddressSanitizer + UndefinedBehaviorSanitizer build: every test
#                           but those that run the same code paths as the unit, MPI and cli
#                           tests many times over and take minutes each under ASan (the
#                           rank-determinism, differential, SLURM dry-run, batch, bad-input
#                           corpus, tables study, run-time bad input and tables cli cases, the
#                           two largest honeycomb deadlock verdicts), the header compile check,
#                           the analysis package, pictures, report and browser tests (Python and
#                           chromium on files; analysis.scripts drives the same writer) and the
#                           honeycomb tori study's analysis (load analyses of three 400-node
#                           networks: the unit and cli tests run the same code) and the
#                           workload study's (45 runs and a matplotlib figure: the workload
#                           tests run the same simulator code) and the fidelity script's test
#                           (Python; its few mesh runs are the cli tests' code paths) and
#                           the routing pages' verdicts (`wormnet verify` on each page's case:
#                           cli.Verify runs the same code) and the two exhaustive routing
#                           checks over every routing of the factory on 14-20 topologies (the
#                           second-algorithm and declarations tests: the other routing and
#                           analysis unit tests run the same code on fewer): without these
#                           three the sanitizer tests take 434 s on 2 cores instead of 854
#                           (WORMNET_ASAN_EXCLUDE, a ctest -E regex; set it to "^$" for all)
#   ./run_tests.sh fuzz     clang + libFuzzer: the fuzz targets, a few seconds each on their
#                           seed corpus (docs/fuzzing.md)
set -euo pipefail
cd "$(dirname "$0")"
preset=${1:-release}
cmake --preset "$preset"
cmake --build --preset "$preset" --parallel "${WORMNET_JOBS:-2}"
case $preset in
  asan)
    default_exclude='^(determinism|slurm|batch|differential)\.|^cli\.(Corpus|RunBadInput|Tables)$'
    default_exclude+='|^tables\.StudySubset$|^headers\.standalone$|^runs\.fidelity_compare$'
    default_exclude+='|^analysis\.(package|pictures|report|report_browser|HoneycombToriStudy|WorkloadStudy)$'
    default_exclude+='|^DeadlockVerdict\.(XyFirstAndDoubleXyAreAcyclic|MinimalOneVcHoneycombRoutingsAreCyclicOnEveryHt)$'
    default_exclude+='|^docs\.routing_verdicts$|^RoutingAnalysisSecondAlgorithm\.DependenciesLoadsAndPathsAgreeWithRouteEnumeration$'
    default_exclude+='|^RoutingDeclarations\.EveryRoutingOfTheFactoryDeclaresOnlyWhatHolds$'
    ctest --preset asan -E "${WORMNET_ASAN_EXCLUDE:-$default_exclude}"
    ;;
  *) ctest --preset "$preset" ;;
esac
