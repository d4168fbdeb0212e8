#!/usr/bin/env bash
# Times `wormnet info --load` (the channel-load analysis: pi, sigma(4,R), (N-1)/pi) on the
# scale issue's targets, pinned to one core (taskset -c 0 when available): torus:16x16x16 and
# torus:100x100x100 under dimension order (one destination stands for all: the routing is
# translation-invariant), H_40 under every honeycomb routing, and a few networks without that
# symmetry. Prints wall and CPU time of the whole command (MPI start-up included), the
# analysis alone as wormnet reports it ("-" for a binary that does not), the peak memory, the
# routing states explored and pi, so that two binaries can be compared line by line. Builds
# nothing and is not a test.
#   usage: runs/bench_load.sh path/to/wormnet [quick]    (quick: skip the slowest cases)
set -uo pipefail
export LC_ALL=C

wormnet=${1:?usage: $0 path/to/wormnet [quick]}
quick=${2:-}
if [[ ! -x $wormnet ]]; then
  echo "bench_load: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c 0); fi
py=/usr/bin/python3
[[ -x $py ]] || py=python3

printf '# wormnet %s, %s, load average %s\n' "$("$wormnet" --version)" \
  "${pin[*]:-not pinned (no taskset)}" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-20s %-18s %9s %8s %12s %9s %12s %14s\n' topology routing "wall [s]" "cpu [s]" \
  "analysis [s]" "peak [MB]" states pi

bench() {
  local topo=$1 routing=$2 out cpu start end ms
  out=$(mktemp)
  cpu=$(mktemp)
  start=$(date +%s%N)
  if ! /usr/bin/time -f '%U %S %M' -o "$cpu" "${pin[@]}" "$wormnet" info --load \
      --topology "$topo" --routing "$routing" --json >"$out" 2>&1; then
    printf '%-20s %-18s failed: %s\n' "$topo" "$routing" "$(head -n 1 "$out")"
    rm -f "$out" "$cpu"
    return
  fi
  end=$(date +%s%N)
  ms=$(((end - start) / 1000000))
  read -r user sys peak <"$cpu"
  "$py" - "$out" "$topo" "$routing" "$ms" "$user" "$sys" "$peak" <<'PY'
import json, sys
path, topo, routing, ms, user, sys_s, peak = sys.argv[1:]
r = json.load(open(path))
secs = r.get("analysis_seconds")
print("%-20s %-18s %9.3f %8.2f %12s %9.0f %12s %14.4f" % (
    topo, routing, int(ms) / 1000.0, float(user) + float(sys_s),
    "%.3f" % secs if secs is not None else "-", int(peak) / 1024.0,
    r.get("states", "-"), r["pi"]))
PY
  rm -f "$out" "$cpu"
}

bench torus:16x16x16 dor
bench torus:16x16x16 dor-dateline
bench torus:8x8x8x8 angara
bench mesh:32x32 west-first
for routing in double-xy stojmenovic xy-first double-xy-turn minimal-adaptive; do
  bench honeycomb:40 "$routing"
  [[ $quick == quick ]] && break
done
[[ $quick == quick ]] || bench torus:100x100x100 dor
