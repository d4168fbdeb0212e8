#!/usr/bin/python3
"""Heatmaps and the report of where packets wait (issue 39 item 2), against the file read
here with h5py:

- every congestion quantity of channels.channel_values (and of the drawn heatmap and the small
  multiples) is the file's per-VC counts summed over each channel's VCs, blocked the three
  waits' sum (and the file's own `blocked`);
- under duato (torus:4x4 and honeycomb-torus:3) the escape share is in [0, 1] and is, per
  channel, the flits of the escape VCs (the `escape_vcs` bits of `vc_flits`) over all flits;
- the report has the "Where packets wait" section whose first channel is the one with the most
  blocked cycles (found here), with its waits; under duato the escape/adaptive table's totals;
- a file without counts: heatmap.py exits 2 with one line saying to rerun with --congestion
  totals, and the report has that line and no section; escape-share of a routing without
  escape VCs is refused in one line;
- runs/duato_congestion.sh (the docs/duato.md figure) writes its two pictures into its output
  folder (--quick), leaves docs/img as it is, and refuses bad options with exit code 2.

usage: analysis_congestion_views_test.py --wormnet BIN --analysis DIR --out DIR
"""
import argparse
import html
import os
import re
import subprocess
import sys

import h5py
import numpy as np

FAILURES = []
WAITS = ("vc_wait", "credit_wait", "switch_wait")


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def wormnet(binary, *args):
    subprocess.run([binary, *args, "-q"], check=True, timeout=120)


def from_file(path, index):
    """The per-channel values computed here from the file's per-VC datasets."""
    with h5py.File(path, "r") as f:
        g = f[f"points/{index:03d}/congestion"]
        raw = {name: g[name][()] for name in (*WAITS, "occupancy", "vc_flits", "blocked")}
        escape_vcs = int(g.attrs["escape_vcs"])
    sums = {w.replace("_", "-"): raw[w].astype(float).sum(axis=1) for w in WAITS}
    sums["occupancy"] = raw["occupancy"].sum(axis=1)
    sums["blocked"] = sum(raw[w].astype(np.int64).sum(axis=1) for w in WAITS).astype(float)
    check(np.array_equal(sums["blocked"], raw["blocked"].astype(float)),
          f"{path}: the file's blocked is the waits' sum")
    vcs = raw["vc_flits"].shape[1]
    mask = np.array([(escape_vcs >> v) & 1 == 1 for v in range(vcs)])
    escape = raw["vc_flits"][:, mask].sum(axis=1).astype(float)
    total = raw["vc_flits"].sum(axis=1).astype(float)
    return sums, escape, total, escape_vcs


def check_values(wa, hm, path, index, duato):
    from wormnet_analysis.channels import channel_values

    sweep = wa.load(path)
    sums, escape, total, escape_vcs = from_file(path, index)
    check((escape_vcs != 0) == duato, f"{path}: escape_vcs {escape_vcs}")
    for q, expect in sums.items():
        values, text = channel_values(sweep, q, index)
        check(np.allclose(values, expect, rtol=1e-12, atol=0), f"{path}: {q} against h5py")
        check(text.strip() != "", f"{q}: a colour-bar text")
    check(sums["blocked"].max() > 0 and sums["occupancy"].max() > 0,
          f"{path}: the run was congested enough to count")
    h = hm.heatmap_of(sweep, "blocked", index)
    check(np.array_equal(h.values, sums["blocked"]), f"{path}: the drawn heatmap's values")
    fig, drawn = hm.congestion_panels(sweep, index)
    names = [d.quantity for d in drawn]
    want = ["blocked", "vc-wait", "credit-wait", "switch-wait", "occupancy"]
    check(names == want + (["escape-share"] if duato else []), f"{path}: panels {names}")
    for d in drawn:
        if d.quantity in sums:
            check(np.allclose(d.values, sums[d.quantity]), f"{path}: panel {d.quantity}")
    if duato:
        share, _ = channel_values(sweep, "escape-share", index)
        check(np.all((share >= 0) & (share <= 1)), f"{path}: escape share in [0, 1]")
        used = total > 0
        check(np.allclose(share[used], escape[used] / total[used], rtol=1e-12),
              f"{path}: escape share = escape / (escape + adaptive)")
        check(np.all(share[~used] == 0), f"{path}: a channel without flits has share 0")
        check(0 < share.max() and share.min() < 1, f"{path}: both kinds of VC used")
        e = hm.heatmap_of(sweep, "escape-share", index)
        check((e.norm.vmin, e.norm.vmax) == (0.0, 1.0), f"{path}: the share drawn on 0..1")
    else:
        try:
            channel_values(sweep, "escape-share", index)
            check(False, f"{path}: escape-share without escape VCs was drawn")
        except wa.ResultFileError as err:
            check("escape" in str(err) and "\n" not in str(err), f"one line: {err}")
    return sums, escape, total


def table_rows(page, anchor):
    """The cells of the first table after `anchor`, row by row (header row first)."""
    start = page.index(anchor)
    table = page[page.index("<table>", start):page.index("</table>", start)]
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        rows.append([html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
                     for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)])
    return rows


