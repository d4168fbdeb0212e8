#!/usr/bin/env bash
# Cache misses and instructions per flit-hop of the cycle loop (RankModel::step, inclusive) on
# a rank too large for the caches, by valgrind's cache model: L1 48 KiB 12-way, last level
# 4 MiB 16-way (one core's L2 of the machine class), 64-byte lines. The counts are the same on
# a busy machine as on a quiet one, so each change of the million-router work (issue 14,
# target 2) is judged by them; the default case is torus:40x40x40 (64,000 routers, about
# 60 MB of model state), one rank. Slow (a few minutes), builds nothing, is not a test.
# LL_BYTES sets the last level's size (e.g. 1048576: one core's L2 alone, the last level that
# serves a rank whose active state of a cycle is far beyond the shared L3, as at 10^7 routers).
#   usage: [LL_BYTES=4194304] runs/bench_cache_model.sh path/to/wormnet [wormnet run arguments...]
set -uo pipefail
export LC_ALL=C

wormnet=${1:?usage: $0 path/to/wormnet [run arguments...]}
shift
if [[ ! -x $wormnet ]]; then
  echo "bench_cache_model: '$wormnet' is not an executable wormnet binary" >&2
  exit 2
fi
args=("$@")
if [[ ${#args[@]} -eq 0 ]]; then
  args=(-t torus:40x40x40 -r dor-dateline --load 0.002 --length 4 --warmup 100 --measure 60)
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

valgrind --tool=callgrind --cache-sim=yes --D1=49152,12,64 --LL="${LL_BYTES:-4194304}",16,64 \
  --callgrind-out-file="$dir/cg" "$wormnet" run "${args[@]}" -o "$dir/run.h5" >"$dir/out" 2>&1 ||
  {
    echo "bench_cache_model: the run failed: $(tail -n 1 "$dir/out")" >&2
    exit 1
  }
hops=$(/usr/bin/python3 -c "import h5py,sys; print(int(h5py.File(sys.argv[1])['points/000'].attrs['flit_hops']))" "$dir/run.h5")
# The inclusive line of RankModel::step: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
line=$(callgrind_annotate --inclusive=yes "$dir/cg" 2>/dev/null | grep -m1 'RankModel::step(unsigned long)')
read -r -a v <<<"$(echo "$line" | sed -E 's/\([^)]*\)//g; s/,//g')"
printf '# wormnet %s; %s; last level %s bytes\n' "$("$wormnet" --version)" "${args[*]}" "${LL_BYTES:-4194304}"
printf '# RankModel::step inclusive over %s flit-hops\n' "$hops"
awk -v h="$hops" -v ir="${v[0]}" -v d1r="${v[4]}" -v d1w="${v[5]}" -v llr="${v[7]}" -v llw="${v[8]}" 'BEGIN {
  printf "instructions per flit-hop      %8.1f\n", ir / h
  printf "L1 misses per flit-hop         %8.2f  (reads %.2f, writes %.2f)\n", (d1r + d1w) / h, d1r / h, d1w / h
  printf "last-level misses per flit-hop %8.2f  (reads %.2f, writes %.2f)\n", (llr + llw) / h, llr / h, llw / h
}'
