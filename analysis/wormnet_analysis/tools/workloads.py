"""The workload study (runs/workloads/study.sh): completion time of the motifs on three networks.

Reads DIR/<net>_<routing>_<motif>.h5 (group /workload of `wormnet run --workload`) for the
networks ht (H_t, honeycomb:T), mesh and torus, each under its deterministic routing, that
routing with Duato's VC count (<routing>-vcs<V>) and duato; prints a Markdown table of the
completion times (cycles, and the ratio to the deterministic routing with the same VCs) and
draws one bar panel per motif. A run that is missing shows as "-"; one that did not finish
within its drain limit as "incomplete" (and no bar).

usage: workloads.py DIR [-o FIGURE.png]
"""
import glob
import os
import re
import sys

from wormnet_analysis._h5 import open_h5
from wormnet_analysis.cli import Parser, check_output, guarded

MOTIFS = ["halo2d", "sweep2d", "allreduce-ring", "allreduce-rd", "alltoall"]
NETS = ["ht", "mesh", "torus"]
# Variant order within a network: deterministic, deterministic with Duato's VCs, duato.
KINDS = ["deterministic", "deterministic, as many VCs as duato", "duato (adaptive)"]
COLOURS = ["#4c72b0", "#8fb0d8", "#dd8452"]
NAME = re.compile(r"^(ht|mesh|torus)_(.+)_(" + "|".join(map(re.escape, MOTIFS)) + r")\.h5$")


def kind_of(routing):
    if routing == "duato":
        return 2
    return 1 if re.search(r"-vcs\d+$", routing) else 0


def read(directory):
    """{(net, kind, motif): dict} of every run file in directory, plus the networks' labels."""
    runs, topologies = {}, {}
    for path in sorted(glob.glob(os.path.join(directory, "*.h5"))):
        m = NAME.match(os.path.basename(path))
        if not m:
            continue
        net, routing, motif = m.groups()
        with open_h5(path) as f:
            w = f["workload"].attrs
            spec = f["topology"].attrs["spec"]
            topologies[net] = spec.decode() if isinstance(spec, bytes) else str(spec)
            runs[(net, kind_of(routing), motif)] = {
                "routing": routing,
                "complete": int(w["complete"]),
                "cycles": int(w["completion_cycles"]),
                "iterations": int(w["iterations"]),
                "flits": int(w["message_flits"]),
                "queueing": int(w["path_queueing_cycles"]),
                "network": int(w["path_network_cycles"]),
                # Files written before computation and processes per node have neither.
                "compute": int(w.get("path_compute_cycles", 0)),
                "local": int(w.get("path_local_cycles", 0)),
            }
    return runs, topologies


def cell(run):
    if run is None:
        return "-"
    return str(run["cycles"]) if run["complete"] else "incomplete"


def table(runs, topologies):
    nets = [n for n in NETS if any(k[0] == n for k in runs)]
    routings = {}
    for (net, kind, _), r in runs.items():
        routings[(net, kind)] = r["routing"]
    head = ["motif"] + [f"{topologies.get(n, n)} {routings.get((n, k), KINDS[k])}"
                        for n in nets for k in range(3)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for motif in MOTIFS:
        row = [motif] + [cell(runs.get((n, k, motif))) for n in nets for k in range(3)]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Ratios of completion times (below 1: the first is faster)", "",
              "| motif | " + " | ".join(f"{topologies.get(n, n)}: same VCs / det., duato / same VCs"
                                      for n in nets) + " |",
              "|---|" + "---|" * len(nets)]
    for motif in MOTIFS:
        lines.append(f"| {motif} | " + " | ".join(
            f"{ratio(runs, n, 1, 0, motif)}, {ratio(runs, n, 2, 1, motif)}" for n in nets) + " |")
    return "\n".join(lines)


def ratio(runs, net, kind_a, kind_b, motif):
    """Completion of variant kind_a over kind_b on net ("-" if either is missing or stuck)."""
    a, b = runs.get((net, kind_a, motif)), runs.get((net, kind_b, motif))
    if not a or not b or not (a["complete"] and b["complete"]):
        return "-"
    return f"{a['cycles'] / b['cycles']:.2f}"


def label(topology):
    """honeycomb:4 -> H$_4$, mesh:12x8 -> mesh (newline) 12x8 (the figure's tick labels)."""
    kind, _, size = topology.partition(":")
    return f"H$_{{{size}}}$" if kind == "honeycomb" else f"{kind}\n{size}"


def figure(runs, topologies, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nets = [(n, label(topologies.get(n, n))) for n in NETS if any(k[0] == n for k in runs)]
    fig, axes = plt.subplots(1, len(MOTIFS), figsize=(12, 3.1))
    width = 0.27
    any_run = next(iter(runs.values()))
    for ax, motif in zip(axes, MOTIFS):
        for k in range(3):
            xs, ys = [], []
            for i, (n, _) in enumerate(nets):
                r = runs.get((n, k, motif))
                if r and r["complete"]:
                    xs.append(i + (k - 1) * width)
                    ys.append(r["cycles"])
            ax.bar(xs, ys, width, color=COLOURS[k], label=KINDS[k])
        ax.set_title(motif, fontsize=10)
        ax.set_xticks(range(len(nets)))
        ax.set_xticklabels([label for _, label in nets], fontsize=9)
        ax.tick_params(axis="y", labelsize=8)
        ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 4))
        ax.yaxis.get_offset_text().set_fontsize(8)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("completion time (cycles)", fontsize=9)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, fontsize=8, loc="upper right", ncol=3, frameon=False)
    shown = ", ".join(topologies.get(n, n) for n, _ in nets)
    its = any_run["iterations"]
    fig.suptitle(f"{shown}: {its} iteration{'s' if its != 1 else ''} of {any_run['flits']}-flit "
                 "messages, topology mapping", fontsize=10, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=72)
    plt.close(fig)


@guarded("workloads.py")
def main():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("-o", "--output", help="the PNG to draw (default: no figure)")
    args = parser.parse_args()
    if not os.path.isdir(args.directory):
        print(f"workloads.py: DIR '{args.directory}': not a directory", file=sys.stderr)
        return 2
    if args.output is not None:
        check_output(args.output, "-o")
    runs, topologies = read(args.directory)
    if not runs:
        print(f"workloads.py: DIR '{args.directory}': no <net>_<routing>_<motif>.h5 files",
              file=sys.stderr)
        return 2
    print(table(runs, topologies))
    if args.output:
        figure(runs, topologies, args.output)
        print(f"figure {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
