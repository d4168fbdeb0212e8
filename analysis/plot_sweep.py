#!/usr/bin/python3
"""Mean latency against accepted traffic for one or more `wormnet sweep` (or `run`) files.

    /usr/bin/python3 analysis/plot_sweep.py sweep.h5 [more.h5 ...] -o sweep.png
        [--x absolute|saturation|bisection] [--cycles] [--ymax Y] [--title TEXT]

--x picks the x axis: accepted traffic in flits/node/cycle (default), or as a percentage of
the routing's ideal saturation rate (N-1)/pi, or of the topology's uniform bisection bound.
Latency is in microseconds (cycles / the file's flit rate) unless --cycles. Saturated points
are drawn hollow. Reads only the HDF5 files; prints where each sweep saturates.
"""

from __future__ import annotations

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wormnet_h5  # noqa: E402


def x_values(sweep: wormnet_h5.Sweep, norm: str) -> np.ndarray:
    column, _ = wormnet_h5.NORMALIZATIONS[norm]
    x = np.asarray(sweep.summary[column], dtype=float)
    return x if norm == "absolute" else 100.0 * x


def plot(sweeps, out: str, norm: str, cycles: bool, ymax: float | None, title: str) -> None:
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    for k, s in enumerate(sweeps):
        x = x_values(s, norm)
        y = np.asarray(s.summary["latency_mean"], dtype=float)
        if not cycles:
            y = y / s.flit_rate
        sat = np.asarray(s.summary["saturated"]) != 0
        color = f"C{k % 10}"
        ax.plot(x, y, "-", color=color, label=s.label)
        ax.plot(x[~sat], y[~sat], "o", color=color, ms=4)
        ax.plot(x[sat], y[sat], "o", color=color, ms=5, mfc="none")
    ax.set_xlabel(wormnet_h5.NORMALIZATIONS[norm][1])
    ax.set_ylabel("mean latency (cycles)" if cycles else "mean latency (\u00b5s)")
    if ymax is not None:
        ax.set_ylim(0, ymax)
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlim(left=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title(title or "latency vs accepted traffic (hollow: saturated)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="wormnet result files (.h5)")
    ap.add_argument("-o", "--output", required=True, help="PNG file to write")
    ap.add_argument("--x", choices=sorted(wormnet_h5.NORMALIZATIONS), default="absolute")
    ap.add_argument("--cycles", action="store_true", help="latency in cycles, not us")
    ap.add_argument("--ymax", type=float, default=None, help="top of the latency axis")
    ap.add_argument("--title", default="")
    args = ap.parse_args(argv)
    try:
        sweeps = [wormnet_h5.load(f) for f in args.files]
    except wormnet_h5.ResultFileError as e:
        print(f"plot_sweep: {e}", file=sys.stderr)
        return 2
    for s in sweeps:
        p = wormnet_h5.saturation_point(s)
        state = "saturates at" if p["saturated"] else "did not saturate; reached"
        print(
            f"{s.label}: {state} {p['throughput']:.5f} flits/node/cycle "
            f"({100 * p['throughput_vs_saturation']:.1f}% of (N-1)/pi, "
            f"{100 * p['throughput_vs_bisection']:.1f}% of the bisection bound)"
        )
    plot(sweeps, args.output, args.x, args.cycles, args.ymax, args.title)
    print(f"plot       {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
