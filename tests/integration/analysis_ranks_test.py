#!/usr/bin/env python3
"""The routing analyses split over MPI ranks: `wormnet verify` and `wormnet info --load` print
the same JSON (times aside) on 1, 2 and 3 ranks, for a deadlock-free routing, a cyclic one,
adaptive ones and honeycomb tori (whose fractional loads must still add up bit for bit). Every rank explores
its share of the destinations; the dependency graph is combined by OR, the loads by an exact
sum, the first defect by destination order.

usage: analysis_ranks_test.py --wormnet BIN --mpiexec MPIEXEC
"""
import argparse
import json
import subprocess
import sys

CASES = [
    ("verify", ["-t", "honeycomb:4", "-r", "double-xy-turn"], 0),
    ("verify", ["-t", "honeycomb:4", "-r", "stojmenovic"], 1),
    ("verify", ["-t", "torus:5x4", "-r", "dor-dateline"], 0),
    ("info", ["--load", "-t", "honeycomb:5", "-r", "minimal-adaptive"], 0),
    ("info", ["--load", "-t", "mesh:6x5", "-r", "west-first"], 0),
    # Honeycomb tori (distances not separable) and Duato's escape channels.
    ("verify", ["-t", "honeycomb-torus:2", "-r", "duato"], 0),
    ("info", ["--load", "-t", "honeycomb-rect:4x4", "-r", "stojmenovic-dateline"], 0),
]
TIMES = {"seconds", "analysis_seconds"}


def run(args, ranks, command, rest, expected):
    cmd = [args.mpiexec, "-n", str(ranks), "--oversubscribe", args.wormnet, command] + rest + ["--json"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != expected:
        sys.exit("%s: exit %d, expected %d\n%s" % (" ".join(cmd), p.returncode, expected, p.stderr))
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if len(lines) != 1:
        sys.exit("%s: expected one JSON line (rank 0 prints), got %d" % (" ".join(cmd), len(lines)))
    out = json.loads(lines[0])
    for k in TIMES:
        out.pop(k, None)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--wormnet", required=True)
    p.add_argument("--mpiexec", required=True)
    args = p.parse_args()
    for command, rest, expected in CASES:
        one = run(args, 1, command, rest, expected)
        for ranks in (2, 3):
            other = run(args, ranks, command, rest, expected)
            if other != one:
                diff = {k: (one.get(k), other.get(k)) for k in set(one) | set(other)
                        if one.get(k) != other.get(k)}
                sys.exit("%s %s: %d ranks differ from 1 rank: %s" % (command, " ".join(rest), ranks, diff))
        print("ok   %s %s" % (command, " ".join(rest)))


if __name__ == "__main__":
    main()
