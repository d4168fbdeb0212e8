#!/usr/bin/env python3
"""Results are the same with and without the engine's cache hints (WORMNET_PREFETCH_HINTS):
the differential harness's walk and versus checks, on seeds whose walk uses blocks (the
only walk that hints), between this build's wormnet and one built with the other setting.
Exits 77 (skipped) when there is no other build to compare with.

usage: hints_identical.py --wormnet THIS --versus OTHER --out DIR [--mpiexec MPIEXEC]
"""
import argparse
import os
import subprocess
import sys

SKIPPED = 77
# Seeds whose configurations walk in blocks of 64 routers (harness.py --show SEED): tori
# with and without datelines, a honeycomb network, a mesh sweep, an adaptive routing, a
# routing delay, skews 1 to 4.
SEEDS = "235,340,371,99,307,253"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--wormnet", required=True)
    p.add_argument("--versus", default="")
    p.add_argument("--out", required=True)
    p.add_argument("--mpiexec", default="mpiexec")
    args = p.parse_args()
    if not args.versus or not os.path.isfile(args.versus):
        print(f"engine.hints_identical: skipped: no other build's wormnet to compare with "
              f"(WORMNET_COMPARE_WORMNET is '{args.versus}'; configure it with the path of a "
              f"wormnet built with the other WORMNET_PREFETCH_HINTS)")
        return SKIPPED
    harness = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")
    return subprocess.call([sys.executable, harness, "--wormnet", args.wormnet, "--versus",
                            args.versus, "--mpiexec", args.mpiexec, "--out", args.out,
                            "--seeds", SEEDS, "--only", "walk,versus", "--jobs", "2",
                            "--timeout", "300", "--shrink-seconds", "0"])


if __name__ == "__main__":
    sys.exit(main())
