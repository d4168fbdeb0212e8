#!/usr/bin/python3
"""runs/tables_npb.sh --quick (torus:2x2x2, 4 processes per node, class S, one iteration)
and analysis/tables_npb.py on its files. Checks that every run completed with the options the
study states, that its workload is the skeleton's (message counts per run from the skeleton's
definition, as npb_workload_test.py works them out), that with computation a run lasts at
least as long as the busiest node's computation shared by its 4 processes (a process computes
its steps one after another) and without computation holds none, that the tables' pi are the
files', that the printed table holds the files' numbers (gain = T_BFS / T - 1), and that bad
arguments are refused with exit code 2 and one line.

usage: tables_npb_test.py --wormnet BIN --root SOURCE_DIR --out DIR
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import npb_workload_test as npb  # noqa: E402  (the skeletons' definitions, worked out there)

ALGORITHMS = ("bfs", "genetic", "sssp")
SKELETONS = ("lu", "mg", "cg", "ft", "is")
P, K = 32, 4
# Messages of one iteration (class S) from each skeleton's definition; markers only with
# computation (LU: a corner per plane and sweep, rhs's step of every process; FT and IS: a
# step of every process).
EXPECTED = {
    "lu": (sum(npb.lu_pairs(P, 12).values()), 2 * 10 + P),
    "mg": (sum(npb.mg_pairs(P, 32).values()) + sum(npb.rd_pairs(P, 2).values()), 0),
    "cg": (sum(npb.cg_pairs(P).values()), 0),
    "ft": (sum(npb.ft_pairs(P).values()), P),
    "is": (sum(npb.is_pairs(P, 2 ** 16).values()), P),
}


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    script = os.path.join(args.root, "runs", "tables_npb.sh")
    analysis = os.path.join(args.root, "analysis", "tables_npb.py")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    r = subprocess.run([script, "--quick", "-j", "4", "-o", args.out, "--wormnet", args.wormnet],
                       capture_output=True, text=True, timeout=280)
    if r.returncode != 0:
        fail(f"tables_npb.sh --quick exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
    printed = r.stdout

    pis = {}
    for alg in ALGORITHMS:
        with h5py.File(os.path.join(args.out, f"table_2x2x2_{alg}.h5"), "r") as f:
            pis[alg] = int(f["metrics"].attrs["pi"])
    cycles = {}
    for skeleton in SKELETONS:
        messages, markers = EXPECTED[skeleton]
        for alg in ALGORITHMS:
            for mode in ("comm", "compute"):
                path = os.path.join(args.out, f"2x2x2_{alg}_{skeleton}_{mode}.h5")
                if not os.path.exists(path):
                    fail(f"{path} missing")
                with h5py.File(path, "r") as f:
                    w = f["workload"]
                    a = w.attrs
                    config = f.attrs["config"]
                    config = config.decode() if isinstance(config, bytes) else str(config)
                    for line in ('routing = "table"', 'flow-control = "bubble"',
                                 f'workload = "npb-{skeleton}"', 'npb-class = "S"',
                                 "processes-per-node = 4", 'mapping = "linear"'):
                        if line not in config:
                            fail(f"{path}: no '{line}' in the configuration")
                    if int(a["complete"]) != 1:
                        fail(f"{path}: incomplete")
                    found = int(a["network_messages"]) + int(a["local_messages"])
                    want_markers = markers if mode == "compute" else 0
                    if (found, int(a["markers"])) != (messages, want_markers):
                        fail(f"{path}: {found} messages and {a['markers']} markers, "
                             f"expected {messages} and {want_markers}")
                    source = w["messages/source"][()]
                    compute = w["messages/compute"][()]
                    total = int(a["completion_cycles"])
                    if mode == "comm" and (compute.any() or int(a["path_compute_cycles"])):
                        fail(f"{path}: computation without --compute-rate")
                    busiest = max(compute[source == n].sum() for n in range(8)) / K
                    if mode == "compute" and not (0 < busiest <= total):
                        fail(f"{path}: completion {total}, busiest node's computation / 4 "
                             f"{busiest}")
                    if sum(int(a[k]) for k in ("path_wait_cycles", "path_compute_cycles",
                                               "path_queueing_cycles", "path_network_cycles",
                                               "path_local_cycles")) != total:
                        fail(f"{path}: the critical path does not add up to {total}")
                    cycles[(skeleton, alg, mode)] = total

    # The printed table: its pi and, per row, BFS's completion and the gains T_BFS / T - 1.
    if f"pi: bfs {pis['bfs']}, genetic {pis['genetic']}, sssp {pis['sssp']}" not in printed:
        fail(f"the tables' pi not in the printed table:\n{printed}")
    rows = collections.defaultdict(list)
    for line in printed.splitlines():
        if line.startswith("| ") and not line.startswith("| skeleton"):
            cells = [c.strip() for c in line.split("|")[1:-1]]
            rows[cells[0].lower()].append(cells)
    for skeleton in SKELETONS:
        if len(rows[skeleton]) != 2:
            fail(f"table rows of {skeleton}: {rows[skeleton]}")
        for cells, mode in zip(rows[skeleton], ("comm", "compute")):
            base = cycles[(skeleton, "bfs", mode)]
            want = [str(base)] + [f"{100.0 * (base / cycles[(skeleton, a, mode)] - 1):+.2f} %"
                                  for a in ("genetic", "sssp")]
            if cells[2:5] != want:
                fail(f"row {cells}: expected {want}")
            if (mode == "comm") != (cells[1] == "none"):
                fail(f"row {cells}: computation column")

    # Bad arguments: exit code 2 and one line naming the argument.
    empty = os.path.join(args.out, "empty")
    os.makedirs(empty)
    for cmd, name in (([sys.executable, analysis, empty], empty),
                      ([sys.executable, analysis, os.path.join(args.out, "nowhere")], "nowhere"),
                      ([script, "-j", "0", "-o", empty], "-j"),
                      ([script, "--wormnet", os.path.join(args.out, "none")], "--wormnet"),
                      ([script, "--bogus"], "--bogus")):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if r.returncode != 2 or len(r.stderr.strip().splitlines()) != 1 or name not in r.stderr:
            fail(f"{cmd}: exit {r.returncode}, stderr {r.stderr!r}")
    print("NPB tables study (quick): 30 runs of the skeletons' messages, table consistent")


if __name__ == "__main__":
    main()
