"""The Angara paper's Figure 5 from a `wormnet tables-study` HDF5 file.

    /usr/bin/python3 analysis/tables_study.py STUDY.h5 [STUDY2.h5 ...] [--compare OTHER.h5 ...]
                                              [--figure F.png] [--report R.md]

Groups the systems of each dimension count by the edge-forwarding index pi of the SSSP and
the genetic tables against the BFS table (less / equal / greater), and reports per group the
number of systems and the ratio of the total pi (sum of the algorithm's pi over the group's
systems divided by the sum of BFS's), next to the paper's figures. Draws the groups and the
generation time against the node count (Figure 5a-f). With --compare (the same study run on
another number of ranks; systems are matched by dimension count and number, so it may hold
a prefix of the study or fewer algorithms) it also reports the total pi of each algorithm
against this file's and the speed-up. Several files (e.g. one per dimension count, or a
study's part run separately) are read as one. Reads only the HDF5 files written by wormnet.
"""
import sys

import numpy as np

import wormnet_analysis as wa
from wormnet_analysis.cli import Parser, check_output, guarded

# The paper's statements (Mukosey et al., Section V): SSSP better than BFS by 13%, 11%, 17%
# (2D/3D/4D) and better than genetic by 4% and 7% (3D/4D), "in the most cases, on average";
# single-route pairs 81.6%, 58.2%, 36.6%; 0.25 s as the practical run-time limit.
PAPER_SSSP_VS_BFS = {2: 0.87, 3: 0.89, 4: 0.83}
PAPER_SSSP_VS_GENETIC = {3: 0.96, 4: 0.93}
PAPER_UNIQUE = {2: 0.816, 3: 0.582, 4: 0.366}
PRACTICAL_LIMIT = 0.25
# Which generation time the run-time table and figure use (--time): wall clock, or CPU time,
# which a machine shared with other jobs inflates less.
TIME = "wall"
TIME_SUFFIX = "_seconds"


def read_study(path):
    """The systems table as a dict of numpy arrays, plus the root attributes."""
    data, attrs = wa.load_study(path)
    if attrs.get("status") != "complete":
        n = len(next(iter(data.values()))) if data else 0
        print(f"note: {path} has status {attrs.get('status')!r}: {n} systems so far")
    return data, attrs


def read_studies(paths):
    """Several study files as one: columns concatenated (algorithms common to all files)."""
    parts = [read_study(p) for p in paths]
    algs = [str(a) for a in parts[0][1]["algorithms"]]
    for _, attrs in parts[1:]:
        algs = [a for a in algs if a in [str(b) for b in attrs["algorithms"]]]
    keys = set.intersection(*(set(d) for d, _ in parts))
    data = {k: np.concatenate([d[k] for d, _ in parts]) for k in keys}
    attrs = dict(parts[0][1])
    attrs["algorithms"] = algs
    for k in ("min_size", "max_size", "seed", "ranks"):
        values = {str(a[k]) for _, a in parts}
        if len(values) > 1:
            raise wa.FileError(f"the study files differ in {k}: {sorted(values)}")
    return data, attrs


def groups(d, mask, alg, ref):
    """(label, count, ratio of total pi) for alg < ref, alg == ref, alg > ref."""
    a = d[f"{alg}_pi"][mask]
    b = d[f"{ref}_pi"][mask]
    out = []
    for label, sel in (("less", a < b), ("equal", a == b), ("greater", a > b)):
        ratio = a[sel].sum() / b[sel].sum() if sel.any() else float("nan")
        out.append((label, int(sel.sum()), ratio))
    total = a.sum() / b.sum() if len(a) else float("nan")
    return out, total


def fmt(x):
    return "-" if x != x else f"{x:.3f}"


