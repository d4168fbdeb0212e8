#!/usr/bin/python3
"""The HTML report of a run (analysis/report.py) on a small H_4 sweep to saturation:

- the page is self-contained (no external resource) and every section is there; every
  embedded figure is a PNG that decodes;
- what it says follows from the file (read here with h5py): the load points' accepted
  traffic, the speed as router-cycles per second = N x cycles / wall seconds, the partition;
- the steadiness verdicts are physical facts of the sweep: the lowest load is steady, the
  point offered the routing's ideal saturation rate (N-1)/pi is not (its sources' backlog
  grows), and the backlog growth it reports is what the raw time series gives;
- rendered by a real browser (Debian's chromium, headless): the screenshot is the size asked
  for, mostly not blank, and shows the colours of the embedded figures (so they decoded and
  were drawn). That part runs with --browser-only, and without chromium it is skipped with a
  message and exit code 77 (ctest shows it as skipped).

usage: analysis_report_test.py --wormnet BIN --analysis DIR --out DIR [--browser-only]
"""
import argparse
import base64
import html.parser
import io
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

SKIP = 77
FAILURES = []
SECTIONS = ("config", "points", "latency", "histograms", "steady", "heatmap", "partition",
            "speed")
WARMUP, MEASURE, WINDOW = 1000, 6000, 250


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def run(cmd, expect=0, env=None, timeout=300):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if r.returncode != expect:
        print(f"FAIL: {' '.join(cmd)} exited {r.returncode}, expected {expect}:\n{r.stdout}\n"
              f"{r.stderr}", file=sys.stderr)
        sys.exit(1)
    return r


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.images, self.external, self.text = [], [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "img":
            self.images.append(a.get("src", ""))
        for k in ("src", "href"):
            v = a.get(k, "")
            if v and not v.startswith(("data:", "#")):
                self.external.append(v)

    def handle_data(self, data):
        self.text.append(data)


def check_page(page_path, h5, nodes):
    from PIL import Image

    with open(page_path, encoding="utf-8") as f:
        text = f.read()
    p = Page()
    p.feed(text)
    body = " ".join(p.text)
    check(not p.external, f"report links to external resources: {p.external}")
    for s in SECTIONS:
        check(s in p.ids, f"report lacks section {s}")
    check(len(p.images) >= 5, f"{len(p.images)} figures embedded")
    for src in p.images:
        check(src.startswith("data:image/png;base64,"), "figures are PNG data URIs")
        with Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))) as im:
            im.load()
            check(im.size[0] > 200 and im.size[1] > 150, f"figure of {im.size}")
    with h5py.File(h5, "r") as f:
        s = f["summary"]
        for acc in s["accepted"][()]:
            check(f"{acc:.4g}" in body, f"accepted {acc:.4g} in the points table")
        for k in range(s["point"].shape[0]):
            a = f[f"points/{k:03d}"].attrs
            rc = nodes * int(a["cycles"]) / float(a["wall_seconds"])
            check(f"{rc:.3g}" in body, f"point {k}: router-cycles/s {rc:.3g} in the speed table")
        part = f["partition"].attrs
        check(f"edge cut (links between ranks) {int(part['edge_cut'])}" in " ".join(body.split()),
              "partition edge cut shown")
    return text, body


