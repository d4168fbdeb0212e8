#!/usr/bin/python3
"""The report's congestion sections (issue 39 item 2) on a duato run of torus:6x4 with
--congestion series, checked against the results file read here with h5py:

- "where packets wait" names first the channel with the most blocked cycles (vc + credit +
  switch waits summed over its VCs, computed here), with those three sums;
- "escape against adaptive VCs" gives the escape and adaptive flits of the point;
- "the channels over time" lists each window's flits over all channels as the series holds
  them, and the series is coherent with the totals: summed over the windows of the
  measurement it is, channel by channel, the measurement's flits per channel and VC; its
  blocked cycles (channel_series/blocked) summed over the windows are, channel by channel,
  the measurement's vc + credit + switch waits over the channel's VCs, and 0 in the windows
  of the warm-up and the drain; each window's row gives the blocked cycles over all
  channels, the most blocked channel and its cycles as h5py reads them;
- every figure is a PNG that decodes; rendered by headless chromium (--browser-only; exit 77
  without chromium) the page is the size asked for, not blank, and shows the heatmaps'
  colours (the orange and dark red of their colour map).

usage: analysis_congestion_report_test.py --wormnet BIN --analysis DIR --out DIR
       [--browser-only]
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analysis_report_test import screenshot  # noqa: E402

SKIP = 77
FAILURES = []
WARMUP, MEASURE, WINDOW = 300, 3000, 100
RUN = ["run", "-q", "-t", "torus:6x4", "-r", "duato", "--load", "0.35", "--length", "6",
       "--buffer", "3", "--warmup", str(WARMUP), "--measure", str(MEASURE), "--stats-window",
       str(WINDOW), "--congestion", "series"]


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def run(cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    if r.returncode != 0:
        print(f"FAIL: {' '.join(cmd)} exited {r.returncode}:\n{r.stdout}\n{r.stderr}",
              file=sys.stderr)
        sys.exit(1)
    return r


class Page(html.parser.HTMLParser):
    """Section ids, images, and every table as a list of rows of cell texts."""

    def __init__(self):
        super().__init__()
        self.ids, self.images, self.tables = [], [], []
        self._cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "img":
            self.images.append(a.get("src", ""))
        if tag == "table":
            self.tables.append([])
        if tag == "tr" and self.tables:
            self.tables[-1].append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def table(self, column):
        """The rows (header excluded) of the first table with a header cell `column`."""
        for t in self.tables:
            if t and column in t[0]:
                return t[1:]
        return None


def check_page(page, h5, analysis):
    from PIL import Image

    sys.path.insert(0, analysis)
    import wormnet_analysis as wa

    p = Page()
    p.feed(open(page, encoding="utf-8").read())
    for section in ("waits", "escape", "series"):
        check(section in p.ids, f"the report has section {section}")
    for src in p.images:
        with Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))) as im:
            im.load()
    check(len(p.images) >= 9, f"{len(p.images)} figures")
    net = wa.load(h5).network
    with h5py.File(h5, "r") as f:
        c = f["points/000/congestion"]
        waits = [c[k][()].sum(axis=1) for k in ("vc_wait", "credit_wait", "switch_wait")]
        blocked = waits[0] + waits[1] + waits[2]
        top = int(np.argmax(blocked))
        escape, adaptive = int(c["escape_flits"][()].sum()), int(c["adaptive_flits"][()].sum())
        vc_flits = c["vc_flits"][()]
        s = f["points/000/channel_series"]
        flits, end = s["flits"][()], s["cycle_end"][()]
        series_blocked = s["blocked"][()]
    start = np.concatenate([[0], end[:-1]])
    # The blocked series against the totals: over the windows, each channel's waits.
    check(series_blocked.shape == flits.shape, f"blocked series {series_blocked.shape}")
    check(np.array_equal(series_blocked.sum(axis=1), blocked),
          "the blocked series summed over the windows is each channel's waits")
    check(blocked.sum() > 0, "the run is congested (a blocked cycle somewhere)")
    # The series against the totals: the measurement's windows sum to its flits per channel.
    inside = (start >= WARMUP) & (end <= WARMUP + MEASURE)
    check(inside.sum() == MEASURE // WINDOW, f"{inside.sum()} measurement windows")
    check(np.array_equal(flits[:, inside].sum(axis=1), vc_flits.sum(axis=1)),
          "the series summed over the measurement is the flits per channel")
    check(not series_blocked[:, ~inside].any(), "no blocked cycle outside the measurement")
    check(vc_flits.sum() == escape + adaptive, "every flit is on an escape or an adaptive VC")
    # Where packets wait: the first row is the busiest channel, with its three sums.
    waits_table = p.table("vc wait (cycles)")
    if check(waits_table, "the waits table"):
        first = waits_table[0]
        check(first[0] == "1" and first[1] == net.channel_label(top),
              f"busiest channel {first[:2]}, expected {net.channel_label(top)}")
        check([int(x) for x in first[3:7]] == [int(waits[0][top]), int(waits[1][top]),
                                               int(waits[2][top]), int(blocked[top])],
              f"its waits {first[3:7]}")
    # Escape against adaptive: the point's row.
    esc = p.table("escape flits")
    check(esc and [int(esc[0][3]), int(esc[0][4])] == [escape, adaptive],
          f"escape/adaptive row {esc[:1] if esc else esc} against {escape}/{adaptive}")
    # The channels over time: each window listed, with its flits over all channels.
    listed = p.table("flits (all channels)") or []
    # 34 windows: more than the table's 24, so the first and last three and the six drawn
    # (spread evenly from the first to the last: 0, 7, 13, 20, 26, 33).
    n = len(end)
    shown = sorted({0, 1, 2, n - 3, n - 2, n - 1} | {round(k * (n - 1) / 5) for k in range(6)})
    check([int(r[0]) for r in listed] == shown, f"windows listed {[r[0] for r in listed]}")
    for r in listed:
        w = int(r[0])
        check(r[1] == f"{start[w]}\u2013{end[w]}", f"window {w} cycles {r[1]}")
        check(int(r[3]) == int(flits[:, w].sum()), f"window {w}: {r[3]} flits")
        check(int(r[5]) == int(flits[:, w].max()), f"window {w}: busiest {r[5]}")
        col = series_blocked[:, w]
        most = int(np.argmax(col))
        check(int(r[6]) == int(col.sum()), f"window {w}: {r[6]} blocked cycles")
        expect = (net.channel_label(most), int(col[most])) if col[most] > 0 else ("\u2013", 0)
        check((r[7], int(r[8])) == expect, f"window {w}: most blocked {r[7:9]}, {expect}")


def check_screenshot(png, size):
    from PIL import Image

    with Image.open(png) as im:
        rgb = np.asarray(im.convert("RGB")).astype(int)
    check(rgb.shape[1] == size[0] and rgb.shape[0] == size[1],
          f"screenshot {rgb.shape[1]}x{rgb.shape[0]}, asked {size}")
    inked = np.mean(rgb.sum(axis=2) < 3 * 235)
    check(inked > 0.03, f"screenshot mostly blank ({100 * inked:.1f}% inked)")
    # The heatmaps' colour map (absolute scale: YlOrRd) runs from pale yellow to dark red
    # (128, 0, 38) through orange (253, 141, 60): its orange and red on screen mean the
    # PNGs were decoded and drawn (nothing else on the page has them).
    # The congestion sections come last but for the short partition and speed tables: look
    # in the last quarter of the page (the channels over time).
    inked_rows = np.nonzero((rgb.sum(axis=2) < 3 * 235).any(axis=1))[0]
    tail = rgb[int(0.75 * inked_rows.max()):]
    for name, colour in (("dark red", (128, 0, 38)), ("orange", (253, 141, 60))):
        near = np.all(np.abs(tail - np.array(colour)) <= 40, axis=2).sum()
        check(near > 100, f"the heatmaps' {name} is on screen at the page's end ({near} px)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--browser-only", action="store_true")
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if args.browser_only and not chromium:
        print("SKIP: chromium is not installed (apt-get install chromium; ./setup.sh does)")
        sys.exit(SKIP)
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    env = dict(os.environ, MPLCONFIGDIR=os.path.join(out, "mpl"))
    h5 = os.path.join(out, "series.h5")
    run([args.wormnet, *RUN, "-o", h5])
    page = os.path.join(out, "report.html")
    run([sys.executable, os.path.join(args.analysis, "report.py"), h5, "-o", page], env=env)
    if args.browser_only:
        # The congestion sections are the page's end: a tall window shows them.
        size = (1200, 9000)
        png = os.path.join(out, "report.png")
        r = screenshot(chromium, page, png, os.path.join(out, "chromium-profile"), size)
        if check(r.returncode == 0 and os.path.exists(png),
                 f"chromium exited {r.returncode}: {r.stderr[-2000:]}"):
            check_screenshot(png, size)
    else:
        check_page(page, h5, args.analysis)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("congestion report: OK")


if __name__ == "__main__":
    main()
