"""The honeycomb-torus and Duato study (runs/honeycomb_tori/study.sh): tables and figures.

Reads, from a study directory (one buffer size),
  load_<net>_<routing>.json          wormnet info --load --json of each network and routing
  <net>_<routing>_<pattern>.h5       wormnet sweep files (uniform, transpose, tornado)
and prints Markdown tables (the networks; load analysis and saturation of every routing;
Duato's routing against its escape routing), for DIR and, with --deep, for a second
directory run with deeper buffers; then draws
  honeycomb_tori_load.png   ideal (load analysis) and simulated saturation of HT_8, H_8 and
                            the 20x20 torus under their deterministic routings
  duato_gain.png            Duato's saturation throughput over its escape routing's

The saturation throughput of a sweep is the largest accepted traffic (flits/node/cycle) of
its points that did not saturate, the refining sweep <name>.fine.h5 included: the most the
network carries with every labelled packet delivered and accepted within 5 % of offered. (The
largest accepted traffic of any point would overstate it for permutations, whose flows away
from the bottleneck keep growing past saturation.) A sweep file that does not exist shows as
"-".

usage: honeycomb_tori.py DIR [--deep DIR2] [--figures OUTDIR]
"""
import json
import os
import sys

from wormnet_analysis import results as wormnet_h5
from wormnet_analysis._h5 import FileError
from wormnet_analysis.cli import Parser, check_directory, guarded

#: (file name, plot label, Duato's escape routing)
NETS = [("ht8", "HT$_8$ (honeycomb-torus:8)", "double-xy-dateline"),
        ("h8", "H$_8$ (honeycomb:8)", "double-xy"),
        ("t20", "20x20 torus", "dor-dateline-dest")]
PLAIN = {"ht8": "HT_8", "h8": "H_8", "t20": "torus 20x20"}
#: The escape routing run with as many VCs as Duato's routing (file name).
SAME_VCS = {"ht8": "double-xy-dateline-vcs7", "h8": "double-xy-vcs3",
            "t20": "dor-dateline-dest-vcs3"}
EXTRA = {"t20": ["dor-dateline"]}  # other deterministic routings listed for a network
PATTERNS = ["uniform", "transpose", "tornado"]


def fmt(x, spec=".3f"):
    return "-" if x is None or x != x else format(x, spec)


class Study:
    """One study directory: load analyses, saturation throughputs and Duato's gains."""

    def __init__(self, directory):
        self.directory = directory
        self.sat = {}
        self.vcs = {}  # (net, routing) -> VCs simulated
        self.deadlocks = []
        self.buffer = None
        for net, _, escape in NETS:
            for routing in self.routings(net, escape):
                for pattern in PATTERNS:
                    self.sat[(net, routing, pattern)] = self._saturation(net, routing, pattern)

    @staticmethod
    def routings(net, escape):
        return [escape, SAME_VCS[net]] + EXTRA.get(net, []) + ["duato", "duato-least-occupied"]

    def _saturation(self, net, routing, pattern):
        path = os.path.join(self.directory, f"{net}_{routing}_{pattern}.h5")
        if not os.path.exists(path):
            return None
        best = None
        for p in (path, path[:-3] + ".fine.h5"):  # the sweep and its refining sweep
            if not os.path.exists(p):
                continue
            s = wormnet_h5.load(p)
            self.buffer = s.config.get("buffer", self.buffer)
            self.vcs[(net, routing)] = s.routing.get("vcs")
            if s.status == "deadlock":
                self.deadlocks.append(f"{net} {routing} {pattern}")
            for acc, sat in zip(s.summary.get("accepted", []), s.summary.get("saturated", [])):
                if not sat and (best is None or acc > best):
                    best = float(acc)
        return best

    def load(self, net, routing):
        path = os.path.join(self.directory, f"load_{net}_{routing}.json")
        if not os.path.isfile(path):
            raise FileError(f"{path}: no such file (wormnet info --load --json of the study; "
                            "runs/honeycomb_tori/study.sh writes it)")
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except ValueError as e:
            raise FileError(f"{path}: not JSON ({e})") from e

    def gain(self, net, routing, pattern, base):
        s = self.sat.get((net, routing, pattern))
        b = self.sat.get((net, base, pattern))
        return s / b if s is not None and b else float("nan")

    def print_tables(self):
        print(f"## {self.directory}: VC buffers of {self.buffer} flits\n")
        print("| network | routing | VCs | pi | sigma(4) | (N-1)/pi | uniform | transpose | "
              "tornado |")
        print("|---|---|---|---|---|---|---|---|---|")
        for net, _, escape in NETS:
            for routing in self.routings(net, escape):
                j = self.load(net, routing)
                vcs = self.vcs.get((net, routing), "-")
                cells = [fmt(self.sat.get((net, routing, p))) for p in PATTERNS]
                print(f"| {PLAIN[net]} | {routing} | {vcs} | {j['pi']:.1f} | {j['sigma4']:.2f} | "
                      f"{j['saturation_rate']:.4f} | {' | '.join(cells)} |")
        print("\nDuato's routing over its escape routing with its own VCs (and, in brackets, "
              "with as many VCs as Duato's):\n")
        print("| network | pattern | escape routing | escape | same VCs | duato | gain | "
              "duato, least-occupied | gain |")
        print("|---|---|---|---|---|---|---|---|---|")
        for net, _, escape in NETS:
            for p in PATTERNS:
                cells = [fmt(self.sat.get((net, escape, p))),
                         fmt(self.sat.get((net, SAME_VCS[net], p)))]
                for routing in ("duato", "duato-least-occupied"):
                    cells += [fmt(self.sat.get((net, routing, p))),
                              f"{fmt(self.gain(net, routing, p, escape), '.2f')} "
                              f"({fmt(self.gain(net, routing, p, SAME_VCS[net]), '.2f')})"]
                print(f"| {PLAIN[net]} | {p} | {escape} | {' | '.join(cells)} |")
        if self.deadlocks:
            print("\nDEADLOCK in: " + ", ".join(self.deadlocks))
        print()


