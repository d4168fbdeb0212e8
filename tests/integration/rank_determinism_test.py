#!/usr/bin/env python3
"""Runs one simulation case at 1, 2, 3 and 4 MPI ranks and checks that every statistic,
histogram, per-channel count and deadlock report in the HDF5 files is bit-identical.

Only the fields that describe the execution rather than the model may differ: the rank count,
the partition, the git revision and the wall-clock times.

usage: rank_determinism_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR CASE
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np

CASES = {
    # name: (subcommand, arguments, expected exit code)
    "honeycomb_uniform_low": ("run", ["-t", "honeycomb:4", "-r", "double-xy", "--traffic", "uniform",
                                      "--load", "0.03", "--length-min", "4", "--length-max", "30",
                                      "--warmup", "500", "--measure", "3000"], 0),
    "honeycomb_sweep_to_saturation": ("sweep", ["-t", "honeycomb:4", "-r", "double-xy-turn",
                                                "--loads", "0.04,0.3", "--length", "8",
                                                "--warmup", "300", "--measure", "2000",
                                                "--drain-limit", "1500", "--after-saturation", "0"], 0),
    "torus_transpose_low": ("run", ["-t", "torus:8x4", "-r", "dor-dateline", "--traffic", "transpose",
                                    "--load", "0.05", "--length", "6", "--warmup", "300",
                                    "--measure", "3000"], 0),
    "torus_tornado_saturated": ("run", ["-t", "torus:5x6", "-r", "dor", "--flow-control", "bubble",
                                        "--buffer", "8", "--length", "4", "--traffic", "tornado",
                                        "--load", "0.6", "--warmup", "300", "--measure", "2000",
                                        "--drain-limit", "1000"], 0),
    "torus_booksim_preset": ("run", ["-t", "torus:6x4", "-r", "dor-balanced", "--preset", "booksim",
                                     "--vcs", "2", "--length", "4", "--link-latency", "2",
                                     "--load", "0.2", "--warmup", "300", "--measure", "2000"], 0),
    "honeycomb_torus_dateline": ("run", ["-t", "honeycomb-torus:3", "-r", "double-xy-dateline",
                                         "--load", "0.15", "--length", "8", "--warmup", "300",
                                         "--measure", "2000"], 0),
    "duato_least_occupied_sweep": ("sweep", ["-t", "honeycomb-torus:3", "-r", "duato",
                                             "--selection", "least-occupied", "--traffic",
                                             "transpose", "--loads", "0.1,0.9", "--length", "6",
                                             "--warmup", "300", "--measure", "1500",
                                             "--drain-limit", "1000", "--after-saturation", "0"],
                                   0),
    # Per-VC bandwidth moves up to a flit per VC and cycle over a cut link (issue 11: the
    # exchange once had room for one flit per link and cycle and aborted on 2 ranks).
    "honeycomb_per_vc_short_packets": ("run", ["-t", "honeycomb:4", "-r", "double-xy",
                                               "--vc-bandwidth", "per-vc", "--vcs", "4",
                                               "--length", "1", "--load", "0.9", "--warmup", "200",
                                               "--measure", "1000", "--drain-limit", "1000"], 0),
    # One ring of the torus deadlocks while the others still move (issue 11: a run-time
    # deadlock was only seen once the whole network stood still).
    "torus_ring_deadlock_local": ("run", ["-t", "torus:8x8", "-r", "dor", "--buffer", "2",
                                          "--length", "16", "--load", "0.05", "--warmup", "0",
                                          "--measure", "20000", "--deadlock-threshold", "200",
                                          "--stats-window", "100"], 4),
    # A rank of 262,144 routers or more walks in lagging layers (docs/scaling.md, "the skewed
    # walk"): at 1 and 2 ranks here (2: with rank boundaries, the overlapped exchange and a
    # lookahead of 2 cycles), against 3 and 4 ranks of level walks; statistics windows of 37
    # cycles make the layers level at cycles the catch-ups do not.
    "torus_skewed_walk": ("run", ["-t", "torus:64x64x128", "-r", "dor-dateline", "--load", "0.01",
                                  "--length", "4", "--link-latency", "2", "--credit-latency", "3",
                                  "--warmup", "50", "--measure", "100", "--drain-limit", "150",
                                  "--stats-window", "37"], 0),
    # Where packets wait (--congestion totals): the counts, gathered by global channel id,
    # are the same on any rank count, a saturated point's drain included.
    "duato_congestion": ("run", ["-t", "torus:6x6", "-r", "duato", "--load", "0.6",
                                 "--length", "5", "--buffer", "2", "--warmup", "200",
                                 "--measure", "1500", "--drain-limit", "800",
                                 "--congestion", "totals"], 0),
    # The channel view over time (--congestion series): each window's flits per channel,
    # gathered by global channel id, through the warm-up, the measurement and the drain.
    "duato_channel_series": ("run", ["-t", "torus:6x6", "-r", "duato", "--load", "0.6",
                                     "--length", "5", "--buffer", "2", "--warmup", "200",
                                     "--measure", "1500", "--drain-limit", "800",
                                     "--stats-window", "70", "--congestion", "series"], 0),
    "honeycomb_deadlock": ("run", ["-t", "honeycomb:4", "-r", "stojmenovic", "--buffer", "1",
                                   "--length-min", "10", "--length-max", "200", "--load", "0.3",
                                   "--deadlock-threshold", "500"], 4),
    # A network with faults (docs/faults.md): one node of mesh:8x8 fails, drawn from
    # --fault-seed 9 (one west-first still routes around), and transpose traffic sends
    # nothing from the working node mapped onto it: the same on every rank count.
    "faults_west_first_transpose": ("run", ["-t", "mesh:8x8", "-r", "west-first",
                                            "--fail-nodes", "1", "--fault-seed", "9",
                                            "--traffic", "transpose", "--load", "0.1",
                                            "--length", "6", "--warmup", "300", "--measure",
                                            "2000"], 0),
    # Closed-loop workloads: a delivery on one rank issues the next message on the same rank
    # (docs/workloads.md), so the per-message times match at any rank count.
    "workload_halo3d_random": ("run", ["-t", "torus:4x4x2", "-r", "dor-dateline", "--workload",
                                       "halo3d", "--mapping", "random", "--iterations", "3",
                                       "--message-size", "5"], 0),
    "workload_allreduce_rd_honeycomb": ("run", ["-t", "honeycomb:3", "-r", "double-xy",
                                                "--workload", "allreduce-rd", "--mapping",
                                                "topology", "--iterations", "2",
                                                "--message-size", "12"], 0),
    # Several processes per node (messages within a node delivered by the rank that owns it)
    # and computation (markers, delays): an NPB skeleton on 16 processes of 8 nodes, the
    # random mapping scattering each row's exchanges over the ranks.
    "workload_npb_cg_processes": ("run", ["-t", "torus:4x2", "-r", "dor-dateline", "--buffer",
                                          "64", "--workload", "npb-cg", "--npb-class", "S",
                                          "--processes-per-node", "2", "--compute-rate", "16",
                                          "--mapping", "random", "--seed", "7"], 0),
}

# Fields that describe how the run was executed, not what the model did.
EXECUTION_ATTRS = {"ranks", "git_sha", "wall_seconds"}
EXECUTION_GROUPS = {"partition"}
EXECUTION_COLUMNS = {"wall_seconds"}


def contents(path, execution_attrs=EXECUTION_ATTRS):
    """Every dataset and attribute of the file except the execution fields, as a dict."""
    out = {}
    with h5py.File(path, "r") as f:
        for k, v in f.attrs.items():
            if k not in execution_attrs:
                out["/@" + k] = v

        def visit(name, obj):
            top = name.split("/")[0]
            if top in EXECUTION_GROUPS:
                return
            for k, v in obj.attrs.items():
                if k not in execution_attrs:
                    out[name + "@" + k] = v
            if isinstance(obj, h5py.Dataset) and name.split("/")[-1] not in EXECUTION_COLUMNS:
                out[name] = obj[()]

        f.visititems(visit)
    return out


def same(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--wormnet", required=True)
    p.add_argument("--mpiexec", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("case", choices=sorted(CASES))
    args = p.parse_args()
    command, options, expected = CASES[args.case]
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    files = {}
    for ranks in (1, 2, 3, 4):
        path = os.path.join(args.out, f"{args.case}_np{ranks}.h5")
        cmd = [args.mpiexec, "-n", str(ranks), "--oversubscribe", args.wormnet, command, *options,
               "--quiet", "-o", path]
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        if r.returncode != expected:
            print(f"{ranks} ranks: exit {r.returncode}, expected {expected}\n{r.stdout}\n{r.stderr}")
            return 1
        files[ranks] = contents(path)
    reference = files[1]
    if not any(k.endswith("channel_flits") for k in reference):
        print("no per-channel counts in the file")
        return 1
    failures = 0
    for ranks in (2, 3, 4):
        other = files[ranks]
        if set(other) != set(reference):
            print(f"{ranks} ranks: different objects: {sorted(set(other) ^ set(reference))}")
            failures += 1
            continue
        for key in sorted(reference):
            if not same(reference[key], other[key]):
                print(f"{ranks} ranks: {key} differs from the 1-rank run")
                failures += 1
    with h5py.File(os.path.join(args.out, f"{args.case}_np1.h5"), "r") as f:
        status = f.attrs["status"]
        print(f"{args.case}: status {status}, {len(reference)} objects identical at 1..4 ranks"
              if failures == 0 else f"{failures} differences")
        if expected == 4 and ("points/000/deadlock" not in f):
            print("deadlock case without a deadlock report")
            return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
