"""The Angara paper's Table III in simulation (runs/tables_npb.sh): the NPB skeletons'
completion times under the BFS, genetic and SSSP tables, relative to BFS, next to the
paper's.

Reads DIR/<torus>_<algorithm>_<skeleton>_<comm|compute>.h5 (group /workload of `wormnet run
--workload npb-*`) and DIR/table_<torus>_<algorithm>.h5 (the tables' pi); prints one table per
torus. A gain is T_BFS / T - 1 (the paper's "performance exceeds BFS by"); the communication
share is the part of the BFS run's critical path that is not computation.

usage: tables_npb.py DIR
"""
import glob
import os
import re
import sys

from wormnet_analysis._h5 import open_h5
from wormnet_analysis.cli import Parser, guarded

ALGORITHMS = ("bfs", "genetic", "sssp")
SKELETONS = ("lu", "mg", "cg", "ft", "is")
MODES = ("comm", "compute")
NAME = re.compile(r"^(\d+(?:x\d+)+)_(bfs|genetic|sssp)_(lu|mg|cg|ft|is)_(comm|compute)\.h5$")
# Table III of the paper (32 Desmos nodes, 4 processes per node, NPB 3.3.1 class C), as its
# text gives it: SSSP against BFS.
PAPER = {"lu": "better (Neighbor latency)", "mg": "negligible", "cg": "+2.28 %",
         "ft": "more than +5 %", "is": "more than +5 %"}


def read(directory):
    runs, rates, pis = {}, {}, {}
    for path in sorted(glob.glob(os.path.join(directory, "*.h5"))):
        base = os.path.basename(path)
        table = re.match(r"^table_(\d+(?:x\d+)+)_(bfs|genetic|sssp)\.h5$", base)
        if table:
            with open_h5(path) as f:
                pis[table.groups()] = int(f["metrics"].attrs["pi"])
            continue
        m = NAME.match(base)
        if not m:
            continue
        with open_h5(path) as f:
            w = f["workload"].attrs
            if int(w["complete"]) != 1:
                runs[m.groups()] = None
                continue
            runs[m.groups()] = {
                "cycles": int(w["completion_cycles"]),
                "compute": int(w["path_compute_cycles"]),
                "processes": len(f["workload/process_node"]),
            }
            rates[m.group(4)] = float(w["compute_rate"])
    return runs, rates, pis


def gain(base, other):
    if base is None or other is None:
        return "incomplete"
    return f"{100.0 * (base['cycles'] / other['cycles'] - 1):+.2f} %"


def table(torus, runs, rates, pis):
    nodes = 1
    for k in torus.split("x"):
        nodes *= int(k)
    some = next(r for k, r in runs.items() if k[0] == torus and r)
    head = (f"torus {torus} ({nodes} nodes, {some['processes']} processes); pi: " +
            ", ".join(f"{a} {pis[(torus, a)]}" for a in ALGORITHMS if (torus, a) in pis))
    lines = [head, "",
             "| skeleton | computation | BFS completion (cycles) | genetic vs BFS | SSSP vs BFS "
             "| communication share (BFS) | paper, SSSP vs BFS (32 nodes) |",
             "|---|---|---|---|---|---|---|"]
    for skeleton in SKELETONS:
        for mode in MODES:
            r = {a: runs.get((torus, a, skeleton, mode)) for a in ALGORITHMS}
            if r["bfs"] is None:
                continue
            what = "none" if mode == "comm" else f"{rates.get(mode, 0):g} ops/cycle"
            share = 1 - r["bfs"]["compute"] / r["bfs"]["cycles"]
            lines.append(f"| {skeleton.upper()} | {what} | {r['bfs']['cycles']} | "
                         f"{gain(r['bfs'], r['genetic'])} | {gain(r['bfs'], r['sssp'])} | "
                         f"{100 * share:.1f} % | {PAPER[skeleton] if mode == 'compute' else ''} |")
    return "\n".join(lines)


@guarded("tables_npb.py")
def main():
    ap = Parser(prog=os.path.basename(sys.argv[0]), description=__doc__.splitlines()[0])
    ap.add_argument("dir", metavar="DIR", help="the output folder of runs/tables_npb.sh")
    directory = ap.parse_args().dir
    if not os.path.isdir(directory):
        print(f"tables_npb.py: DIR '{directory}': not a directory", file=sys.stderr)
        sys.exit(2)
    runs, rates, pis = read(directory)
    if not runs:
        print(f"tables_npb.py: DIR '{directory}': no <torus>_<algorithm>_<skeleton>_<mode>.h5 "
              "files", file=sys.stderr)
        sys.exit(2)
    tori = sorted({k[0] for k in runs}, key=lambda t: [int(x) for x in t.split("x")])
    print("\n\n".join(table(t, runs, rates, pis) for t in tori))
    return 0


if __name__ == "__main__":
    sys.exit(main())