def check_report(wa, path, index, sums, escape, total, duato):
    from wormnet_analysis.report import report_html

    sweep = wa.load(path)
    page = report_html(sweep, point=index)
    check('id="waits"' in page and 'href="#waits"' in page, f"{path}: the section and link")
    rows = table_rows(page, 'id="waits"')
    blocked = sums["blocked"]
    busiest = int(np.flatnonzero(blocked == blocked.max())[0])
    first = dict(zip(rows[0], rows[1]))
    check(first["channel"] == sweep.network.channel_label(busiest),
          f"{path}: busiest by blocked {first['channel']!r}, h5py says channel {busiest}")
    check(int(first["blocked (cycles)"]) == int(blocked.max()), f"{path}: its blocked cycles")
    for w in WAITS:
        head = w.replace("_", " ") + " (cycles)"
        check(int(first[head]) == int(sums[w.replace("_", "-")][busiest]), f"{path}: its {w}")
    order = [r[1] for r in rows[1:] if r[1]]
    check(len(order) == min(10, len(blocked)), f"{path}: {len(order)} channels listed")
    if duato:
        rows = table_rows(page, 'id="escape"')
        mine = [dict(zip(rows[0], r)) for r in rows[1:]]
        here = [r for r in mine if int(r["point"]) == index]
        check(len(here) == 1 and int(here[0]["escape flits"]) == int(escape.sum())
              and int(here[0]["adaptive flits"]) == int(total.sum() - escape.sum()),
              f"{path}: escape/adaptive totals of point {index}")
    else:
        check('id="escape"' not in page, f"{path}: no escape table without escape VCs")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    sys.path.insert(0, a.analysis)
    os.makedirs(a.out, exist_ok=True)
    os.environ.setdefault("MPLCONFIGDIR", os.path.join(a.out, "mpl"))
    import wormnet_analysis as wa
    from wormnet_analysis import heatmap as hm

    window = ["--warmup", "200", "--measure", "1000", "--length", "5"]
    torus = os.path.join(a.out, "torus_duato.h5")
    wormnet(a.wormnet, "sweep", "-t", "torus:4x4", "-r", "duato", "--loads", "0.1,0.35",
            *window, "--congestion", "totals", "-o", torus)
    honey = os.path.join(a.out, "honeycomb_duato.h5")
    wormnet(a.wormnet, "run", "-t", "honeycomb-torus:3", "-r", "duato", "--load", "0.25",
            *window, "--congestion", "totals", "-o", honey)
    dateline = os.path.join(a.out, "torus_dateline.h5")
    wormnet(a.wormnet, "run", "-t", "torus:4x4", "-r", "dor-dateline", "--load", "0.35",
            *window, "--congestion", "totals", "-o", dateline)
    plain = os.path.join(a.out, "plain.h5")
    wormnet(a.wormnet, "run", "-t", "torus:4x4", "-r", "duato", "--load", "0.35", *window,
            "-o", plain)

    for path, index, duato in ((torus, 1, True), (honey, 0, True), (dateline, 0, False)):
        sums, escape, total = check_values(wa, hm, path, index, duato)
        check_report(wa, path, index, sums, escape, total, duato)

    heatmap = os.path.join(a.analysis, "heatmap.py")
    png = os.path.join(a.out, "panels.png")
    r = subprocess.run([sys.executable, heatmap, torus, "-o", png, "--quantity", "congestion",
                        "--point", "1"], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0 and os.path.getsize(png) > 1000, f"heatmap.py panels: {r.stderr}")
    for quantity in ("blocked", "congestion"):
        r = subprocess.run([sys.executable, heatmap, plain, "-o", png, "--quantity", quantity],
                           capture_output=True, text=True, timeout=120)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and "--congestion totals" in lines[0],
              f"heatmap.py --quantity {quantity} without counts: exit {r.returncode}, "
              f"{r.stderr!r}")
    from wormnet_analysis.report import report_html

    page = report_html(wa.load(plain))
    check('id="waits"' not in page and "--congestion totals" in page,
          "the report without counts says how to get them and has no section")
    check_figure_script(a.wormnet, os.path.dirname(os.path.abspath(a.analysis)), a.out)
    if FAILURES:
        sys.exit(1)
    print("analysis congestion views: ok")


def check_figure_script(binary, repo, out):
    script = os.path.join(repo, "runs", "duato_congestion.sh")
    for bad in (["--frobnicate"], ["--quick", "--update-docs"], []):
        r = subprocess.run([script, *([binary] if bad else []), *bad], capture_output=True,
                           text=True, timeout=60)
        check(r.returncode == 2 and r.stderr.strip(),
              f"duato_congestion.sh {' '.join(bad)}: exit {r.returncode}, {r.stderr!r}")
    names = ("duato_blocked.png", "duato_escape_share.png")
    img = os.path.join(repo, "docs", "img")

    def state():
        found = {}
        for n in names:
            path = os.path.join(img, n)
            found[n] = open(path, "rb").read() if os.path.exists(path) else None
        return found

    before = state()
    folder = os.path.join(out, "duato_congestion")
    r = subprocess.run([script, binary, folder, "--quick"], capture_output=True, text=True,
                       timeout=300)
    check(r.returncode == 0, f"duato_congestion.sh --quick: exit {r.returncode}, {r.stderr}")
    for n in names:
        check(os.path.getsize(os.path.join(folder, n)) > 1000, f"{folder}/{n} written")
    shares = [float(x) for x in re.findall(r"escape share ([0-9.]+)", r.stdout)]
    check(len(shares) == 3 and all(0 <= x <= 1 for x in shares), f"shares {shares}")
    check(state() == before, "duato_congestion.sh without --update-docs left docs/img alone")


if __name__ == "__main__":
    main()
