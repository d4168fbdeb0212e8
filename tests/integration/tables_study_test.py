#!/usr/bin/python3
"""The seeded CI subset of the Figure 5 study (runs/tables_study.sh ci), checked against facts
computed here from the tori alone: node and channel counts, the perfect load (sum of torus
distances over all ordered pairs / |C|, by brute force), the diameter (every table is
minimal, so its longest route is the diameter), pi >= the perfect load >= the least load,
every table proven, the systems' sizes in range, the same systems on a second run, and the
analysis script's report.

    tables_study_test.py --wormnet PATH --out DIR
"""
import argparse
import itertools
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ALGORITHMS = ("bfs", "genetic", "sssp")


def ring(a, b, k):
    d = abs(a - b)
    return min(d, k - d)


def facts(sizes):
    """Nodes, directed channels, diameter and perfect load of a torus (size 2: mesh link)."""
    nodes = int(np.prod(sizes))
    channels = nodes * sum(1 if k == 2 else 2 for k in sizes)
    coords = list(itertools.product(*(range(k) for k in sizes)))
    total = sum(sum(ring(x, y, k) for x, y, k in zip(a, b, sizes))
                for a in coords for b in coords)
    return nodes, channels, sum(k // 2 for k in sizes), total / channels


def read(path):
    with h5py.File(path, "r") as f:
        assert f.attrs["status"] == "complete", path
        t = f["systems"]
        return {c: t[c][:] for c in t.attrs["columns"]}


def run_subset(wormnet, out):
    shutil.rmtree(out, ignore_errors=True)
    cmd = [os.path.join(ROOT, "runs", "tables_study.sh"), wormnet, out, "ci"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    report = run_subset(args.wormnet, os.path.join(args.out, "a"))
    failures = []
    expected_counts = {2: 6, 3: 4, 4: 2}
    seen = []
    for dims, count in expected_counts.items():
        d = read(os.path.join(args.out, "a", f"study_{dims}d.h5"))
        if len(d["nodes"]) != count:
            failures.append(f"{dims}D: {len(d['nodes'])} systems, expected {count}")
        for i in range(len(d["nodes"])):
            sizes = [int(d[f"size_{k}"][i]) for k in range(dims)]
            seen.append(tuple(sizes))
            if any(k < 2 or k > 4 for k in sizes) or any(int(d[f"size_{k}"][i]) != 0
                                                       for k in range(dims, 6)):
                failures.append(f"{dims}D system {i}: sizes {sizes} outside [2, 4]")
            nodes, channels, diameter, perfect = facts(sizes)
            tag = f"{dims}D {'x'.join(map(str, sizes))}"
            if int(d["nodes"][i]) != nodes or int(d["channels"][i]) != channels:
                failures.append(f"{tag}: nodes/channels {d['nodes'][i]}/{d['channels'][i]}, "
                                f"expected {nodes}/{channels}")
            if not np.isclose(d["perfect_load"][i], perfect):
                failures.append(f"{tag}: perfect load {d['perfect_load'][i]}, expected {perfect}")
            for a in ALGORITHMS:
                if int(d[f"{a}_ok"][i]) != 1:
                    failures.append(f"{tag}: {a} table not proven")
                if int(d[f"{a}_max_route"][i]) != diameter:
                    failures.append(f"{tag}: {a} longest route {d[f'{a}_max_route'][i]}, "
                                    f"diameter {diameter}")
                if not d[f"{a}_pi"][i] >= perfect - 1e-9 >= d[f"{a}_min_load"][i] - 2e-9:
                    failures.append(f"{tag}: {a} pi {d[f'{a}_pi'][i]}, min load "
                                    f"{d[f'{a}_min_load'][i]}, perfect load {perfect}")
    for needle in ("## sssp against bfs", "| 2D |", "| 3D |", "| 4D |"):
        if needle not in report:
            failures.append(f"analysis report lacks {needle!r}")
    if not os.path.getsize(os.path.join(args.out, "a", "study.png")):
        failures.append("analysis drew no figure")
    # Seeded: a second run draws the same systems.
    run_subset(args.wormnet, os.path.join(args.out, "b"))
    again = []
    for dims in expected_counts:
        d = read(os.path.join(args.out, "b", f"study_{dims}d.h5"))
        again += [tuple(int(d[f"size_{k}"][i]) for k in range(dims))
                  for i in range(len(d["nodes"]))]
    if again != seen:
        failures.append(f"a second run drew other systems: {again} vs {seen}")
    if failures:
        sys.exit("\n".join(failures))
    print(f"{len(seen)} systems checked")


if __name__ == "__main__":
    main()
