#!/usr/bin/python3
"""The simulated pattern's own ideal in the results file and the analysis (issue 39, item 3):

- a transpose sweep on mesh:4x4 under xy writes /routing/pattern with the values worked by hand
  in tests/unit/verify/pattern_loads_test.cpp (pi_P = 3; 12 pairs, 12 senders of 16 nodes;
  ideal 12 / (16 x 3) = 0.25 accepted, 1/3 offered per sender) and the channel counts of the
  hand-worked formulas (X+ at (a, r): a + 1 routes when a < r); the same file on 2 ranks;
- a uniform run writes no /routing/pattern;
- the report's load points give "% of the transpose ideal" = 100 x accepted / 0.25, the
  heatmap draws the pattern's loads (max 3), plot_sweep.py --x pattern draws against it.

usage: analysis_pattern_test.py --wormnet BIN --analysis DIR --out DIR [--mpiexec MPIEXEC]
"""
import argparse
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def run(cmd, expect=0, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    if r.returncode != expect:
        print(f"FAIL: {' '.join(cmd)} exited {r.returncode}, expected {expect}:\n{r.stdout}\n"
              f"{r.stderr}", file=sys.stderr)
        sys.exit(1)
    return r


def channel(f, x, y, port):
    """The channel id leaving node (x, y) of the 4x4 mesh through port (0 X+, 1 X-, ...)."""
    t = f["topology"]
    node = x + 4 * y
    src, ports = t["channel_source"][()], t["channel_port"][()]
    (k,) = np.nonzero((src == node) & (ports == port))[0]
    return int(k)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mpiexec", default=None)
    args = ap.parse_args()
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    env = dict(os.environ, MPLCONFIGDIR=os.path.join(out, "mpl"))
    sweep = ["sweep", "-q", "-t", "mesh:4x4", "-r", "xy", "--traffic", "transpose", "--loads",
             "0.1,0.2", "--warmup", "300", "--measure", "1500", "--drain-limit", "3000"]
    h5 = os.path.join(out, "transpose.h5")
    run([args.wormnet, *sweep, "-o", h5])
    with h5py.File(h5, "r") as f:
        g = f["routing/pattern"]
        a = {k: g.attrs[k] for k in g.attrs}
        check(a["name"] == "transpose", f"pattern name {a['name']}")
        check(a["pi"] == 3.0 and a["pairs"] == 12 and a["senders"] == 12,
              f"pi, pairs, senders: {a}")
        check(abs(a["saturation_rate"] - 0.25) < 1e-15, f"ideal {a['saturation_rate']}")
        check(abs(a["offered_at_ideal"] - 1 / 3) < 1e-15, f"offered {a['offered_at_ideal']}")
        load = g["channel_load"][()]
        for x in range(3):
            for r in range(4):
                want = x + 1 if x < r else 0
                got = load[channel(f, x, r, 0)]
                check(got == want, f"X+ at ({x},{r}): {got}, worked {want}")
        check(load.max() == 3.0 and abs(load.sum() - 40.0) < 1e-12,
              f"max {load.max()}, total {load.sum()} (40 hops)")
        accepted = f["summary/accepted"][()]
    if args.mpiexec:
        h2 = os.path.join(out, "transpose2.h5")
        run([args.mpiexec, "--oversubscribe", "-n", "2", args.wormnet, *sweep, "-o", h2])
        with h5py.File(h5, "r") as f1, h5py.File(h2, "r") as f2:
            for k in ("name", "pi", "saturation_rate", "offered_at_ideal", "pairs", "senders"):
                check(f1["routing/pattern"].attrs[k] == f2["routing/pattern"].attrs[k],
                      f"{k} on 2 ranks")
            check(np.array_equal(f1["routing/pattern/channel_load"][()],
                                 f2["routing/pattern/channel_load"][()]), "loads on 2 ranks")
    uni = os.path.join(out, "uniform.h5")
    run([args.wormnet, "run", "-q", "-t", "mesh:4x4", "-r", "xy", "--load", "0.1", "--warmup",
         "100", "--measure", "500", "-o", uni])
    with h5py.File(uni, "r") as f:
        check("pattern" not in f["routing"], "a uniform run has no /routing/pattern")

    page = os.path.join(out, "report.html")
    run([sys.executable, os.path.join(args.analysis, "report.py"), h5, "-o", page], env=env)
    text = open(page, encoding="utf-8").read()
    check("% of the transpose ideal" in text, "the points table's column")
    for acc in accepted:
        check(f"{100 * acc / 0.25:.3g}" in text, f"{100 * acc / 0.25:.3g} % of the ideal shown")
    r = run([sys.executable, os.path.join(args.analysis, "heatmap.py"), h5, "--quantity",
             "pattern-load", "-o", os.path.join(out, "p.png")], env=env)
    check("max 3" in r.stdout, f"heatmap of the pattern's loads: {r.stdout}")
    run([sys.executable, os.path.join(args.analysis, "plot_sweep.py"), h5, "--x", "pattern",
         "-o", os.path.join(out, "s.png")], env=env)
    r = run([sys.executable, os.path.join(args.analysis, "heatmap.py"), uni, "--quantity",
             "pattern-load", "-o", os.path.join(out, "u.png")], expect=2, env=env)
    check("/routing/pattern" in r.stderr, f"refused for uniform traffic: {r.stderr}")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("pattern ideal: OK")


if __name__ == "__main__":
    main()
