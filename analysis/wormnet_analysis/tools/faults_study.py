"""What faults cost (docs/faults_study.md), from runs/faults_study.sh's files.

    /usr/bin/python3 analysis/faults_study.py OUTDIR [--figure F.png]

OUTDIR holds table_<shape>_<set>_<algorithm>.json (wormnet tables --json) and
sweep_<shape>_<set>_sssp_<pattern>.h5 (wormnet sweep with the SSSP table), <set> being
"none", "links<K>_s<seed>" or "nodes<K>_s<seed>". Prints two Markdown tables: per torus and
fault count (averaged over the seeds), the working pairs without a legal route, the mean and
largest stretch (route length over the fault-free distance; the same for the three
generators, which all take shortest legal routes), and pi and sigma(4,R) of the BFS, genetic
and SSSP tables; then the saturation throughput (highest accepted load, flits/node/cycle)
of the SSSP table under uniform and all-to-all traffic, with its (W-1)/pi. The figure draws
pi, mean stretch and saturation throughput against the number of failed links.
"""
import glob
import json
import os
import re
import sys

import wormnet_analysis as wa
from wormnet_analysis.cli import Parser, check_directory, check_output, guarded

ALGORITHMS = ("bfs", "genetic", "sssp")
PATTERNS = ("uniform", "all-to-all")


def parse_set(name):
    """("none", 0, 0) / ("links", K, seed) / ("nodes", K, seed)."""
    if name == "none":
        return "none", 0, 0
    m = re.fullmatch(r"(links|nodes)(\d+)_s(\d+)", name)
    if not m:
        return None
    return m.group(1), int(m.group(2)), int(m.group(3))


