#!/usr/bin/env bash
# One CSV row from a `wormnet run` log: ranks, routers, loop seconds, router-cycles/s, the
# ratio to the one-rank loop time (speed-up; with "weak", per-rank efficiency, which compares
# seconds per simulated cycle), and the per-window split in microseconds.
#   usage: parse_speed.sh LOG RANKS TOPOLOGY [BASE_SECONDS]
set -euo pipefail
log=$1 ranks=$2 topology=$3 base=${4:-}
# Routers of honeycomb:T (6 T^2) or torus:/mesh:AxBx... (the product of the sizes).
routers=$(echo "$topology" | awk -F: '{
  if ($1 == "honeycomb") { print 6 * $2 * $2; exit }
  n = split($2, d, "x"); r = 1; for (i = 1; i <= n; ++i) r *= d[i]; print r }')
if ! grep -q '^speed' "$log"; then
  echo "parse_speed: $log has no speed line (the run failed: $(tail -n 1 "$log"))" >&2
  exit 1
fi
awk -v p="$ranks" -v base="$base" -v routers="$routers" '
  /^speed/ { cycles = $2; secs = $5; rcs = $7 }
  /^sync/ { for (i = 1; i <= NF; ++i) {
      if ($(i + 2) == "computing,") comp = $i
      if ($(i + 2) == "exchanging,") ex = $i
      if ($(i + 3) == "reductions") red = $i } }
  END {
    # Strong: speed-up, same network. Weak: efficiency, same cycles and routers per rank.
    ratio = (base == "") ? 1 : base / secs
    printf "%d,%.0f,%s,%s,%.3f,%s,%s,%s\n", p, routers, secs, rcs, ratio, comp, ex, red }' "$log"
