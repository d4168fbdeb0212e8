#!/usr/bin/env bash
# The million-router benchmark of the scale issue (docs/scaling-history.md, "About a million routers"):
# torus:100x100x100 under dor-dateline, 4-flit messages at 0.002 flits/node/cycle, on 2 ranks
# pinned to a core each. Prints the loop's cycles per second (the target: >= 100), the
# computing and waiting (exchanging) time per window of the largest rank, and the model state
# per router (the target: <= 1 KB). With a second binary the two run in turn, ROUNDS times, so
# that a drift of the machine's speed hits both alike; the last lines give each binary's median
# and range over the rounds, the figures to compare. Not a test: it builds
# nothing and checks nothing. Needs about 1.2 GB of memory and 30-40 s per run on this machine.
#
#   usage: [ROUNDS=2] [RANKS=2] runs/bench_million.sh path/to/wormnet [path/to/other-wormnet]
set -uo pipefail
export LC_ALL=C OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

rounds=${ROUNDS:-2}
ranks=${RANKS:-2}
binaries=("$@")
if [[ ${#binaries[@]} -lt 1 || ${#binaries[@]} -gt 2 ]]; then
  echo "usage: [ROUNDS=2] [RANKS=2] $0 path/to/wormnet [path/to/other-wormnet]" >&2
  exit 2
fi
for b in "${binaries[@]}"; do
  if [[ ! -x $b ]]; then
    echo "bench_million: '$b' is not an executable wormnet binary" >&2
    exit 2
  fi
done
if ! [[ $rounds =~ ^[1-9][0-9]*$ && $ranks =~ ^[1-9][0-9]*$ ]]; then
  echo "bench_million: ROUNDS '$rounds' and RANKS '$ranks' must be positive integers" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf '# torus:100x100x100 dor-dateline, load 0.002, 4-flit messages, %s ranks; load average %s\n' \
  "$ranks" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-40s %10s %12s %16s %14s %12s\n' binary "loop s" "cycles/s" "compute/window" \
  "wait/window" "model B/rtr"
for ((round = 1; round <= rounds; ++round)); do
  for b in "${binaries[@]}"; do
    log=$(mpiexec -n "$ranks" --bind-to core "$b" run -t torus:100x100x100 -r dor-dateline \
      --load 0.002 --length 4 --warmup 100 --measure 200 -o "$out/m.h5" 2>&1)
    rc=$?
    rm -f "$out/m.h5"
    if [[ $rc -ne 0 ]]; then
      printf '%-40s failed (exit %d): %s\n' "$b" "$rc" "$(echo "$log" | tail -n 1)"
      continue
    fi
    # speed      1152 cycles in 23.662 s: ...; sync ... per window (largest rank) 20258.38 us computing
    cycles=$(echo "$log" | sed -nE 's/^speed +([0-9]+) cycles in ([0-9.]+) s.*/\1/p')
    seconds=$(echo "$log" | sed -nE 's/^speed +([0-9]+) cycles in ([0-9.]+) s.*/\2/p')
    compute=$(echo "$log" | sed -nE 's/^sync .*\(largest rank\) ([0-9.]+) us computing.*/\1/p')
    wait=$(echo "$log" | sed -nE 's/^sync .* us computing, ([0-9.]+) us exchanging.*/\1/p')
    model=$(echo "$log" | sed -nE 's/^memory +([0-9]+) bytes\/router.*/\1/p')
    awk -v b="$b" -v c="$cycles" -v s="$seconds" -v w="$compute" -v x="$wait" -v m="$model" \
      'BEGIN { printf "%-40s %10s %12.1f %13.2f ms %11.2f ms %12s\n", b, s, c / s, w / 1000,
               x / 1000, m }' </dev/null | tee -a "$out/rows"
  done
done
# Per binary over the rounds: the median (the figure the target is judged by: the machine's
# speed drifts by up to 1.5x within minutes) and the range.
for b in "${binaries[@]}"; do
  awk -v b="$b" '$1 == b { v[n++] = $3 }
    END {
      if (n == 0) { printf "%-40s no successful run\n", b; exit }
      for (i = 1; i < n; ++i) for (j = i; j > 0 && v[j - 1] > v[j]; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      med = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
      printf "%-40s median %.1f cycles/s over %d runs (%.1f-%.1f)\n", b, med, n, v[0], v[n - 1]
    }' "$out/rows"
done