def collect(outdir):
    tables = {}  # (shape, kind, k, seed, alg) -> json
    for path in glob.glob(os.path.join(outdir, "table_*.json")):
        m = re.fullmatch(r"table_(.+?)_(none|(?:links|nodes)\d+_s\d+)_(bfs|genetic|sssp)\.json",
                         os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            text = f.read().strip()
        if not text:
            continue
        kind, k, seed = parse_set(m.group(2))
        try:
            tables[(m.group(1), kind, k, seed, m.group(3))] = json.loads(text)
        except ValueError as e:
            raise wa.FileError(f"{path}: not JSON ({e})") from e
    sweeps = {}  # (shape, kind, k, seed, pattern) -> highest accepted load
    for path in glob.glob(os.path.join(outdir, "sweep_*_sssp_*.h5")):
        m = re.fullmatch(r"sweep_(.+?)_(none|(?:links|nodes)\d+_s\d+)_sssp_(.+)\.h5",
                         os.path.basename(path))
        if not m:
            continue
        s = wa.load(path, allow_partial=True)
        kind, k, seed = parse_set(m.group(2))
        sweeps[(m.group(1), kind, k, seed, m.group(3))] = float(max(s.summary["accepted"]))
    return tables, sweeps


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def label(kind, k):
    return "none" if kind == "none" else f"{k} {'link' if kind == 'links' else 'node'}" + \
        ("s" if k != 1 else "")


def order(key):
    kind, k = key
    return ({"none": 0, "links": 1, "nodes": 2}[kind], k)


def report(tables, sweeps):
    shapes = sorted({key[0] for key in tables}, key=lambda s: (len(s.split("x")), s))
    print("| torus | failed | seeds | pairs without legal route | mean stretch | max stretch | "
          "pi BFS / genetic / SSSP | sigma(4,R) BFS / genetic / SSSP |")
    print("|---|---|---|---|---|---|---|---|")
    for shape in shapes:
        groups = sorted({(kind, k) for (sh, kind, k, _, _) in tables if sh == shape}, key=order)
        for kind, k in groups:
            seeds = sorted({sd for (sh, kd, kk, sd, _) in tables
                            if sh == shape and kd == kind and kk == k})
            rows = {a: [tables[(shape, kind, k, sd, a)] for sd in seeds
                        if (shape, kind, k, sd, a) in tables] for a in ALGORITHMS}
            ref = rows["sssp"] or rows["bfs"]
            unroutable = [r.get("unroutable_pairs", 0) for r in ref]
            stretch = [r.get("mean_stretch", 1.0) for r in ref]
            worst = max((r.get("max_stretch", 1.0) for r in ref), default=1.0)
            pis = " / ".join(f"{mean([r['pi'] for r in rows[a]]):.0f}" for a in ALGORITHMS)
            sig = " / ".join(f"{mean([r['sigma4'] for r in rows[a]]):.1f}" for a in ALGORITHMS)
            un = f"{mean(unroutable):.1f}" + (f" (max {max(unroutable)})"
                                              if max(unroutable) > 0 else "")
            print(f"| {shape} | {label(kind, k)} | {len(seeds)} | {un} | {mean(stretch):.4f} | "
                  f"{worst:g} | {pis} | {sig} |")
    print()
    print("| torus | failed (seed 1) | SSSP (W-1)/pi | uniform | all-to-all |")
    print("|---|---|---|---|---|")
    for shape in shapes:
        groups = sorted({(kind, k) for (sh, kind, k, _, _) in sweeps if sh == shape}, key=order)
        for kind, k in groups:
            seed = 0 if kind == "none" else 1
            t = tables.get((shape, kind, k, seed, "sssp"), {})
            cells = [f"{sweeps[(shape, kind, k, seed, p)]:.3f}"
                     if (shape, kind, k, seed, p) in sweeps else "-" for p in PATTERNS]
            print(f"| {shape} | {label(kind, k)} | {t.get('saturation_rate', float('nan')):.4f} "
                  f"| {cells[0]} | {cells[1]} |")


def figure(tables, sweeps, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    shapes = sorted({key[0] for key in tables}, key=lambda s: (len(s.split("x")), s))
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    markers = {"bfs": "o", "genetic": "s", "sssp": "^"}
    styles = ["-", "--"]
    for i, shape in enumerate(shapes):
        ks = sorted({k for (sh, kind, k, _, _) in tables if sh == shape and kind in ("none",
                                                                                      "links")})

        def at(k, a, field, default=None):
            kind = "none" if k == 0 else "links"
            vals = [r.get(field, default) for (sh, kd, kk, _, aa), r in tables.items()
                    if sh == shape and kd == kind and kk == k and aa == a]
            return mean(vals)
        for a in ALGORITHMS:
            axes[0].plot(ks, [at(k, a, "pi") for k in ks], styles[i % 2], marker=markers[a],
                         label=f"{shape} {a}")
        axes[1].plot(ks, [at(k, "sssp", "mean_stretch", 1.0) for k in ks], styles[i % 2],
                     marker="o", label=shape)
        for p, mk in zip(PATTERNS, ("o", "s")):
            pts = sorted((k, v) for (sh, kind, k, sd, pp), v in sweeps.items()
                         if sh == shape and pp == p and kind in ("none", "links"))
            if pts:
                axes[2].plot([x for x, _ in pts], [y for _, y in pts], styles[i % 2], marker=mk,
                             label=f"{shape} {p}")
    axes[0].set(xlabel="failed links", ylabel="pi (routes on the busiest channel)",
                title="edge-forwarding index (mean over seeds)")
    axes[1].set(xlabel="failed links", ylabel="mean stretch",
                title="route length / fault-free distance")
    axes[2].set(xlabel="failed links", ylabel="flits/node/cycle",
                title="saturation throughput, SSSP table (seed 1)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"\nfigure: {path}")


@guarded("faults_study")
def main():
    p = Parser(prog=os.path.basename(sys.argv[0]), description=__doc__.splitlines()[0])
    p.add_argument("outdir")
    p.add_argument("--figure")
    args = p.parse_args()
    check_directory(args.outdir)
    if args.figure is not None:
        check_output(args.figure, "--figure")
    tables, sweeps = collect(args.outdir)
    if not tables:
        raise wa.FileError(f"{args.outdir}: no table_*.json files (run runs/faults_study.sh "
                           "first)")
    report(tables, sweeps)
    if args.figure:
        figure(tables, sweeps, args.figure)
    return 0


if __name__ == "__main__":
    sys.exit(main())
