#!/usr/bin/python3
"""The analysis scripts on a real sweep: runs a tiny `wormnet sweep` on H4, then checks

- analysis/wormnet_h5.py returns what the file holds, read here independently with h5py, and
  numbers that follow from the file's own raw data: the accepted traffic from the per-window
  ejected flits, the mean latency from the histogram's sum and count, the microseconds from
  the flit rate, the normalizations from the two bounds, the saturation throughput as the
  largest accepted traffic, the knee between the two points whose latencies straddle 3x the
  lowest load's;
- physical facts of the sweep: latency grows with load, the saturated point accepts less
  than offered and less than the ideal rate, unsaturated points accept about what is offered;
- it refuses an unknown schema_version and an unfinished status (unless allow_partial);
- analysis/fig5.py and analysis/plot_sweep.py write PNG files, and fail with exit code 2 on a
  file that is not a finished wormnet result.

usage: analysis_test.py --wormnet BIN --analysis DIR --out DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

WARMUP = 2000
MEASURE = 8000
WINDOW = 1000  # divides WARMUP and MEASURE: windows align with the measurement window


def check(cond, what):
    if not cond:
        print(f"FAIL: {what}", file=sys.stderr)
        sys.exit(1)


def close(a, b, what, rel=1e-12):
    check(abs(a - b) <= rel * max(1.0, abs(a), abs(b)), f"{what}: {a!r} != {b!r}")


def run(cmd, expect=0):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    check(r.returncode == expect, f"{' '.join(cmd)} exited {r.returncode}, expected {expect}:\n"
          f"{r.stdout}\n{r.stderr}")
    return r


def is_png(path):
    with open(path, "rb") as f:
        head = f.read(8)
    return head == PNG_MAGIC and os.path.getsize(path) > 5000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sys.path.insert(0, args.analysis)
    import wormnet_h5

    h5 = os.path.join(args.out, "h4_sweep.h5")
    if os.path.exists(h5):
        os.remove(h5)
    run([args.wormnet, "sweep", "-q", "-t", "honeycomb:4", "-r", "double-xy", "--buffer", "2",
         "--routing-delay", "0", "--vc-alloc-delay", "0", "--switch-alloc-delay", "0",
         "--switch-delay", "0", "--length-min", "10", "--length-max", "100", "--relative",
         "--loads", "0.05,0.15,0.9", "--warmup", str(WARMUP), "--measure", str(MEASURE),
         "--stats-window", str(WINDOW), "--drain-limit", "4000", "-o", h5])

    sweep = wormnet_h5.load(h5)
    with h5py.File(h5, "r") as f:
        check(f.attrs["schema_version"] == 2, "schema_version")
        check(sweep.status == f.attrs["status"] == "complete", "status")
        nodes = int(f["topology"].attrs["nodes"])
        check(nodes == 96, "H4 has 6 * 4^2 = 96 nodes")
        rate = float(f.attrs["flit_rate"])
        close(sweep.flit_rate, rate, "flit rate")
        sat_rate = float(f["routing"].attrs["saturation_rate"])
        bisection = float(f["topology"].attrs["bisection_bound"])
        check(sweep.routing["name"] == "double-xy", "routing name")
        check(sweep.config["length-max"] == 100 and sweep.config["buffer"] == 2, "config")

        s = f["summary"]
        rows = s["point"].shape[0]
        check(rows == 3, f"three points run (0.9 of (N-1)/pi saturates last), got {rows}")
        check(len(sweep.points) == rows, "one Point per summary row")
        for c in s.attrs["columns"]:
            check(np.array_equal(sweep.summary[c], s[c][()]), f"summary column {c}")
            check(sweep.summary_units[c] == s[c].attrs["unit"], f"unit of {c}")
        check(s["saturated"][-1] == 1, "0.9 of (N-1)/pi with long messages saturates")
        check(s["saturated"][0] == 0, "0.05 of (N-1)/pi does not saturate")
        # Physical facts of any sweep, from the raw columns: loads in the order given, mean
        # latency growing with load, the network cannot carry more than 0.9 of its ideal
        # rate (so the saturated point accepts less than offered), and below saturation it
        # carries what is offered (within the Poisson noise of ~130 messages: 30 %).
        offered, acc, lat = (s[c][()] for c in ("offered_load", "accepted", "latency_mean"))
        check(np.all(np.diff(offered) > 0), "offered load increases")
        check(np.all(np.diff(lat) > 0), f"mean latency increases with load: {lat}")
        check(acc[-1] < 0.95 * offered[-1], "the saturated point accepts less than offered")
        check(acc[-1] < sat_rate, "accepted traffic below the ideal saturation rate")
        for k in (0, 1):
            check(abs(acc[k] - offered[k]) <= 0.3 * offered[k], f"point {k}: accepted ~ offered")

        for k, p in enumerate(sweep.points):
            g = f[f"points/{k:03d}"]
            check(p.index == k, "point index")
            for name, value in g.attrs.items():
                check(p.attrs[name] == value, f"point {k} attribute {name}")
            close(p.attrs["offered_load"], s["offered_load"][k], "offered load in both places")
            close(p.attrs["offered_load"], [0.05, 0.15, 0.9][k] * sat_rate, "relative load")
            # Accepted traffic from the raw per-window ejected flits of the measurement window.
            ts = p.timeseries
            check(np.array_equal(ts["ejected_flits"], g["timeseries/ejected_flits"][()]),
                  "time series column")
            in_window = (ts["cycle_end"] > WARMUP) & (ts["cycle_end"] <= WARMUP + MEASURE)
            check(np.all(ts["cycles"][in_window] == WINDOW), "whole windows")
            accepted = ts["ejected_flits"][in_window].sum() / (nodes * MEASURE)
            close(p.attrs["accepted"], accepted, f"point {k} accepted from the time series")
            close(sweep.summary["accepted"][k], accepted, f"summary {k} accepted")
            close(sweep.summary["accepted_vs_saturation"][k], accepted / sat_rate,
                  "normalized by (N-1)/pi", 1e-9)
            close(sweep.summary["accepted_vs_bisection"][k], accepted / bisection,
                  "normalized by the bisection bound", 1e-9)
            # Mean latency from the histogram's exact sum and count; microseconds.
            total = g["latency_histogram/total"]
            mean = total.attrs["sum"] / total.attrs["count"]
            close(sweep.summary["latency_mean"][k], mean, f"point {k} mean latency")
            close(sweep.summary["latency_mean_us"][k], mean / rate, "latency in us")
            check(int(p.histogram["total"].sum()) == int(total.attrs["count"]), "histogram")
            check(p.channel_flits.shape == (int(f["topology"].attrs["channels"]),), "channels")

        sp = wormnet_h5.saturation_point(sweep)
        close(sp["throughput"], float(np.max(s["accepted"][()])), "peak accepted")
        close(sp["peak"]["accepted"], sp["throughput"], "peak under its own name")
        # The saturation throughput: the largest accepted traffic of the unflagged points.
        flagged = (s["saturated"][()] != 0) | (s["deadlock"][()] != 0)
        close(sp["saturation_throughput"]["accepted"],
              float(np.max(s["accepted"][()][~flagged])), "saturation throughput")
        check(sp["saturation_throughput"]["accepted"] <= sp["peak"]["accepted"], "<= peak")
        close(sp["throughput_vs_bisection"], sp["throughput"] / bisection, "throughput norm", 1e-9)
        check(sp["saturated"], "the sweep saturated")
        close(sp["last_stable"]["offered"], float(s["offered_load"][1]), "last stable point")
        # The knee: 3x the lowest load's latency, reached between points 1 and 2 (point 2 is
        # saturated, its latency far above), so its accepted traffic lies between theirs.
        knee = sp["knee"]
        check(knee is not None, "the sweep has a knee")
        check(lat[1] < 3 * lat[0] < lat[2], f"3x the low-load latency between points 1, 2: {lat}")
        close(knee["latency_us"], 3 * s["latency_mean"][0] / rate, "knee latency", 1e-9)
        lo, hi = sorted((s["accepted"][1], s["accepted"][2]))
        check(lo <= knee["accepted"] <= hi, "knee between the straddling points")
        close(knee["accepted_vs_saturation"], knee["accepted"] / sat_rate, "knee norm", 1e-9)

    # Utilization per channel: not stored since schema version 2 (a fifth of a large torus's
    # file), the reader divides each channel's flits by the point's window; a version-1 file
    # has it stored, and the reader returns what is stored.
    with h5py.File(h5, "r") as f:
        for i, p in enumerate(sweep.points):
            g = f[f"points/{i:03d}"]
            check("channel_utilization" not in g, f"point {i} stores no channel_utilization")
            window = int(g.attrs["window_cycles"])
            check(window == MEASURE, f"point {i}'s window is the measurement: {window}")
            flits = g["channel_flits"][()]
            check(flits.sum() > 0, f"point {i} moved flits")
            check(np.array_equal(p.channel_utilization, flits / MEASURE),
                  f"point {i}: utilization = flits / {MEASURE}")
    old = os.path.join(args.out, "schema1.h5")
    shutil.copyfile(h5, old)
    with h5py.File(old, "r+") as f:
        f.attrs["schema_version"] = np.int64(1)
        g = f["points/000"]
        g["channel_utilization"] = np.full(g["channel_flits"].shape, 0.25)
    p0 = wormnet_h5.load(old).point(0)
    check(np.all(p0.channel_utilization == 0.25), "a version-1 file's stored utilization")

    # Refusals: an unknown layout version, an unfinished run.
    for attr, value, partial_ok in (("schema_version", np.int64(3), False),
                                    ("status", "running", True)):
        bad = os.path.join(args.out, f"bad_{attr}.h5")
        shutil.copyfile(h5, bad)
        with h5py.File(bad, "r+") as f:
            f.attrs[attr] = value
        try:
            wormnet_h5.load(bad)
            check(False, f"{attr} = {value!r} accepted")
        except wormnet_h5.ResultFileError as e:
            check(attr in str(e), f"error names {attr}: {e}")
        if partial_ok:
            check(len(wormnet_h5.load(bad, allow_partial=True).points) == 3, "partial read")
        run([sys.executable, os.path.join(args.analysis, "plot_sweep.py"), bad,
             "-o", os.path.join(args.out, "bad.png")], expect=2)

    # The scripts draw.
    png = os.path.join(args.out, "sweep.png")
    run([sys.executable, os.path.join(args.analysis, "plot_sweep.py"), h5, "-o", png,
         "--x", "bisection"])
    check(is_png(png), "plot_sweep.py wrote a PNG")
    figdir = os.path.join(args.out, "fig5")
    shutil.rmtree(figdir, ignore_errors=True)
    r = run([sys.executable, os.path.join(args.analysis, "fig5.py"), h5, "--out-dir", figdir,
             "--table"])
    for norm in ("saturation", "bisection"):
        check(is_png(os.path.join(figdir, f"fig5_vs_{norm}.png")), f"fig5.py wrote {norm} PNG")
    check("Double XY 100 flits" in r.stdout, "the table names the curve")
    check(f"{sp['throughput']:.4f}" in r.stdout, "the table gives the throughput")
    print("analysis scripts: OK")


if __name__ == "__main__":
    main()
