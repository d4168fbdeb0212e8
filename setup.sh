#!/usr/bin/env bash
# One command from a fresh Debian 12 checkout to a first result: installs the Debian packages
# that are missing (with sudo unless run as root), builds wormnet with the release preset, and
# runs the main job on a small built-in example (H_4): verify, load analysis, a short sweep to
# saturation written to build/release/quickstart.h5 and plotted to quickstart.png.
#   ./setup.sh               install, build, run the example
#   ./setup.sh --deps-only   install the packages only (what .ci/run uses)
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  cmake ninja-build g++                              # build
  libopenmpi-dev openmpi-bin                         # MPI
  libhdf5-openmpi-dev hdf5-tools                     # parallel HDF5 and h5dump
  libcli11-dev libgtest-dev libmetis-dev             # command line, tests, partitioning
  libssl-dev                                         # SHA-256 of input files (libcrypto)
  python3-h5py python3-numpy python3-matplotlib      # analysis scripts and CLI tests
  python3-pandas python3-pip python3-setuptools      # analysis package: DataFrames, install
  chromium                                           # renders the HTML report in its test
  clang libclang-rt-14-dev                           # fuzz targets (libFuzzer), docs/fuzzing.md
  clang-format                                       # the formatting law (.clang-format), a test
)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}"
  as_root=()
  if ((EUID != 0)); then as_root=(sudo); fi
  "${as_root[@]}" apt-get update
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
fi
if [[ ${1:-} == --deps-only ]]; then exit 0; fi

cmake --preset release
cmake --build --preset release --parallel "${WORMNET_JOBS:-2}"

# The main job on a small built-in example: prove Double XY deadlock-free on H_4 and print its
# channel loads (edge-forwarding index, sigma(4), ideal saturation rate).
wormnet=build/release/src/wormnet
"$wormnet" verify --topology honeycomb:4 --routing double-xy
"$wormnet" info --load --topology honeycomb:4 --routing double-xy

# ... and simulate it: a short version of one Figure 5 curve (Double XY on H_4, messages of
# 10..100 flits) swept to saturation in seconds, into one HDF5 file, and its plot.
"$wormnet" sweep --config runs/fig5/paper/b_h4_double-xy_100.toml \
  --warmup 5000 --measure 40000 --drain-limit 40000 -o build/release/quickstart.h5
MPLCONFIGDIR="${MPLCONFIGDIR:-build/release/.matplotlib}" /usr/bin/python3 analysis/plot_sweep.py \
  build/release/quickstart.h5 -o build/release/quickstart.png --x saturation --ymax 40
echo
echo "setup: done. wormnet:  $PWD/$wormnet"
echo "       results (HDF5): $PWD/build/release/quickstart.h5"
echo "       plot (PNG):     $PWD/build/release/quickstart.png"
