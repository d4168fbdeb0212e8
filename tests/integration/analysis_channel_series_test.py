#!/usr/bin/python3
"""The channel view over time (--congestion series, issue 39 item 2) in the analysis:

- hand-worked: one 6-flit message from node 0 to node 3 of mesh:4x2 (xy routing, the line
  0-1-2-3, default delays rc = va = sa = st = 1 and links of 1 cycle, docs/simulator.md
  "Timing"), windows of one cycle: the head reaches the front at cycle 0, wins the switch at
  0 + rc + va = 2 and at each next router 5 cycles later (sa + st + L + rc + va); the body
  follows a flit a cycle. So channel 0->1 carries one flit in each of the cycles 2..7, 1->2
  in 7..12, 2->3 in 12..17, and no other channel carries any;
- a duato run on torus:4x4: channel_series_frame's rows sum to the time series' flit hops,
  the rows of the measurement window to channel_flits per channel; its utilization times
  the window's cycles gives the flits back; channel_series_frame(quantity="blocked") is
  channel_series/blocked by window, its rows sum, channel by channel, to the measurement's
  vc + credit + switch waits over the channel's VCs (/points/NNN/congestion), and the rows
  of the warm-up and the drain are 0;
- heatmap.series_panels: six windows spread over the run (the first and the last), each
  panel's values the window's flits per cycle read with h5py, one colour scale over them,
  titled with the window's phase (warm-up first, drain last);
- heatmap.py --quantity over-time draws the windows asked for; a window out of range, a
  malformed --windows or --windows without over-time are one line, exit 2;
- a run without the series: KeyError and a one-line ResultFileError naming
  --congestion series (heatmap.py: exit 2).

usage: analysis_channel_series_test.py --wormnet BIN --analysis DIR --out DIR
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np

FAILURES = []


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print("FAIL:", what, file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    os.environ.setdefault("MPLCONFIGDIR", os.path.join(a.out, "mpl"))
    sys.path.insert(0, a.analysis)
    import wormnet_analysis as wa
    from wormnet_analysis import heatmap

    def run(*args):
        subprocess.run([a.wormnet, "run", "-q", *args], check=True)

    # The hand-worked line.
    trace = os.path.join(a.out, "line.csv")
    with open(trace, "w") as f:
        f.write("id,source,destination,flits,after,iteration,depends\n0,0,3,6,0,0,\n")
    line = os.path.join(a.out, "line.h5")
    run("-t", "mesh:4x2", "-r", "xy", "--buffer", "8", "--workload", "trace", "--trace", trace,
        "--stats-window", "1", "--drain-limit", "2000", "--congestion", "series", "-o", line)
    frame = wa.channel_series_frame(line)
    with h5py.File(line, "r") as f:
        source = f["topology/channel_source"][()]
        dest = f["topology/channel_dest"][()]
    expect = np.zeros(frame.shape, dtype=np.int64)
    for k in range(3):  # channel k -> k+1: one flit in each of the cycles 2+5k .. 7+5k
        c = int(np.nonzero((source == k) & (dest == k + 1))[0][0])
        for cycle in range(2 + 5 * k, 8 + 5 * k):
            expect[frame.index.get_loc(cycle + 1), c] = 1  # the window [cycle, cycle + 1)
    check(list(frame.index) == list(range(1, len(frame) + 1)), "windows of one cycle each")
    check(np.array_equal(frame.to_numpy(), expect),
          f"the line's flits by window: got {np.argwhere(frame.to_numpy())}")

    # Sums on a duato torus, through the warm-up, measurement and drain.
    torus = os.path.join(a.out, "torus.h5")
    run("-t", "torus:4x4", "-r", "duato", "--load", "0.35", "--length", "6", "--warmup", "200",
        "--measure", "1000", "--stats-window", "100", "--congestion", "series", "-o", torus)
    flits = wa.channel_series_frame(torus)
    util = wa.channel_series_frame(torus, quantity="utilization")
    with h5py.File(torus, "r") as f:
        p = f["points/000"]
        hops = p["timeseries/flit_hops"][()]
        ends = p["timeseries/cycle_end"][()]
        channel_flits = p["channel_flits"][()]
        raw = p["channel_series/flits"][()]
        raw_blocked = p["channel_series/blocked"][()]
        waits = sum(p["congestion"][k][()].sum(axis=1)
                    for k in ("vc_wait", "credit_wait", "switch_wait"))
    cycles = np.diff(ends, prepend=0)
    blocked = wa.channel_series_frame(torus, quantity="blocked")
    check(np.array_equal(blocked.to_numpy(), raw_blocked.T), "the blocked frame is the series")
    check(np.array_equal(blocked.sum(axis=0).to_numpy(), waits) and waits.sum() > 0,
          "the blocked rows sum to each channel's waits over the measurement window")
    check(not blocked[(ends <= 200) | (ends > 1200)].to_numpy().any(),
          "no blocked cycle in the warm-up and the drain")
    check(np.array_equal(flits.index.to_numpy(), ends), "one row per window of the time series")
    check(np.array_equal(flits.sum(axis=1).to_numpy(), hops), "rows sum to the flit hops")
    inside = (ends > 200) & (ends <= 1200)
    check(np.array_equal(flits[inside].sum(axis=0).to_numpy(), channel_flits),
          "the measurement window's rows sum to channel_flits")
    check(np.allclose(util.to_numpy() * cycles[:, None], flits.to_numpy()),
          "utilization x cycles = flits")

    sweep = wa.load(torus)
    fig, drawn = heatmap.series_panels(sweep)
    w = [d.window for d in drawn]
    check(len(w) == 6 and w[0] == 0 and w[-1] == len(ends) - 1 and w == sorted(set(w)),
          f"six windows spread over the run: {w}")
    top = max(raw[:, k].max() / cycles[k] for k in w)
    for d in drawn:
        check(np.allclose(d.values, raw[:, d.window] / cycles[d.window]),
              f"panel of window {d.window}: its flits per cycle")
        check(np.isclose(d.norm.vmax, top) and d.norm.vmin == 0, "one colour scale from 0")
    titles = [d.ax.get_title() for d in drawn]
    check("(warm-up)" in titles[0] and "(drain)" in titles[-1], f"phases: {titles}")
    fig, drawn = heatmap.series_panels(sweep, windows=[2, 5], quantity="flits")
    check([d.window for d in drawn] == [2, 5] and
          all(np.array_equal(d.values, raw[:, d.window]) for d in drawn), "chosen windows")
    fig, drawn = heatmap.series_panels(sweep, windows=[2, 5], quantity="blocked")
    check(all(np.array_equal(d.values, raw_blocked[:, d.window]) for d in drawn),
          "the blocked panels: each window's blocked cycles")

    # heatmap.py --quantity over-time: the panels of the windows asked for; bad windows are
    # one line, exit 2.
    script = os.path.join(a.analysis, "heatmap.py")
    png = os.path.join(a.out, "over_time.png")
    r = subprocess.run([sys.executable, script, torus, "-o", png, "--quantity", "over-time",
                        "--windows", "0,6,12"], capture_output=True, text=True)
    check(r.returncode == 0 and os.path.getsize(png) > 0 and "windows 0, 6, 12" in r.stdout,
          f"heatmap.py --quantity over-time: {r.returncode} {r.stdout} {r.stderr}")
    for bad, words in ((["over-time", "--windows", "999"], "999"),
                       (["over-time", "--windows", "x"], "--windows"),
                       (["utilization", "--windows", "1"], "--windows")):
        r = subprocess.run([sys.executable, script, torus, "-o", png, "--quantity", *bad],
                           capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and words in lines[0],
              f"heatmap.py --quantity {' '.join(bad)}: {r.returncode} {r.stderr!r}")

    # Without the series.
    plain = os.path.join(a.out, "totals.h5")
    run("-t", "torus:4x4", "-r", "duato", "--load", "0.1", "--warmup", "100", "--measure", "300",
        "--congestion", "totals", "-o", plain)
    try:
        wa.channel_series_frame(plain)
        check(False, "a run without the series was read")
    except KeyError as e:
        check("--congestion series" in str(e), str(e))
    try:
        heatmap.series_panels(wa.load(plain))
        check(False, "a run without the series was drawn")
    except wa.ResultFileError as e:
        check("--congestion series" in str(e) and "\n" not in str(e), str(e))
    r = subprocess.run([sys.executable, script, plain, "-o", png, "--quantity", "over-time"],
                       capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "--congestion series" in lines[0],
          f"heatmap.py over-time without the series: {r.returncode} {r.stderr!r}")
    if FAILURES:
        sys.exit(1)
    print("analysis channel series: ok")


if __name__ == "__main__":
    main()
