#!/usr/bin/python3
"""The analysis reads where packets wait (wormnet_analysis.congestion_frame, issue 39 item 2):
a duato run on torus:4x4 with --congestion totals gives one row per (channel, VC), whose
flits sum per channel to the file's channel_flits and, split by the escape column, to its
escape_flits and adaptive_flits; each row's ends are the channel's in /topology; a run
without counting is refused with a KeyError naming the option.

usage: analysis_congestion_test.py --wormnet BIN --analysis DIR --out DIR
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    sys.path.insert(0, a.analysis)
    import wormnet_analysis as wa

    os.makedirs(a.out, exist_ok=True)
    on, off = os.path.join(a.out, "congestion.h5"), os.path.join(a.out, "plain.h5")
    base = ["run", "-t", "torus:4x4", "-r", "duato", "--load", "0.4", "--length", "5",
            "--warmup", "200", "--measure", "1000", "-q"]
    subprocess.run([a.wormnet, *base, "--congestion", "totals", "-o", on], check=True)
    subprocess.run([a.wormnet, *base, "-o", off], check=True)
    frame = wa.congestion_frame(on)
    with h5py.File(on, "r") as f:
        g = f["points/000/congestion"]
        channels, vcs = g["vc_wait"].shape
        assert len(frame) == channels * vcs, len(frame)
        per_channel = frame.groupby("channel").flits.sum().to_numpy()
        assert np.array_equal(per_channel, f["points/000/channel_flits"][()])
        escape = frame[frame.escape].groupby("channel").flits.sum().reindex(
            range(channels), fill_value=0).to_numpy()
        adaptive = frame[~frame.escape].groupby("channel").flits.sum().reindex(
            range(channels), fill_value=0).to_numpy()
        assert np.array_equal(escape, g["escape_flits"][()])
        assert np.array_equal(adaptive, g["adaptive_flits"][()])
        assert escape.sum() > 0 and adaptive.sum() > 0
        assert np.array_equal(frame.source.to_numpy()[::vcs], f["topology/channel_source"][()])
        assert np.array_equal(frame.dest.to_numpy()[::vcs], f["topology/channel_dest"][()])
        for column in ("vc_wait", "credit_wait", "switch_wait", "occupancy"):
            assert frame[column].sum() > 0, column
    try:
        wa.congestion_frame(off)
        raise AssertionError("a run without --congestion totals was read")
    except KeyError as e:
        assert "--congestion totals" in str(e), e
    print("analysis congestion: ok")


if __name__ == "__main__":
    main()
