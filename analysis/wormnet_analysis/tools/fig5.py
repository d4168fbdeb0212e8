"""Figure 5 of Zhang & Yang's honeycomb wormhole-routing paper, from wormnet sweep files.

    /usr/bin/python3 analysis/fig5.py RESULTS_DIR_OR_FILES... [--norm saturation|bisection|both]
        [--out-dir DIR] [--prefix fig5] [--ymax 40] [--table]

Panel (a): H6 (honeycomb:6) against the 16x16 mesh; panel (b): H4 (honeycomb:4), messages
of at most 200 and 100 flits. Each file is placed by what it records (topology, routing,
message lengths), so any set of sweep files can be given; files of other topologies are
skipped. Mean latency (us) against normalized accepted traffic in percent; --norm picks the
normalization (one PNG each: PREFIX_vs_saturation.png, PREFIX_vs_bisection.png):

  saturation  accepted / the routing's own ideal uniform saturation rate (N-1)/pi
              (different denominators for different routings on one topology)
  bisection   accepted / the topology's uniform-traffic bisection bound
              (one denominator per topology: routings compare directly)

The paper's own "maximum theoretical throughput" is not defined; see docs/figure5.md.
Saturated points are hollow; points above --ymax (the paper's scale, 40 us) are off the
chart. --table prints the saturation point of every curve as a Markdown table: the peak
accepted traffic (the largest accepted traffic of the sweep, a point flagged saturated
included; wormnet_analysis.saturation_point's "peak", docs/simulator.md) and the knee
(accepted traffic where mean latency reaches 3x its lowest-load value).
"""

from __future__ import annotations

import glob
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import wormnet_analysis as wa
from wormnet_analysis.cli import Parser, check_output, guarded, positive
from wormnet_analysis.plots import png_bytes

#: Legend names as in the paper's figure, and a fixed colour and marker per routing.
ROUTINGS = {
    "west-first": ("Mesh West-first", "C2", "s"),
    "double-xy": ("Double XY", "C0", "o"),
    "xy-first": ("X-Y+ first", "C3", "^"),
    "double-xy-turn": ("Double XY turn", "C1", "D"),
}

PANELS = {
    "a": "(a) H6 honeycomb (216 nodes) and 16\u00d716 mesh (256), 10..200 flits",
    "b": "(b) H4 honeycomb (96 nodes), 10..200 and 10..100 flits",
}


def panel_of(sweep: wa.Sweep) -> str | None:
    spec = sweep.topology.get("spec", "")
    if spec in ("honeycomb:6", "mesh:16x16"):
        return "a"
    if spec == "honeycomb:4":
        return "b"
    return None


#: How the VCs of a channel share its bandwidth (--vc-bandwidth), for titles and labels.
VC_BANDWIDTH = {"per-vc": "a flit/cycle per VC", "shared": "VCs share a channel"}


def vc_modes(sweeps) -> set:
    """The --vc-bandwidth values of the sweeps whose routing has more than one VC (with
    one VC the two modes are the same model)."""
    return {s.config.get("vc-bandwidth", "shared") for s in sweeps if s.routing["vcs"] > 1}


def curve_label(sweep: wa.Sweep, panel: str, buffers: set, modes: set) -> str:
    name = sweep.routing["name"]
    label = ROUTINGS.get(name, (name, None, None))[0]
    if panel == "b":
        label += f" {sweep.config.get('length-max')} flits"
    if len(buffers) > 1:
        label += f", B={sweep.config.get('buffer')}"
    if len(modes) > 1 and sweep.routing["vcs"] > 1:
        label += ", " + VC_BANDWIDTH.get(sweep.config.get("vc-bandwidth", "shared"), "?")
    return label


def collect(paths) -> tuple[dict, list]:
    """The sweeps of each panel, and the files skipped ("file (spec)": not in Figure 5)."""
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.h5"))) if os.path.isdir(p) else [p]
    panels = {"a": [], "b": []}
    skipped = []
    for f in files:
        s = wa.load(f)
        k = panel_of(s)
        if k is None:
            skipped.append(f"{f} ({s.topology.get('spec')})")
            continue
        panels[k].append(s)
    order = list(ROUTINGS)
    for k in panels:
        panels[k].sort(
            key=lambda s: (
                order.index(s.routing["name"]) if s.routing["name"] in order else 99,
                -int(s.config.get("length-max", 0)),
                int(s.config.get("buffer", 0)),
            )
        )
    return panels, skipped


