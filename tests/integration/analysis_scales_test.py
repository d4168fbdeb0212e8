#!/usr/bin/python3
"""The heatmaps' colour scales (issue 39, item 5):

- a near-uniform gamma_c (HT_4 under double-xy-dateline: 168 to 170) is drawn on a relative
  scale by default: its least and most loaded channels get clearly different colours (on the
  absolute scale from 0 they are one colour, as the issue found on HT_8: 1360..1364);
- --vmin/--vmax set the scale's ends (a channel above --vmax takes the top colour), and one
  not below the other is refused in one line, exit 2;
- with --slice the scale and the title's maximum are the whole network's (the title said the
  network's maximum while the colour bar stopped at the slice's), and the title also gives the
  slice's maximum when it is lower.

usage: analysis_scales_test.py --wormnet BIN --analysis DIR --out DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

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


def distance(a, b):
    return float(np.linalg.norm(np.asarray(a[:3]) - np.asarray(b[:3])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    env = dict(os.environ, MPLCONFIGDIR=os.path.join(out, "mpl"))
    os.environ["MPLCONFIGDIR"] = env["MPLCONFIGDIR"]
    sys.path.insert(0, args.analysis)
    import wormnet_analysis as wa
    from wormnet_analysis import heatmap

    ht = os.path.join(out, "ht4.h5")
    run([args.wormnet, "run", "-q", "-t", "honeycomb-torus:4", "-r", "double-xy-dateline",
         "--load", "0.01", "--warmup", "100", "--measure", "500", "-o", ht])
    s = wa.load(ht)
    g = s.channel_load
    lo, hi = int(np.argmin(g)), int(np.argmax(g))
    check(g[hi] - g[lo] < 0.1 * g[hi], f"gamma_c is narrow: {g[lo]} .. {g[hi]}")
    h = heatmap.heatmap_of(s, "load")
    check(h.scale == "relative", f"auto draws a narrow range relatively: {h.scale}")
    check(abs(h.norm.vmin + h.norm.vmax - 2 * g.mean()) < 1e-9, "centred on the mean")
    check(distance(h.color_of(lo), h.color_of(hi)) > 0.5,
          f"least and most loaded drawn apart: {h.color_of(lo)} {h.color_of(hi)}")
    a = heatmap.heatmap_of(s, "load", scale="absolute")
    check(a.scale == "absolute" and a.norm.vmin == 0.0 and a.norm.vmax == g.max(), "absolute")
    check(distance(a.color_of(lo), a.color_of(hi)) < 0.05,
          "on the absolute scale they are one colour (why the relative one exists)")
    v = heatmap.heatmap_of(s, "load", vmin=150.0, vmax=169.0)
    check((v.norm.vmin, v.norm.vmax) == (150.0, 169.0), f"--vmin/--vmax: {v.norm}")
    check(distance(v.color_of(hi), v.cmap(1.0)) < 1e-9, "above --vmax: the top colour")

    torus = os.path.join(out, "t3.h5")
    run([args.wormnet, "run", "-q", "-t", "torus:4x4x4", "-r", "dor-dateline", "--traffic",
         "hotspot", "--hotspot-nodes", "0", "--hotspot-fraction", "0.5", "--load", "0.05",
         "--warmup", "100", "--measure", "1000", "-o", torus])
    t = wa.load(torus)
    util = t.point(0).channel_utilization
    z = t.network.coords[t.network.channel_source][:, 2]
    quiet = int(np.argmin([util[z == k].max() for k in range(4)]))
    check(util[z == quiet].max() < util.max(), "a slice below the network's maximum")
    h = heatmap.heatmap_of(t, "utilization", slices={2: quiet})
    check(abs(h.norm.vmax - util.max()) < 1e-12,
          f"the slice is drawn on the whole network's scale: {h.norm.vmax} vs {util.max()}")
    title = h.figure._suptitle.get_text()
    check(f"max {util.max():.4g} (whole network; {util[z == quiet].max():.4g} in the slices "
          "drawn)" in title, f"the title gives both maxima: {title}")

    heat = os.path.join(args.analysis, "heatmap.py")
    r = run([sys.executable, heat, ht, "--quantity", "load", "-o", os.path.join(out, "a.png")],
            env=env)
    check("scale      relative" in r.stdout, r.stdout)
    r = run([sys.executable, heat, torus, "--vmin", "0.5", "--vmax", "0.2", "-o",
             os.path.join(out, "b.png")], expect=2, env=env)
    check(len(r.stderr.strip().splitlines()) == 1 and "--vmin" in r.stderr, r.stderr)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("heatmap scales: OK")


if __name__ == "__main__":
    main()
