#!/usr/bin/python3
"""runs/workloads/study.sh --quick (honeycomb:2, mesh:6x4, torus:6x4: 24 nodes; 1 iteration of
4-flit messages) and analysis/workloads.py on its files. Checks that every run completed, that
each completion time respects a lower bound worked out from the motif and the router pipeline
alone, that the printed table holds the files' completion times, that the figure is a small
PNG, and that bad arguments are refused with exit code 2.

Lower bounds (default pipeline: a message of F flits over h hops takes, on an idle network,
(h + 1) x 4 + h + F - 1 cycles from head injection to tail delivery, so >= F + 8 for one hop;
the derivation is in workload_test.py's idle halo case):
  halo2d         an interior process sends 4 messages through its one injection channel, F
                 flits a cycle, so the last head leaves >= 3F after the first: >= 4F + 8;
  sweep2d        the wavefront is a chain of A + B - 2 dependent messages: >= (A+B-2)(F+8);
  allreduce-ring 2(P-1) steps, each waits for a message of the step before: >= 2(P-1)(F+8);
  allreduce-rd   P2 = 16 of 24: a fold, log2(16) = 4 exchange steps and an unfold, each
                 waiting for the one before: >= 6(F+8);
  alltoall       every node receives (P-1) F flits through its ejection channel: >= (P-1) F.

usage: workload_study_test.py --wormnet BIN --root SOURCE_DIR --out DIR
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import h5py

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
P, A, B, F = 24, 6, 4, 4
ONE_HOP = F + 8
BOUND = {"halo2d": 4 * F + 8, "sweep2d": (A + B - 2) * ONE_HOP,
         "allreduce-ring": 2 * (P - 1) * ONE_HOP, "allreduce-rd": 6 * ONE_HOP,
         "alltoall": (P - 1) * F}
RUNS = {"ht": ["double-xy", "double-xy-vcs3", "duato"], "mesh": ["xy", "xy-vcs2", "duato"],
        "torus": ["dor-dateline-dest", "dor-dateline-dest-vcs3", "duato"]}


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    study = os.path.join(args.root, "runs", "workloads", "study.sh")
    plot = os.path.join(args.root, "analysis", "workloads.py")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    png = os.path.join(args.out, "w.png")
    # -j 9: each run computes for a few ms; nearly all of its ~1 s wall time is start-up.
    r = subprocess.run([study, "--quick", "-j", "9", "-o", args.out, "--figure", png,
                        "--wormnet", args.wormnet], capture_output=True, text=True, timeout=280)
    if r.returncode != 0:
        fail(f"study.sh --quick exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
    table = r.stdout

    for net, routings in RUNS.items():
        for routing in routings:
            for motif, bound in BOUND.items():
                path = os.path.join(args.out, f"{net}_{routing}_{motif}.h5")
                if not os.path.exists(path):
                    fail(f"{path} missing")
                with h5py.File(path, "r") as f:
                    w = f["workload"].attrs
                    if int(w["complete"]) != 1 or int(w["message_flits"]) != F:
                        fail(f"{path}: complete {w['complete']}, flits {w['message_flits']}")
                    cycles = int(w["completion_cycles"])
                    vcs = re.search(r"^vcs = (\d+)", f.attrs["config"], re.M).group(1)
                if cycles < bound:
                    fail(f"{path}: completion {cycles} below the bound {bound}")
                if routing.endswith(("-vcs2", "-vcs3")) != (vcs != "0"):
                    fail(f"{path}: vcs = {vcs} in the configuration")
    # The first table's rows hold the files' numbers (a column per net and routing, in order).
    first = table.split("\n\n")[0]
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in first.splitlines() if line.startswith("| ")}
    for motif in BOUND:
        want = []
        for net, routings in RUNS.items():
            for routing in routings:
                with h5py.File(os.path.join(args.out, f"{net}_{routing}_{motif}.h5"), "r") as f:
                    want.append(str(int(f["workload"].attrs["completion_cycles"])))
        if rows.get(motif) != want:
            fail(f"table row {motif}: {rows.get(motif)}, files say {want}")
    with open(png, "rb") as f:
        data = f.read()
    if not data.startswith(PNG_MAGIC) or len(data) > 150_000:
        fail(f"{png}: not a PNG under 150 KB ({len(data)} bytes)")

    # Bad arguments: exit code 2 and one line naming the argument.
    empty = os.path.join(args.out, "empty")
    os.makedirs(empty)
    for cmd, name in (([sys.executable, plot, empty], empty),
                      ([sys.executable, plot, os.path.join(args.out, "nowhere")], "nowhere"),
                      ([study, "-j", "0", "-o", empty], "-j"),
                      ([study, "--bogus"], "--bogus")):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if r.returncode != 2 or len(r.stderr.strip().splitlines()) != 1 or name not in r.stderr:
            fail(f"{cmd}: exit {r.returncode}, stderr {r.stderr!r}")
    print("workload study: 45 runs within their bounds, table and figure consistent")


if __name__ == "__main__":
    main()