def draw(panels: dict, norm: str, out: str, ymax: float) -> None:
    column, axis_text = wa.NORMALIZATIONS[norm]
    fig, axes = plt.subplots(1, 2, figsize=(12.5, 5.0))
    for ax, key in zip(axes, ("a", "b")):
        sweeps = panels[key]
        buffers = {s.config.get("buffer") for s in sweeps}
        modes = vc_modes(sweeps)
        for s in sweeps:
            _, color, marker = ROUTINGS.get(s.routing["name"], (None, None, "o"))
            dashed = key == "b" and int(s.config.get("length-max", 200)) < 200
            x = np.asarray(s.summary[column], dtype=float)
            x = x if norm == "absolute" else 100.0 * x
            y = np.asarray(s.summary["latency_mean"], dtype=float) / s.flit_rate
            sat = np.asarray(s.summary["saturated"]) != 0
            style = "--" if dashed else "-"
            if len(modes) > 1 and s.routing["vcs"] > 1 and s.config.get("vc-bandwidth") == "shared":
                style = ":" if not dashed else "-."
            ax.plot(x, y, style, color=color, lw=1.4, label=curve_label(s, key, buffers, modes))
            ax.plot(x[~sat], y[~sat], marker, color=color, ms=4, ls="none")
            ax.plot(x[sat], y[sat], marker, color=color, ms=5, mfc="none", ls="none")
        ax.set_ylim(0, ymax)
        ax.set_xlim(left=0)
        ax.set_xlabel(axis_text, fontsize=9)
        ax.set_ylabel("mean latency (\u00b5s)")
        title = PANELS[key]
        if len(buffers) == 1 and sweeps:
            title += f", B={next(iter(buffers))}"
        if len(modes) == 1:
            title += ", " + VC_BANDWIDTH.get(next(iter(modes)), "?")
        ax.set_title(title, fontsize=9.5)
        ax.grid(True, alpha=0.3)
        if sweeps:
            ax.legend(fontsize=8, loc="upper left")
    fig.suptitle(
        "wormnet: Figure 5 of Zhang & Yang (uniform traffic, Poisson, 20 flits/\u00b5s; "
        f"hollow = saturated; above {ymax:g} \u00b5s off the chart)",
        fontsize=10,
    )
    fig.tight_layout()
    save_small_png(fig, out)
    plt.close(fig)


def save_small_png(fig, out: str) -> None:
    """Saves a PNG with a 128-colour palette (a third of the RGBA size: the figures are
    committed under docs/img)."""
    with open(out, "wb") as f:
        f.write(png_bytes(fig, dpi=100, colors=128, tight=False))


def table(panels: dict) -> str:
    rows = [
        "| panel | curve | peak accepted (flits/node/cycle) | % of (N-1)/pi | "
        f"% of bisection bound | knee ({wa.KNEE_FACTOR:g} x low-load latency): "
        "accepted, % of (N-1)/pi, % of bisection |",
        "|---|---|---|---|---|---|",
    ]
    for key in ("a", "b"):
        buffers = {s.config.get("buffer") for s in panels[key]}
        modes = vc_modes(panels[key])
        for s in panels[key]:
            p = wa.saturation_point(s)
            where = f"{s.topology['spec']}"
            thr = f"{p['throughput']:.4f}" + ("" if p["saturated"] else " (not saturated)")
            kn = p["knee"]
            knee = (
                f"{kn['accepted']:.4f}, {100 * kn['accepted_vs_saturation']:.1f}, "
                f"{100 * kn['accepted_vs_bisection']:.1f} (at {kn['latency_us']:.1f} \u00b5s)"
                if kn
                else "-"
            )
            rows.append(
                f"| {key} ({where}) | {curve_label(s, key, buffers, modes)} | {thr} | "
                f"{100 * p['throughput_vs_saturation']:.1f} | "
                f"{100 * p['throughput_vs_bisection']:.1f} | {knee} |"
            )
    return "\n".join(rows)


@guarded("fig5")
def main(argv=None) -> int:
    ap = Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", help="results directories and/or .h5 files")
    ap.add_argument("--norm", choices=["saturation", "bisection", "absolute", "both"], default="both")
    ap.add_argument("--out-dir", default=".", help="where the PNGs go")
    ap.add_argument("--prefix", default="fig5", help="PNG name prefix")
    ap.add_argument("--ymax", type=positive, default=40.0, help="top of the latency axis (us)")
    ap.add_argument("--table", action="store_true", help="print the saturation points")
    args = ap.parse_args(argv)
    if os.path.exists(args.out_dir) and not os.path.isdir(args.out_dir):
        raise wa.FileError(f"--out-dir '{args.out_dir}': not a directory")
    panels, skipped = collect(args.inputs)
    if not panels["a"] and not panels["b"]:
        raise wa.FileError("no Figure 5 sweep (honeycomb:6, mesh:16x16, honeycomb:4) in "
                           + ", ".join(args.inputs)
                           + (f": skipped {', '.join(skipped)}" if skipped else ""))
    for f in skipped:
        print(f"fig5: skipping {f}: not in Figure 5", file=sys.stderr)
    norms = ["saturation", "bisection"] if args.norm == "both" else [args.norm]
    os.makedirs(args.out_dir, exist_ok=True)
    outs = [os.path.join(args.out_dir, f"{args.prefix}_vs_{norm}.png") for norm in norms]
    for out in outs:
        check_output(out, "--out-dir/--prefix", args.inputs)
    for norm, out in zip(norms, outs):
        draw(panels, norm, out, args.ymax)
        print(f"figure     {out}")
    if args.table:
        print(table(panels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
