"""Mean latency against accepted traffic for one or more `wormnet sweep` (or `run`) files.

    /usr/bin/python3 analysis/plot_sweep.py sweep.h5 [more.h5 ...] -o sweep.png
        [--x absolute|saturation|bisection|pattern] [--cycles] [--ymax Y] [--title TEXT]

--x picks the x axis: accepted traffic in flits/node/cycle (default), or as a percentage of
the routing's ideal saturation rate (N-1)/pi, of the topology's uniform bisection bound, or of
the simulated pattern's own ideal (pattern: /routing/pattern, else (N-1)/pi).
Latency is in microseconds (cycles / the file's flit rate) unless --cycles. Saturated points
are drawn hollow. Reads only the HDF5 files; prints where each sweep saturates: its saturation
throughput (the largest accepted traffic of a point not flagged saturated) and, when a flagged
point accepted more, its peak accepted traffic (docs/simulator.md, "Measurement").
"""

from __future__ import annotations

import sys

import wormnet_analysis as wa
from wormnet_analysis import plots  # noqa: E402  (matplotlib, Agg backend)
from wormnet_analysis.cli import Parser, check_output, guarded, positive

import matplotlib.pyplot as plt  # noqa: E402


def plot(sweeps, out: str, norm: str, cycles: bool, ymax: float | None, title: str) -> None:
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    plots.latency_curves(ax, sweeps, norm, cycles, ymax, title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


@guarded("plot_sweep")
def main(argv=None) -> int:
    ap = Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="wormnet result files (.h5)")
    ap.add_argument("-o", "--output", required=True, help="PNG file to write (NAME.png)")
    ap.add_argument("--x", choices=sorted(wa.NORMALIZATIONS), default="absolute")
    ap.add_argument("--cycles", action="store_true", help="latency in cycles, not us")
    ap.add_argument("--ymax", type=positive, default=None, help="top of the latency axis")
    ap.add_argument("--title", default="")
    args = ap.parse_args(argv)
    # .png: matplotlib picks the format by the name (and appends .png to a name without one).
    check_output(args.output, "-o", args.files, suffix=".png")
    sweeps = [wa.load(f) for f in args.files]
    for s in sweeps:
        wa.require_load_sweep(s)
    for s in sweeps:
        print(f"{s.label}: {wa.describe_saturation(s)}")
    plot(sweeps, args.output, args.x, args.cycles, args.ymax, args.title)
    print(f"plot       {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
