#!/usr/bin/env python3
"""Brings the one-point sweep files of a job-array sweep together into one results file, the
file a single `wormnet sweep --loads L0,L1,...` of the same points writes (same schema, same
groups, datasets and attributes: analysis/ reads it unchanged).

usage: merge_points.py -o MERGED.h5 POINT0.h5 POINT1.h5 ...

The inputs are given in load-point order, each written by `wormnet sweep --loads Li` with
otherwise the same configuration (runs/slurm/sweep_array.sbatch does this). The merge

- refuses, and writes nothing, when an input is missing, unfinished (status other than
  complete/deadlock), not a one-point sweep, of another schema or wormnet version, of
  another configuration (any configuration key but `loads`), or computed from other input
  files (the attribute `inputs`: the digests of a routing table or trace);
- takes the network, routing, partition and root attributes from the first file, with the
  configuration's `loads` listing every point and `ranks` from the first file;
- renames each file's points/000 to points/NNN (its position) and stacks the summary rows;
- keeps the sweep's stopping rule: a sweep ends at a deadlock, and `after-saturation` points
  after the first saturated one. Points beyond are left out (and named on stderr), since
  the sweep would not have simulated them; --all keeps them.

The merged file is written next to the target and renamed into place when complete: an
existing file is never left half-written.

What differs from the single sweep: the wall-clock fields (wall_seconds), and, when the tasks
ran on another number of ranks than the first file, nothing else (results do not depend on
the rank count); `ranks` and the partition group are those of the first point's run.
"""
import argparse
import os
import re
import sys

import h5py
import numpy as np

SCHEMA_VERSION = 2  # the results layout of include/wormnet/h5/h5_schema.hpp (kResultsSchemaVersion)
FINISHED = ("complete", "deadlock")
LOADS_LINE = re.compile(r"^loads = \[(.*)\]$", re.M)


class MergeError(Exception):
    pass


def config_key(config, key):
    m = re.search(r"^%s = (.*)$" % re.escape(key), config, re.M)
    return m.group(1) if m else None


def check_point_file(path):
    """Opens a point file and checks it is a finished one-point sweep; returns its facts."""
    if not os.path.exists(path):
        raise MergeError(f"{path}: missing (its array task has not run or not finished)")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise MergeError(f"{path}: not an HDF5 file ({e})") from None
    with f:
        a = f.attrs
        if a.get("schema_version") != SCHEMA_VERSION:
            raise MergeError(f"{path}: not a wormnet results file of schema version {SCHEMA_VERSION}")
        if a.get("command") != "sweep":
            raise MergeError(f"{path}: written by 'wormnet {a.get('command')}', not 'wormnet sweep'")
        status = a.get("status")
        if status not in FINISHED:
            raise MergeError(f"{path}: status '{status}', not finished (resubmitted or failed task?)")
        config = a["config"]
        loads = LOADS_LINE.findall(config)
        if len(loads) != 1 or "," in loads[0]:
            raise MergeError(f"{path}: not a one-point sweep (its configuration has no single "
                             "'loads = [x]')")
        if f["summary/point"].shape[0] != 1 or "points/000" not in f or "points/001" in f:
            raise MergeError(f"{path}: does not hold exactly one finished point")
        return {
            "config": config,
            "load": loads[0],
            "rest": LOADS_LINE.sub("loads = [...]", config),
            "version": (a.get("wormnet_version"), a.get("git_sha")),
            # The digests of the table or trace it read ("" for none): docs/hdf5-schema.md.
            "inputs": a.get("inputs", ""),
            "saturated": int(f["summary/saturated"][0]),
            "deadlock": int(f["summary/deadlock"][0]),
        }


def copy_attrs(src, dst):
    for name in src.attrs:
        dst.attrs.create(name, src.attrs[name], dtype=src.attrs.get_id(name).dtype)


def kept_points(facts, after_saturation):
    """How many points the sweep runs: the driver's stopping rule."""
    left = -1
    for i, p in enumerate(facts):
        if p["deadlock"]:
            return i + 1
        if after_saturation >= 0:
            if left < 0 and p["saturated"]:
                left = after_saturation
            elif left > 0:
                left -= 1
            if left == 0:
                return i + 1
    return len(facts)


