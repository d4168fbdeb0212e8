#!/usr/bin/env bash
# What counting where packets wait costs the cycle loop (issue 39: at most 3 %): the loop's own
# time (the `speed` line, setup and results excluded) of `--congestion off`, `totals` and
# `series` on the three cases of docs/simulator.md ("Congestion statistics"), one binary, one
# core (taskset -c 0 when available), the modes interleaved round by round so that a drift of
# the machine's speed hits each alike. Prints every run, then per case each mode's median and
# its ratio to off. With INSTRUCTIONS=1 it counts the whole run's instructions instead
# (valgrind's callgrind, one run per mode, the shorter runs of docs/simulator.md's tables): the
# same on a busy machine as on a quiet one. Builds nothing and is not a test.
#
#   usage: [ROUNDS=5] [MODES=off,totals,series] [CASES=mesh,torus,torus-full]
#          [INSTRUCTIONS=1] runs/bench_congestion.sh [path/to/wormnet]
set -euo pipefail
export LC_ALL=C

wormnet=${1:-build/release/src/wormnet}
rounds=${ROUNDS:-5}
modes=${MODES:-off,totals,series}
cases=${CASES:-mesh,torus,torus-full}
if [[ ! -x $wormnet ]]; then
  echo "bench_congestion: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "bench_congestion: ROUNDS '$rounds' must be a positive integer" >&2
  exit 2
fi
# Long runs for wall time (the issue's), short ones for the instruction counts (callgrind runs
# about 50 times slower); both are docs/simulator.md's.
declare -A timed=(
  [mesh]="-t mesh:16x16 -r xy --length 20 --vcs 2 --buffer 4 --load 0.10 --warmup 2000 --measure 50000"
  [torus]="-t torus:8x8x8 -r dor-dateline --length 4 --load 0.1 --warmup 2000 --measure 20000"
  [torus-full]="-t torus:8x8x8 -r dor-dateline --length 4 --buffer 2 --load 0.5 --warmup 500 --measure 10000 --drain-limit 1000"
)
declare -A counted=(
  [mesh]="-t mesh:16x16 -r xy --length 20 --vcs 2 --buffer 4 --load 0.10 --warmup 2000 --measure 5000"
  [torus]="-t torus:8x8x8 -r dor-dateline --length 4 --load 0.1 --warmup 2000 --measure 2000"
  [torus-full]="-t torus:8x8x8 -r dor-dateline --length 4 --buffer 2 --load 0.5 --warmup 500 --measure 2000 --drain-limit 1000"
)
IFS=, read -r -a case_names <<<"$cases"
IFS=, read -r -a mode_names <<<"$modes"
for name in "${case_names[@]}"; do
  if [[ -z ${timed[$name]:-} ]]; then
    echo "bench_congestion: case '$name' is not one of mesh, torus, torus-full" >&2
    exit 2
  fi
done
for mode in "${mode_names[@]}"; do
  if [[ ! $mode =~ ^(off|totals|series)$ ]]; then
    echo "bench_congestion: mode '$mode' is not one of off, totals, series" >&2
    exit 2
  fi
done
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

loop_seconds() {  # mode, arguments...: the loop's seconds from the `speed` line
  local mode=$1
  shift
  "${pin[@]}" "$wormnet" run "$@" --congestion "$mode" -o "$tmp/out.h5" >"$tmp/log" 2>&1 || {
    echo "bench_congestion: failed: $wormnet run $* --congestion $mode" >&2
    tail -3 "$tmp/log" >&2
    exit 1
  }
  awk '$1 == "speed" { print $5 }' "$tmp/log"
}
instructions() {  # mode, arguments...: the whole run's instructions (callgrind)
  local mode=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$wormnet" run "$@" \
    --congestion "$mode" -q -o "$tmp/out.h5" >"$tmp/log" 2>&1 || {
    echo "bench_congestion: failed under valgrind: $wormnet run $* --congestion $mode" >&2
    tail -3 "$tmp/log" >&2
    exit 1
  }
  awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}

printf '# wormnet %s, %d cores, load average %s, %s\n' "$("$wormnet" --version)" "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u '+%d %b %Y %H:%M UTC')"
for name in "${case_names[@]}"; do
  if [[ ${INSTRUCTIONS:-0} == 1 ]]; then
    read -r -a words <<<"${counted[$name]}"
    declare -A count=()
    for mode in "${mode_names[@]}"; do
      count[$mode]=$(instructions "$mode" "${words[@]}")
      printf '%-10s %-6s %14d instructions\n' "$name" "$mode" "${count[$mode]}"
    done
    if [[ -n ${count[off]:-} ]]; then
      for mode in "${mode_names[@]}"; do
        printf '%-10s %-6s / off: %.3f   (%s)\n' "$name" "$mode" \
          "$(awk -v a="${count[$mode]}" -v b="${count[off]}" 'BEGIN { print a / b }')" "${counted[$name]}"
      done
    fi
    unset count
    continue
  fi
  read -r -a words <<<"${timed[$name]}"
  for mode in "${mode_names[@]}"; do : >"$tmp/$mode"; done
  for ((i = 0; i < rounds; ++i)); do
    line="$name round $((i + 1)):"
    for mode in "${mode_names[@]}"; do
      s=$(loop_seconds "$mode" "${words[@]}")
      echo "$s" >>"$tmp/$mode"
      line+=" $mode $s s"
    done
    echo "$line"
  done
  for mode in "${mode_names[@]}"; do
    m=$(median <"$tmp/$mode")
    if [[ -s $tmp/off ]]; then
      printf '%-10s %-6s median loop %.3f s, / off: %.3f   (%s)\n' "$name" "$mode" "$m" \
        "$(awk -v a="$m" -v b="$(median <"$tmp/off")" 'BEGIN { print a / b }')" "${timed[$name]}"
    else
      printf '%-10s %-6s median loop %.3f s   (%s)\n' "$name" "$mode" "$m" "${timed[$name]}"
    fi
  done
done
printf '# load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
