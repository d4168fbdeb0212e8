#!/usr/bin/env bash
# Two wormnet binaries compared on runs/bench_sim.sh's cases, interleaved (A B, B A, A B, ...)
# so that a machine whose speed drifts slows both alike, plus one case where many VCs wait
# longer than the deadlock threshold without a deadlock (a saturated torus with a short
# threshold: the deadlock detector gathers and searches the wait-for graph at every check).
# Prints each binary's median router-cycles/s per case and the ratio A/B of the medians.
# With INSTRUCTIONS=1 it counts instructions instead (valgrind's callgrind, one run of each
# case per binary, shorter runs): slow, but the same on a busy machine as on a quiet one.
# Builds nothing and is not a test.
#   usage: runs/bench_sim_pair.sh path/to/wormnet_A path/to/wormnet_B [rounds] [measure-cycles]
#          INSTRUCTIONS=1 runs/bench_sim_pair.sh path/to/wormnet_A path/to/wormnet_B
set -uo pipefail
export LC_ALL=C

if [[ ${INSTRUCTIONS:-0} == 1 ]]; then
  a=${1:?usage: INSTRUCTIONS=1 $0 wormnet_A wormnet_B}
  b=${2:?usage: INSTRUCTIONS=1 $0 wormnet_A wormnet_B}
  out=$(mktemp)
  trap 'rm -f "$out"' EXIT
  count() {  # binary, wormnet run arguments...: instructions of the whole run
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" -q 2>&1 |
      sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
  }
  printf '# A %s\n# B %s\n' "$("$a" --version)" "$("$b" --version)"
  printf '%-60s %15s %15s %9s\n' case "A instructions" "B instructions" "A/B"
  while IFS='|' read -r name args; do
    read -r -a words <<<"$args"
    ia=$(count "$a" run "${words[@]}")
    ib=$(count "$b" run "${words[@]}")
    printf '%-60s %15s %15s %9s\n' "$name" "$ia" "$ib" "$(awk -v x="$ia" -v y="$ib" 'BEGIN{printf "%.4f", x/y}')"
  done <<'CASES'
mesh:16x16 xy, 20-flit, 0.1|-t mesh:16x16 -r xy --length 20 --vcs 2 --buffer 4 --load 0.10 --warmup 2000 --measure 5000
torus:8x8x8 dor-dateline, 4-flit, 0.1|-t torus:8x8x8 -r dor-dateline --vcs 2 --buffer 4 --length 4 --load 0.10 --warmup 2000 --measure 2000
torus:8x8x8 dor-dateline, 4-flit, 0.01 (nearly idle)|-t torus:8x8x8 -r dor-dateline --vcs 2 --buffer 4 --length 4 --load 0.01 --warmup 2000 --measure 5000
torus:8x8x8 at 0.5, 2-flit buffers, threshold 2000 (default)|-t torus:8x8x8 -r dor-dateline --vcs 2 --buffer 2 --length 4 --load 0.5 --warmup 500 --measure 2000 --drain-limit 1000
torus:8x8x8 at 0.5, 2-flit buffers, threshold 200|-t torus:8x8x8 -r dor-dateline --vcs 2 --buffer 2 --length 4 --load 0.5 --warmup 500 --measure 2000 --drain-limit 1000 --deadlock-threshold 200
torus:8x8x8 at 0.5, 2-flit buffers, threshold 20|-t torus:8x8x8 -r dor-dateline --vcs 2 --buffer 2 --length 4 --load 0.5 --warmup 500 --measure 2000 --drain-limit 1000 --deadlock-threshold 20
CASES
  exit 0
fi

a=${1:?usage: $0 wormnet_A wormnet_B [rounds] [measure-cycles]}
b=${2:?usage: $0 wormnet_A wormnet_B [rounds] [measure-cycles]}
rounds=${3:-5}
measure=${4:-50000}
here=$(cd "$(dirname "$0")" && pwd)
for bin in "$a" "$b"; do
  if [[ ! -x $bin ]]; then
    echo "bench_sim_pair: '$bin' is not an executable wormnet binary" >&2
    exit 2
  fi
done
pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c 0); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The detector's busy case: 4-flit worms far past saturation on 2 VCs x 2 flits, threshold 20.
blocked() {
  local out
  out=$("${pin[@]}" "$1" run -t torus:8x8x8 -r dor-dateline --vcs 2 --buffer 2 --length 4 \
    --load 0.5 --warmup 500 --measure $((measure / 5)) --drain-limit 1000 \
    --deadlock-threshold 20 2>&1) || true
  echo "$out" | grep '^speed' |
    sed -E 's/.* s: ([0-9.e+]+) router-cycles\/s.*/blocked VCs: torus:8x8x8 at 0.5, threshold 20 \1/'
}

run() {  # binary, label
  "$here/bench_sim.sh" "$1" "$measure" | awk 'NR > 2 { print substr($0, 1, 34) "\t" $(NF - 4) }' \
    | sed -E 's/ +\t/\t/' >>"$tmp/$2"
  blocked "$1" | sed -E 's/ ([0-9.e+]+)$/\t\1/' >>"$tmp/$2"
}

printf '# A %s\n# B %s\n# %d rounds, load average at start %s\n' "$("$a" --version)" \
  "$("$b" --version)" "$rounds" "$(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < rounds; i++)); do
  if ((i % 2 == 0)); then run "$a" A; run "$b" B; else run "$b" B; run "$a" A; fi
done
printf '# load average at the end %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp/A" "$tmp/B" <<'EOF'
import statistics
import sys

def read(path):
    cases = {}
    for line in open(path):
        name, value = line.rstrip("\n").split("\t")
        if value.strip() and value.strip() != "-":
            cases.setdefault(name.strip(), []).append(float(value))
    return cases

a, b = read(sys.argv[1]), read(sys.argv[2])
print(f"{'case':<52} {'A router-cyc/s':>15} {'B router-cyc/s':>15} {'A/B':>7}   (medians)")
for name in a:
    if name in b:
        ma, mb = statistics.median(a[name]), statistics.median(b[name])
        print(f"{name:<52} {ma:>15.3g} {mb:>15.3g} {ma / mb:>7.3f}   "
              f"(A {min(a[name]):.3g}..{max(a[name]):.3g}, B {min(b[name]):.3g}..{max(b[name]):.3g})")
EOF
