"""Noise check: the same sweep points run with two seeds.

    /usr/bin/python3 analysis/compare_seeds.py SEED2.h5... --against DIR

Each SEED2 file NAME_seedK.h5 is matched with DIR/NAME.h5 (same configuration, other seed);
points are matched by offered load. Prints a Markdown table of accepted traffic and mean
latency under both seeds and their relative differences. Reads only the HDF5 files.
"""

from __future__ import annotations

import os
import re
import sys

import numpy as np

import wormnet_analysis as wa
from wormnet_analysis.cli import Parser, guarded

#: Options whose difference makes two files different experiments rather than two seeds.
SAME = ("topology", "routing", "buffer", "length-min", "length-max", "vc-bandwidth", "warmup",
        "measure", "routing-delay", "vc-alloc-delay", "switch-alloc-delay", "switch-delay")


def compare(a: wa.Sweep, b: wa.Sweep, name: str) -> list:
    for key in SAME:
        if a.config.get(key) != b.config.get(key):
            raise wa.ResultFileError(
                f"{a.path} and {b.path} differ in {key}: not the same experiment"
            )
    rows = []
    for j, load in enumerate(b.summary["offered_load"]):
        match = np.nonzero(np.isclose(a.summary["offered_load"], load, rtol=1e-9, atol=0))[0]
        if len(match) == 0:
            continue
        i = int(match[0])
        acc = (a.summary["accepted"][i], b.summary["accepted"][j])
        lat = (a.summary["latency_mean_us"][i], b.summary["latency_mean_us"][j])
        rows.append(
            f"| {name} | {load:.5f} | {acc[0]:.5f} | {acc[1]:.5f} | "
            f"{100 * (acc[1] - acc[0]) / acc[0]:+.2f}% | {lat[0]:.2f} | {lat[1]:.2f} | "
            f"{100 * (lat[1] - lat[0]) / lat[0]:+.1f}% |"
        )
    return rows


@guarded("compare_seeds")
def main(argv=None) -> int:
    ap = Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="sweeps run with another seed (NAME_seedK.h5)")
    ap.add_argument("--against", required=True, help="folder with the NAME.h5 sweeps")
    args = ap.parse_args(argv)
    rows = [
        "| curve | offered (flits/node/cycle) | accepted, seed 1 | accepted, seed 2 | "
        "difference | latency (\u00b5s), seed 1 | latency (\u00b5s), seed 2 | difference |",
        "|---|---|---|---|---|---|---|---|",
    ]
    try:
        for path in args.files:
            name = re.sub(r"_seed\d+$", "", os.path.splitext(os.path.basename(path))[0])
            other = os.path.join(args.against, name + ".h5")
            rows += compare(wa.load(other), wa.load(path), name)
    except wa.ResultFileError as e:
        print(f"compare_seeds: {e}", file=sys.stderr)
        return 2
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