def check_steadiness(h5, nodes):
    """The verdicts the package gives, against the raw time series."""
    import wormnet_analysis as wa

    sweep = wa.load(h5)
    first, last = sweep.points[0], sweep.points[-1]
    s0, s1 = wa.point_steadiness(sweep, first), wa.point_steadiness(sweep, last)
    check(s0.steady, f"the lowest load is steady: {s0.verdict}")
    check(not s1.steady and "backlog grows" in s1.verdict,
          f"(N-1)/pi offered is not steady: {s1.verdict}")
    # One definition of saturation: a point the simulator flagged is never "steady" in the
    # steadiness table (it once was, while the load-point table said "saturated").
    flagged = [p for p in sweep.points if int(p.attrs["saturated"])]
    check(flagged, "the sweep has a flagged point")
    for p in sweep.points:
        st = wa.point_steadiness(sweep, p)
        if int(p.attrs["saturated"]):
            check(not st.steady and st.verdict.startswith("not steady: flagged saturated"),
                  f"point {p.index} flagged saturated: {st.verdict}")
    sp = wa.saturation_point(sweep)
    steady_acc = [float(p.attrs["accepted"]) for p in sweep.points
                  if not int(p.attrs["saturated"])]
    check(abs(sp["saturation_throughput"]["accepted"] - max(steady_acc)) < 1e-15,
          "the saturation throughput is the largest accepted of the unflagged points")
    with h5py.File(h5, "r") as f:
        ts = f[f"points/{last.index:03d}/timeseries"]
        end = ts["cycle_end"][()]
        inside = (end - ts["cycles"][()] >= WARMUP) & (end <= WARMUP + MEASURE)
        backlog = ts["flits_at_sources"][()][inside].astype(float)
    check(inside.sum() == MEASURE // WINDOW, f"{inside.sum()} windows in the measurement window")
    # Growth over the window from its two ends; the fitted slope must be close to it.
    ends = (backlog[-1] - backlog[0]) / ((len(backlog) - 1) * WINDOW) / nodes
    check(abs(s1.backlog_growth - ends) <= 0.1 * abs(ends),
          f"backlog growth {s1.backlog_growth} vs {ends} from the ends")
    return s0, s1


def screenshot(chromium, page, png, profile, size=(1200, 2400)):
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--no-first-run", "--hide-scrollbars", f"--user-data-dir={profile}",
           f"--window-size={size[0]},{size[1]}", f"--screenshot={png}",
           "file://" + os.path.abspath(page)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def check_screenshot(png, size):
    from PIL import Image

    with Image.open(png) as im:
        rgb = np.asarray(im.convert("RGB")).astype(int)
    check(rgb.shape[1] == size[0] and rgb.shape[0] == size[1],
          f"screenshot {rgb.shape[1]}x{rgb.shape[0]}, asked {size}")
    inked = np.mean(rgb.sum(axis=2) < 3 * 235)
    check(inked > 0.03, f"screenshot mostly blank ({100 * inked:.1f}% inked)")
    # matplotlib's first colour (31, 119, 180): the latency curve and the time series.
    blue = np.all(np.abs(rgb - np.array([31, 119, 180])) <= 6, axis=2).sum()
    check(blue > 200, f"the figures' blue is on screen ({blue} pixels)")
    # Text: dark pixels in the first screen (title, tables).
    dark = np.all(rgb[: size[1] // 3] < 80, axis=2).sum()
    check(dark > 2000, f"text on the first screen ({dark} dark pixels)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--browser-only", action="store_true",
                    help="only render with chromium (skip: exit 77 without it)")
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if args.browser_only and not chromium:
        print("SKIP: chromium is not installed (apt-get install chromium; ./setup.sh does)")
        sys.exit(SKIP)
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    sys.path.insert(0, args.analysis)
    env = dict(os.environ, MPLCONFIGDIR=os.path.join(out, "mpl"))
    h5 = os.path.join(out, "h4.h5")
    run([args.wormnet, "sweep", "-q", "-t", "honeycomb:4", "-r", "double-xy", "--relative",
         "--loads", "0.1,0.5,1.0", "--warmup", str(WARMUP), "--measure", str(MEASURE),
         "--stats-window", str(WINDOW), "--drain-limit", "3000", "-o", h5])
    with h5py.File(h5, "r") as f:
        nodes = int(f["topology"].attrs["nodes"])
    page = os.path.join(out, "report.html")
    run([sys.executable, os.path.join(args.analysis, "report.py"), h5, "-o", page], env=env)
    if not args.browser_only:
        check_page(page, h5, nodes)
        s0, s1 = check_steadiness(h5, nodes)
        text = open(page, encoding="utf-8").read()
        check(s1.verdict.split(":")[0] in text and "steady" in text, "verdicts in the report")
        sp = __import__("wormnet_analysis").saturation_point(__import__("wormnet_analysis")
                                                             .load(h5))
        check(f"saturation throughput {sp['saturation_throughput']['accepted']:.5f}" in text,
              "the report names the saturation throughput")
        run([sys.executable, os.path.join(args.analysis, "report.py"), h5 + ".missing", "-o",
             os.path.join(out, "x.html")], expect=2, env=env)
        # A saturated point with too few statistics windows for a trend: it was "steady" in
        # the steadiness table and "saturated" in the load points' (issue 39).
        few = os.path.join(out, "few.h5")
        run([args.wormnet, "run", "-q", "-t", "honeycomb:4", "-r", "double-xy",
             "--load-fraction", "1", "--warmup", "500", "--measure", "2000", "--drain-limit",
             "1000", "-o", few])
        import wormnet_analysis as wa

        fs = wa.load(few)
        fp = fs.points[0]
        st = wa.point_steadiness(fs, fp)
        check(int(fp.attrs["saturated"]) == 1 and st.windows < 5,
              f"a flagged point with {st.windows} windows")
        check(not st.steady and "flagged saturated" in st.verdict,
              f"never steady when flagged: {st.verdict}")
    if args.browser_only:
        png = os.path.join(out, "report.png")
        size = (1200, 2400)
        r = screenshot(chromium, page, png, os.path.join(out, "chromium-profile"), size)
        if check(r.returncode == 0 and os.path.exists(png),
                 f"chromium exited {r.returncode}: {r.stderr[-2000:]}"):
            check_screenshot(png, size)
            print(f"screenshot {png}")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("report: OK")


if __name__ == "__main__":
    main()