def report(d, attrs, algs):
    lines = [f"# Figure 5 study: {len(d['nodes'])} systems, sizes in "
             f"[{attrs['min_size']}, {attrs['max_size']}], seed {attrs['seed']}, "
             f"{attrs['ranks']} rank(s)", ""]
    ok = all(d[f"{a}_ok"].all() for a in algs)
    lines.append("Every table proven complete, minimal, Angara-rule abiding and deadlock-free: "
                 + ("yes" if ok else "NO"))
    lines.append("")
    for ref_alg, alg, paper in (("bfs", "sssp", PAPER_SSSP_VS_BFS),
                                ("bfs", "genetic", {}),
                                ("genetic", "sssp", PAPER_SSSP_VS_GENETIC)):
        if alg not in algs or ref_alg not in algs:
            continue
        lines.append(f"## {alg} against {ref_alg}: ratio of total pi per group (systems)")
        lines.append("")
        lines.append("| dims | less | equal | greater | all | paper (less group) |")
        lines.append("|---|---|---|---|---|---|")
        for dims in sorted(set(d["dims"])):
            mask = d["dims"] == dims
            g, total = groups(d, mask, alg, ref_alg)
            cells = [f"{fmt(r)} ({c})" for _, c, r in g]
            p = paper.get(int(dims))
            lines.append(f"| {dims}D | " + " | ".join(cells) + f" | {fmt(total)} | "
                         + (f"{p:.2f}" if p else "-") + " |")
        lines.append("")
    lines.append("## Pairs with a single minimal route (mean over systems)")
    lines.append("")
    lines.append("| dims | routes (canonical graph) | paths (literal graph) | paper |")
    lines.append("|---|---|---|---|")
    for dims in sorted(set(d["dims"])):
        mask = d["dims"] == dims
        n = d["nodes"][mask].astype(float)
        u = d["unique_pairs"][mask] / (n * (n - 1))
        lit = d["unique_pairs_literal"][mask] / (n * (n - 1))
        lines.append(f"| {dims}D | {u.mean():.3f} | {lit.mean():.3f} | "
                     f"{PAPER_UNIQUE.get(int(dims), float('nan')):.3f} |")
    lines.append("")
    lines.append(f"## Generation time ({TIME} s): largest system under the paper's 0.25 s limit")
    lines.append("")
    lines.append("| dims | " + " | ".join(algs) + " |")
    lines.append("|---|" + "---|" * len(algs))
    for dims in sorted(set(d["dims"])):
        mask = d["dims"] == dims
        cells = []
        for a in algs:
            t = d[f"{a}{TIME_SUFFIX}"][mask]
            n = d["nodes"][mask]
            under = n[t < PRACTICAL_LIMIT]
            over = n[t >= PRACTICAL_LIMIT]
            cells.append(f"{under.max() if len(under) else 0} nodes"
                         + (f" (first over: {over.min()})" if len(over) else " (none over)"))
        lines.append(f"| {dims}D | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def compare(d, e, algs, other_ranks, ranks):
    """Systems of e matched to d's by (dims, index); the algorithms both ran."""
    where = {(int(k), int(i)): j for j, (k, i) in enumerate(zip(d["dims"], d["index"]))}
    pairs = [(where[(int(k), int(i))], j) for j, (k, i) in enumerate(zip(e["dims"], e["index"]))
             if (int(k), int(i)) in where]
    mine = np.array([p for p, _ in pairs], dtype=int)
    theirs = np.array([q for _, q in pairs], dtype=int)
    lines = [f"## {other_ranks} ranks against {ranks}: total pi and speed-up "
             f"({len(pairs)} systems)", "",
             "| algorithm | dims | total pi ratio | worst system | systems worse by > 2% | "
             "speed-up (total wall time) | speed-up (total CPU time, max over ranks) |",
             "|---|---|---|---|---|---|---|"]
    for a in (a for a in algs if f"{a}_pi" in e):
        for dims in sorted(set(int(x) for x in d["dims"][mine])):
            sel = d["dims"][mine] == dims
            p1 = d[f"{a}_pi"][mine][sel]
            p2 = e[f"{a}_pi"][theirs][sel]
            rel = p2 / p1
            speed = d[f"{a}_seconds"][mine][sel].sum() / e[f"{a}_seconds"][theirs][sel].sum()
            cpu = (d[f"{a}_cpu_seconds"][mine][sel].sum()
                   / e[f"{a}_cpu_seconds"][theirs][sel].sum())
            lines.append(f"| {a} | {dims}D | {p2.sum() / p1.sum():.4f} | {rel.max():.3f} | "
                         f"{int((rel > 1.02).sum())} of {len(p1)} | {speed:.2f} | {cpu:.2f} |")
    lines.append("")
    return lines


def figure(d, algs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    dims_list = sorted(set(int(x) for x in d["dims"]))
    fig, ax = plt.subplots(2, len(dims_list), figsize=(4.5 * len(dims_list), 8), squeeze=False)
    colors = {"bfs": "tab:blue", "genetic": "tab:orange", "sssp": "tab:green"}
    for col, dims in enumerate(dims_list):
        mask = d["dims"] == dims
        a0 = ax[0][col]
        width = 0.35
        for k, alg in enumerate(a for a in ("genetic", "sssp") if a in algs):
            if "bfs" not in algs:
                continue
            g, _ = groups(d, mask, alg, "bfs")
            x = np.arange(3) + k * width
            a0.bar(x, [r if r == r else 0 for _, _, r in g], width, label=alg, color=colors[alg])
            for xi, (_, c, r) in zip(x, g):
                a0.text(xi, (r if r == r else 0) + 0.01, f"{c}", ha="center", fontsize=8)
        a0.set_xticks(np.arange(3) + width / 2, ["less", "equal", "greater"])
        a0.set_ylim(0, 1.3)
        a0.axhline(1.0, color="grey", lw=0.5)
        a0.set_title(f"{dims}D: total pi / BFS total pi (sys_num on bars)")
        a0.legend(fontsize=8)
        a1 = ax[1][col]
        for alg in algs:
            a1.scatter(d["nodes"][mask], np.maximum(d[f"{alg}{TIME_SUFFIX}"][mask], 1e-6), s=6,
                       label=alg, color=colors.get(alg))
        a1.axhline(PRACTICAL_LIMIT, color="red", lw=0.8, ls="--", label="0.25 s")
        a1.set_yscale("log")
        a1.set_xlabel("nodes")
        a1.set_ylabel(f"generation time ({TIME}), s")
        a1.set_title(f"{dims}D: run time")
        a1.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=80)


@guarded("tables_study")
def main():
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("study", nargs="+")
    ap.add_argument("--compare", nargs="+", help="the same study on another number of ranks")
    ap.add_argument("--figure", help="PNG file for Figure 5")
    ap.add_argument("--report", help="markdown file for the tables (default: stdout only)")
    ap.add_argument("--time", choices=("wall", "cpu"), default="wall",
                    help="generation time shown in the run-time table and figure")
    args = ap.parse_args()
    inputs = args.study + (args.compare or [])
    for option, path in (("--report", args.report), ("--figure", args.figure)):
        if path is not None:
            check_output(path, option, inputs)
    global TIME, TIME_SUFFIX
    TIME = args.time
    TIME_SUFFIX = "_seconds" if args.time == "wall" else "_cpu_seconds"
    d, attrs = read_studies(args.study)
    algs = attrs["algorithms"]
    lines = report(d, attrs, algs)
    if args.compare:
        e, eattrs = read_studies(args.compare)
        lines += compare(d, e, algs, int(eattrs["ranks"]), int(attrs["ranks"]))
    text = "\n".join(lines)
    print(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text + "\n")
    if args.figure:
        figure(d, algs, args.figure)
    if not all(d[f"{a}_ok"].all() for a in algs):
        print("some tables were not proven", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