@guarded("honeycomb_tori")
def main():
    p = Parser()
    p.add_argument("directory")
    p.add_argument("--deep", default=None, help="a second study, run with deeper buffers")
    p.add_argument("--figures", default=None)
    args = p.parse_args()
    for option, path in (("DIR", args.directory), ("--deep", args.deep),
                         ("--figures", args.figures)):
        if path is not None:
            check_directory(path, option)
    studies = [Study(args.directory)] + ([Study(args.deep)] if args.deep else [])
    figures = args.figures or args.directory
    base = studies[0]

    print("## Networks\n")
    print("| network | nodes | links | degree | diameter | mean distance | bisection bound |")
    print("|---|---|---|---|---|---|---|")
    for net, _, escape in NETS:
        j = base.load(net, escape)
        degrees = ", ".join(f"{k}: {v}" for k, v in sorted(j["degree_histogram"].items()))
        print(f"| {PLAIN[net]} | {j['nodes']} | {j['links']} | {degrees} | {j['diameter']} | "
              f"{j['average_distance']:.3f} | {j['bisection_bound']:.4f} |")
    print()
    for s in studies:
        s.print_tables()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    # Figure 1: ideal uniform saturation, then the simulated one per buffer size.
    x = np.arange(len(NETS))
    ticks = [f"{lbl}\n{e}" for _, lbl, e in NETS]
    fig, axes = plt.subplots(1, 1 + len(studies), figsize=(4.6 * (1 + len(studies)), 3.8),
                             dpi=90)
    ideal = [base.load(n, e)["saturation_rate"] for n, _, e in NETS]
    bis = [base.load(n, e)["bisection_bound"] for n, _, e in NETS]
    axes[0].bar(x - 0.2, ideal, 0.4, label="(N-1)/$\\pi$ of the routing")
    axes[0].bar(x + 0.2, bis, 0.4, label="bisection bound\n(straight cut)")
    axes[0].set_xticks(x, ticks, fontsize=7)
    axes[0].set_ylabel("flits/node/cycle")
    axes[0].set_title("(a) uniform traffic: ideal saturation", fontsize=9)
    axes[0].legend(fontsize=7)
    for k, s in enumerate(studies):
        ax = axes[1 + k]
        for i, pattern in enumerate(PATTERNS):
            vals = [s.sat.get((n, e, pattern)) or 0.0 for n, _, e in NETS]
            ax.bar(x + (i - 1) * 0.27, vals, 0.27, label=pattern)
        ax.set_xticks(x, ticks, fontsize=7)
        ax.set_ylabel("saturation throughput, flits/node/cycle", fontsize=8)
        ax.set_title(f"({'bc'[k]}) simulated, {s.buffer}-flit VC buffers", fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    out1 = os.path.join(figures, "honeycomb_tori_load.png")
    fig.savefig(out1)
    plt.close(fig)

    # Figure 2: Duato's gain (priority selection) over the escape routing, with its own VCs
    # and with as many VCs as Duato's routing, per buffer size.
    fig, ax = plt.subplots(figsize=(10, 3.8), dpi=90)
    labels = [f"{PLAIN[n]}\n{pat}" for n, _, _ in NETS for pat in PATTERNS]
    xs = np.arange(len(labels))
    series = []
    for s in studies:
        series.append((s, "own", f"B={s.buffer}: / escape routing"))
        series.append((s, "same", f"B={s.buffer}: / escape routing with as many VCs"))
    width = 0.8 / len(series)
    for k, (s, kind, label) in enumerate(series):
        vals = [s.gain(n, "duato", pat, e if kind == "own" else SAME_VCS[n])
                for n, _, e in NETS for pat in PATTERNS]
        ax.bar(xs + (k - (len(series) - 1) / 2) * width, vals, width, label=label)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(xs, labels, fontsize=7)
    ax.set_ylabel("saturation throughput ratio")
    ax.set_title("Duato's routing (priority selection) over its escape routing "
                 "(double-xy-dateline, double-xy, dor-dateline-dest)", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    out2 = os.path.join(figures, "duato_gain.png")
    fig.savefig(out2)
    plt.close(fig)
    print(f"figures: {out1} {out2}")
    return 1 if any(s.deadlocks for s in studies) else 0


if __name__ == "__main__":
    sys.exit(main())
