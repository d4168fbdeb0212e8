#!/usr/bin/env python3
"""Networks with failed links and nodes (docs/faults.md), end to end with the files:
- a run with faults stopped at a checkpoint and restarted on other rank counts (and from the
  checkpoint alone) ends bit-identical to the uninterrupted run;
- the results file records the faults in /faults: the failed node ids and the failed links'
  + channel ids as worked out from the coordinates (mesh ids are x + kx y, channels numbered
  by source node then port, only the ports a node has), every failed channel, the counts;
- the per-node rates are per working node: created flits / (working nodes x cycles);
- `tables` on a torus with faults checks its table on the faulty network (the generators do
  not route around faults yet: the proof names a route over a failed channel, exit 1) and
  records the faults in the table file.

usage: faults_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR [unittest args]
"""
import os
import shutil
import subprocess
import sys
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rank_determinism_test import contents, same  # noqa: E402

WORMNET = MPIEXEC = OUT = None
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def wormnet(args, ranks=1, timeout=600):
    cmd = ([MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET, *args] if ranks > 1
           else [WORMNET, *args])
    return subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=timeout,
                          cwd=OUT)


def path(name):
    return os.path.join(OUT, name)


# mesh:6x5 without its two east corners (5,0) and (5,4): west-first routes around them (on a
# 2-D mesh the only faults it does; every other routing but a table needs the failed links
# of some working pair: docs/faults.md).
FAULTS = "# the east corners\nnode (5,0)\nnode (5,4)   # north-east\n"
RUN = ["run", "-t", "mesh:6x5", "-r", "west-first", "--faults", "f.txt", "--load", "0.15",
       "--length-min", "3", "--length-max", "12", "--warmup", "300", "--measure", "3000",
       "--stats-window", "250"]


class FaultRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(path("f.txt"), "w") as f:
            f.write(FAULTS)
        r = wormnet([*RUN, "-q", "-o", "full.h5"])
        assert r.returncode == 0, r.stderr

    def check_same(self, a, b):
        ca, cb = contents(a), contents(b)
        self.assertEqual(sorted(ca), sorted(cb))
        self.assertEqual([k for k in ca if not same(ca[k], cb[k])], [])

    def stop_and_restart(self, before, after, stop_at, name, alone=False):
        ck = name + ".ck"
        shutil.rmtree(path(ck), ignore_errors=True)
        out = name + ".h5"
        r = wormnet([*RUN, "-q", "-o", out, "--stop-at-cycle", str(stop_at), "--checkpoint-dir",
                     ck], ranks=before)
        self.assertEqual(r.returncode, 5, r.stderr)
        args = ["run", "--restart", ck, "-q"] if alone else [*RUN, "-q", "-o", out, "--restart",
                                                              ck]
        r = wormnet(args, ranks=after)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(path("full.h5"), path(out))

    def test_restart_on_another_rank_count(self):
        self.stop_and_restart(1, 3, 1500, "r13")
        self.stop_and_restart(2, 1, 900, "r21")

    def test_restart_from_the_checkpoint_alone(self):
        self.stop_and_restart(2, 2, 2200, "r22", alone=True)

    def test_the_file_records_the_faults(self):
        kx = 6
        failed = [5 + kx * 0, 5 + kx * 4]  # (5,0) and (5,4)
        with h5py.File(path("full.h5"), "r") as f:
            g = f["faults"]
            self.assertEqual(list(g["nodes"][()]), failed)
            self.assertEqual(len(g["links"][()]), 0)
            self.assertEqual(g.attrs["failed_nodes"], 2)
            self.assertEqual(g.attrs["working_nodes"], 28)
            # mesh:6x5 has 5 x 5 + 6 x 4 = 49 links; each corner has two.
            self.assertEqual(g.attrs["working_links"], 49 - 4)
            self.assertEqual(g.attrs["file"].decode() if isinstance(g.attrs["file"], bytes)
                             else g.attrs["file"], "f.txt")
            # Every failed channel: both directions of the corners' four links.
            src = f["topology/channel_source"][()]
            dst = f["topology/channel_dest"][()]
            expect = sorted(c for c in range(len(src)) if src[c] in failed or dst[c] in failed)
            self.assertEqual(list(g["channels"][()]), expect)
            self.assertEqual(len(expect), 8)
            # No flit crossed a failed channel.
            flits = f["points/000/channel_flits"][()]
            self.assertTrue(np.all(flits[expect] == 0))
            # Offered load per working node: created flits / (28 x cycles) in each window.
            ts = f["points/000/timeseries"]
            created, cycles = ts["created_flits"][()], ts["cycles"][()]
            self.assertTrue(np.allclose(ts["offered"][()], created / (28.0 * cycles)))
            self.assertIn('faults = "f.txt"', f.attrs["config"])

    def test_silenced_sources(self):
        # Transpose on mesh:6x5 is the bit rotation of the ids (30 is no power of two: refused)
        # -- tornado instead: (x, y) -> (x + 2, y + 2) mod (6, 5); (3,2) -> (5,4) has failed,
        # and (3,3) -> (5,0): two working sources fall silent.
        r = wormnet([*RUN, "--traffic", "tornado", "-o", "tornado.h5"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("2 working sources send nothing", r.stdout)
        with h5py.File(path("tornado.h5"), "r") as f:
            self.assertEqual(f["faults"].attrs["silenced_sources"], 2)


class FaultTables(unittest.TestCase):
    def test_a_table_is_checked_on_the_faulty_network(self):
        with open(path("t.txt"), "w") as f:
            f.write("link (1,2) X+\n")
        r = wormnet(["tables", "-t", "torus:4x4", "-a", "bfs", "--faults", "t.txt", "-o", "t.h5"])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("faults     1 failed link, 0 failed nodes", r.stdout)
        self.assertRegex(r.stdout, r"defect +route .*: takes (\(1,2\) X\+ -> \(2,2\)|"
                                   r"\(2,2\) X- -> \(1,2\)), a failed channel")
        with h5py.File(path("t.h5"), "r") as f:
            # (1,2) X+ is channel 4 (1 + 4 x 2) x 4 ports + X+ = 36 on torus:4x4.
            self.assertEqual(list(f["faults/links"][()]), [36])
            self.assertEqual(sorted(f["faults/channels"][()]), [36, 4 * (2 + 4 * 2) + 1])
            self.assertEqual(f["proof"].attrs["complete"], 0)
            self.assertEqual(f["metrics"].attrs["pairs"], 16 * 15)


def main():
    global WORMNET, MPIEXEC, OUT
    import argparse
    p = argparse.ArgumentParser()
    p.add_argument("--wormnet", required=True)
    p.add_argument("--mpiexec", required=True)
    p.add_argument("--out", required=True)
    args, rest = p.parse_known_args()
    WORMNET, MPIEXEC, OUT = os.path.abspath(args.wormnet), args.mpiexec, os.path.abspath(args.out)
    os.makedirs(OUT, exist_ok=True)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
