"""Table-driven simulation (the Angara paper's Figure 6) from runs/tables_sim.sh's files.

    /usr/bin/python3 analysis/tables_sim.py OUTDIR [--figure F.png] [--report R.md]

OUTDIR holds sweep_<shape>_<algorithm>_<pattern>.h5 (wormnet sweep with --routing table) and
table_<shape>_<algorithm>.h5 (wormnet tables). For every torus and pattern it reports, per
table algorithm, the peak accepted traffic (the highest accepted load of the sweep,
flits/node/cycle), the first offered load the simulator marked saturated, the mean latency
at the lowest load point and at the highest load that BFS still carried, and the table's pi;
then each algorithm against BFS. The figure draws latency against offered load up to the
first saturated point, one panel per torus and pattern. Reads only the HDF5 files written by wormnet.
"""
import glob
import os
import re
import sys

import numpy as np

import wormnet_analysis as wa
from wormnet_analysis.cli import Parser, check_directory, check_output, guarded

ALGORITHMS = ("bfs", "genetic", "sssp")
PATTERNS = ("transpose", "neighbor", "tornado", "all-to-all")
COLORS = {"bfs": "tab:blue", "genetic": "tab:orange", "sssp": "tab:green"}


def read_sweep(path):
    """The summary table (column -> array) of a table-driven sweep file."""
    s = wa.load(path, allow_partial=True)
    if s.command != "sweep":
        raise wa.FileError(f"{path}: not a wormnet sweep file")
    if s.status != "complete":
        print(f"note: {path} has status {s.status!r}")
    if s.routing["name"] != "table":
        raise wa.FileError(f"{path}: not a table-driven sweep")
    return s.summary


def read_table_metrics(path):
    t = wa.load_table(path)
    return {"pi": float(t.metrics["pi"]), "sigma4": float(t.metrics["sigma4"]), "ok": t.proven}


def collect(outdir):
    runs = {}
    for path in sorted(glob.glob(os.path.join(outdir, "sweep_*.h5"))):
        m = re.fullmatch(r"sweep_(.+)_(bfs|genetic|sssp)_(.+)\.h5", os.path.basename(path))
        if not m:
            continue
        shape, alg, pattern = m.groups()
        runs[(shape, pattern, alg)] = read_sweep(path)
    tables = {}
    for path in sorted(glob.glob(os.path.join(outdir, "table_*.h5"))):
        m = re.fullmatch(r"table_(.+)_(bfs|genetic|sssp)\.h5", os.path.basename(path))
        if m:
            tables[m.groups()] = read_table_metrics(path)
    if not runs:
        raise wa.FileError(f"{outdir}: no sweep_<shape>_<algorithm>_<pattern>.h5 files")
    return runs, tables


def shape_key(shape):
    return int(np.prod([int(x) for x in shape.split("x")])), shape


def summarize(s):
    """Peak accepted traffic (any point, a saturated one included: docs/simulator.md), first
    saturated offered load, latency at the lowest load."""
    acc = s["accepted"]
    sat = s["saturated"].astype(bool) | s["deadlock"].astype(bool)
    first_sat = float(s["offered_load"][sat][0]) if sat.any() else float("nan")
    return {"throughput": float(acc.max()), "first_saturated": first_sat,
            "latency_low": float(s["latency_mean"][0]),
            "deadlock": bool(s["deadlock"].astype(bool).any())}


def latency_at(s, load):
    """Mean latency at offered load `load` (nan when the sweep did not run it)."""
    hit = np.isclose(s["offered_load"], load)
    return float(s["latency_mean"][hit][0]) if hit.any() else float("nan")


def fmt(x, spec=".3f"):
    return "-" if x != x else format(x, spec)


def report(runs, tables):
    lines = ["# Table-driven simulation: peak accepted traffic and latency per table", ""]
    shapes = sorted({k[0] for k in runs}, key=shape_key)
    for shape in shapes:
        lines.append(f"## torus {shape}")
        lines.append("")
        pis = [f"{a} pi {fmt(tables[(shape, a)]['pi'], '.0f')}"
               + ("" if tables[(shape, a)]["ok"] else " (NOT PROVEN)")
               for a in ALGORITHMS if (shape, a) in tables]
        if pis:
            lines.append("Tables: " + ", ".join(pis) + ".")
            lines.append("")
        lines.append("| pattern | algorithm | peak accepted | vs BFS | first saturated "
                     "offered | latency, lowest load | latency at BFS's last unsaturated load "
                     "|")
        lines.append("|---|---|---|---|---|---|---|")
        for pattern in PATTERNS:
            base = runs.get((shape, pattern, "bfs"))
            ref_load = float("nan")
            if base is not None:
                ok = ~(base["saturated"].astype(bool) | base["deadlock"].astype(bool))
                ref_load = float(base["offered_load"][ok].max()) if ok.any() else float("nan")
            for alg in ALGORITHMS:
                s = runs.get((shape, pattern, alg))
                if s is None:
                    continue
                r = summarize(s)
                rel = float("nan")
                if base is not None:
                    rel = r["throughput"] / summarize(base)["throughput"] - 1.0
                lines.append(
                    f"| {pattern} | {alg} | {r['throughput']:.4f}"
                    f"{' (DEADLOCK)' if r['deadlock'] else ''} | "
                    f"{'-' if rel != rel else f'{100 * rel:+.1f}%'} | "
                    f"{fmt(r['first_saturated'], '.2f')} | {fmt(r['latency_low'], '.1f')} | "
                    f"{fmt(latency_at(s, ref_load), '.1f')} (at {fmt(ref_load, '.2f')}) |")
        lines.append("")
    return lines


def figure(runs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    shapes = sorted({k[0] for k in runs}, key=shape_key)
    fig, ax = plt.subplots(len(shapes), len(PATTERNS), figsize=(4 * len(PATTERNS),
                                                                3.4 * len(shapes)),
                           squeeze=False)
    for row, shape in enumerate(shapes):
        for col, pattern in enumerate(PATTERNS):
            a = ax[row][col]
            for alg in ALGORITHMS:
                s = runs.get((shape, pattern, alg))
                if s is None:
                    continue
                sat = summarize(s)["throughput"]
                # Up to the first saturated point: beyond it the mean latency of the
                # delivered packets says little.
                bad = s["saturated"].astype(bool) | s["deadlock"].astype(bool)
                last = int(np.argmax(bad)) + 1 if bad.any() else len(bad)
                a.plot(s["offered_load"][:last], s["latency_mean"][:last], marker="o", ms=3,
                       color=COLORS[alg], label=f"{alg} (sat. {sat:.3f})")
            a.set_yscale("log")
            a.set_title(f"{shape}: {pattern}", fontsize=10)
            a.set_xlabel("offered load, flits/node/cycle")
            if col == 0:
                a.set_ylabel("mean latency, cycles")
            a.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=80)


@guarded("tables_sim")
def main():
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--figure", help="PNG file for the latency curves")
    ap.add_argument("--report", help="markdown file for the tables (default: stdout only)")
    args = ap.parse_args()
    check_directory(args.outdir)
    for option, path in (("--report", args.report), ("--figure", args.figure)):
        if path is not None:
            check_output(path, option)
    runs, tables = collect(args.outdir)
    text = "\n".join(report(runs, tables))
    print(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text + "\n")
    if args.figure:
        figure(runs, args.figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