def merge(inputs, output, keep_all=False):
    if not inputs:
        raise MergeError("no point files given")
    facts = [check_point_file(p) for p in inputs]
    first = facts[0]
    for path, p in zip(inputs[1:], facts[1:]):
        if p["rest"] != first["rest"]:
            a = first["rest"].splitlines()
            b = p["rest"].splitlines()
            diff = next((f"'{x}' vs '{y}'" for x, y in zip(a, b) if x != y), "different keys")
            raise MergeError(f"{path}: another configuration than {inputs[0]}: {diff}")
        if p["inputs"] != first["inputs"]:
            raise MergeError(f"{path}: computed from other input files (tables, trace) than "
                             f"{inputs[0]}: its attribute 'inputs' differs")
        if p["version"] != first["version"]:
            raise MergeError(f"{path}: written by wormnet {p['version']}, {inputs[0]} by "
                             f"{first['version']}")
    after = config_key(first["config"], "after-saturation")
    n = len(facts) if keep_all else kept_points(facts, int(after) if after else -1)
    for i in range(n, len(facts)):
        print(f"merge_points: point {i} (load {float(facts[i]['load'])!r}, {inputs[i]}) left out: the "
              f"sweep stops after point {n - 1} ("
              f"{'deadlock' if facts[n - 1]['deadlock'] else f'after-saturation = {after}'})",
              file=sys.stderr)
    config = LOADS_LINE.sub("loads = [" + ", ".join(p["load"] for p in facts) + "]",
                            first["config"])

    tmp = output + ".merging"
    try:
        write_merged(inputs, facts, n, config, tmp)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    publish(tmp, output)
    return n


def publish(tmp, output):
    """Renames the finished tmp over output so that a crash of the machine leaves one or the
    other whole: the file's data on the disk before the rename, the directory after it (as
    wormnet publishes its outputs: include/wormnet/io/output_file.hpp)."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, output)
    fd = os.open(os.path.dirname(os.path.abspath(output)), os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_merged(inputs, facts, n, config, tmp):
    with h5py.File(inputs[0], "r") as src, h5py.File(tmp, "w", libver="earliest") as dst:
        copy_attrs(src, dst)
        dst.attrs.create("config", config, dtype=src.attrs.get_id("config").dtype)
        status = "deadlock" if any(p["deadlock"] for p in facts[:n]) else "complete"
        dst.attrs.create("status", status, dtype=src.attrs.get_id("status").dtype)
        for name in src:
            if name not in ("points", "summary"):
                src.copy(src[name], dst, name=name)
        src.copy(src["summary"], dst, name="summary")
        dst.create_group("points")
        copy_attrs(src["points"], dst["points"])
    with h5py.File(tmp, "r+") as dst:
        summary = dst["summary"]
        columns = [c.decode() if isinstance(c, bytes) else c for c in summary.attrs["columns"]]
        rows = {c: [] for c in columns}
        for i, path in enumerate(inputs[:n]):
            with h5py.File(path, "r") as src:
                name = "points/%03d" % i
                src.copy(src["points/000"], dst["points"], name="%03d" % i)
                dst[name].attrs.create("index", np.int64(i),
                                       dtype=src["points/000"].attrs.get_id("index").dtype)
                for c in columns:
                    rows[c].append(src["summary"][c][0])
        rows["point"] = list(range(n))
        for c in columns:
            d = summary[c]
            d.resize((n,))
            d[:] = np.asarray(rows[c], dtype=d.dtype)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-o", "--output", required=True, help="merged results file")
    p.add_argument("--all", action="store_true",
                   help="keep every point, also those after the sweep's stopping point")
    p.add_argument("points", nargs="+", help="one-point sweep files, in load order")
    args = p.parse_args()
    try:
        n = merge(args.points, args.output, args.all)
    except MergeError as e:
        print(f"merge_points: error: {e}", file=sys.stderr)
        return 2
    print(f"merge_points: {n} points -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
