#!/usr/bin/env python3
"""Networks with failed links and nodes (docs/faults.md), end to end with the files:
- a run with faults stopped at a checkpoint and restarted on other rank counts (and from the
  checkpoint alone) ends bit-identical to the uninterrupted run;
- the results file records the faults in /faults: the failed node ids and the failed links'
  + channel ids as worked out from the coordinates (mesh ids are x + kx y, channels numbered
  by source node then port, only the ports a node has), every failed channel, the counts;
- the per-node rates are per working node: created flits / (working nodes x cycles);
- tables around faults (docs/tables.md section 8): a hand-worked table on torus:4x4 with one
  failed link and every pair's length against a brute force of the Angara routes; a fault set
  that leaves pairs without a legal route, reported by `tables` (exit 2 unless
  --allow-unroutable), proven by `verify`, refused by `run` when the traffic needs them; the
  deadlock proof refusing a broken faulty table; tables and runs with faults the same on 1..4
  ranks and across a restart; analysis/faults_study.py reporting the figures of its files.

usage: faults_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR [unittest args]
"""
import os
import re
import shutil
import subprocess
import sys
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rank_determinism_test import contents, same  # noqa: E402
import wormnet_seal  # noqa: E402

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


# ---- Tables around faults (docs/tables.md section 8) ----

def angara_lengths(sizes, failed_channels, turns):
    """Brute force, independent of the generators: the length of the shortest Angara route of
    every pair of a torus (node id = x + kx y + ..., ports 2 dim (+) and 2 dim + 1 (-),
    directions +X +Y .. -X -Y ..) over the working channels, with the added turns `turns`
    [node][arrival direction] (bit j: may leave in direction j); None where no route is
    legal. A route is an optional first step (one + hop), the direction-order part (the
    directions in increasing order, one sign per dimension, each ring less than once round)
    and an optional last step (one - hop) after a non-empty direction-order part; a first
    step followed by an earlier direction, or a last step after a later one, needs its added
    turn. Every combination of first step, last step and signs is tried."""
    n = len(sizes)
    nodes = 1
    for k in sizes:
        nodes *= k
    ports = 2 * n

    def coords(v):
        c = []
        for k in sizes:
            c.append(v % k)
            v //= k
        return c

    def node(c):
        v, m = 0, 1
        for x, k in zip(c, sizes):
            v += (x % k) * m
            m *= k
        return v

    def port(o):  # direction -> port
        return 2 * (o % n) + (1 if o >= n else 0)

    def step(v, o):
        c = coords(v)
        c[o % n] += -1 if o >= n else 1
        return node(c)

    best = {}
    for s in range(nodes):
        for d in range(nodes):
            if s == d:
                continue
            length = None
            for fs in [None, *range(n)]:
                for ls in [None, *range(n)]:
                    for signs in range(1 << n):
                        path = []  # (node, direction) per hop
                        v = s
                        if fs is not None:
                            path.append((v, fs))
                            v = step(v, fs)
                        target = coords(d)
                        if ls is not None:
                            target[ls] += 1  # the node before the last step
                        middle = []
                        for o in range(2 * n):
                            dim, minus = o % n, o >= n
                            if ((signs >> dim) & 1) != minus:
                                continue
                            delta = (target[dim] - coords(v)[dim]) % sizes[dim]
                            hops = (sizes[dim] - delta) % sizes[dim] if minus else delta
                            for _ in range(hops):
                                path.append((v, o))
                                middle.append(o)
                                v = step(v, o)
                        if ls is not None:
                            if not middle:
                                continue
                            path.append((v, n + ls))
                            v = step(v, n + ls)
                        if v != d:
                            continue
                        if fs is not None and middle and middle[0] < fs:
                            at = step(s, fs)
                            if not (turns[at][fs] >> middle[0]) & 1:
                                continue
                        if ls is not None and n + ls < middle[-1]:
                            at = path[-1][0]
                            if not (turns[at][middle[-1]] >> (n + ls)) & 1:
                                continue
                        if any(u * ports + port(o) in failed_channels for u, o in path):
                            continue
                        if length is None or len(path) < length:
                            length = len(path)
            best[s, d] = length
    return best


def torus_distance(sizes, s, d):
    total = 0
    for k in sizes:
        a, b = s % k, d % k
        s //= k
        d //= k
        total += min((a - b) % k, (b - a) % k)
    return total


TABLE_SIM = ["--buffer", "40", "--length", "20", "--warmup", "200", "--measure", "600",
             "--load", "0.05"]


class FaultTables(unittest.TestCase):
    """torus:4x4 (node id x + 4 y, channel id 4 node + port, ports X+ X- Y+ Y-) with the link
    (0,0)-(1,0) failed, and with (1,1) left a single link."""

    @classmethod
    def setUpClass(cls):
        with open(path("one.txt"), "w") as f:
            f.write("link (0,0) (1,0)\n")
        with open(path("leaf.txt"), "w") as f:
            f.write("link (1,1) X+\nlink (1,1) Y+\nlink (1,1) Y-\n")
        for a in ("bfs", "sssp", "genetic"):
            name = path(f"one-{a}.h5")
            if os.path.exists(name):
                os.remove(name)
            r = wormnet(["tables", "-t", "torus:4x4", "-a", a, "--faults", "one.txt", "-o",
                         name])
            assert r.returncode == 0, r.stdout + r.stderr

    def brute_force(self, f):
        failed = set(int(c) for c in f["faults/channels"][()])
        return angara_lengths([4, 4], failed, f["turns"][()])

    def test_hand_worked_routes_around_one_failed_link(self):
        # Without added turns (none are added here: the file says so) the Angara routes are:
        #   (0,0) -> (1,0): not +X (failed); only -X three times round the ring: 3 hops,
        #     word 64 (- in X);
        #   (1,0) -> (0,0): +X three times, or +Y -X -Y (first step +Y, then -X and -Y in
        #     the direction order): 3 hops;
        #   (0,0) -> (1,1): +X +Y starts on the failed link, +Y +X would need an added turn;
        #     +Y then -X three times is the only one: 4 hops, word 64 (+ in Y, - in X);
        #   (0,0) -> (1,2): -X three times then -Y twice, or +Y then +Y -X -X -X...: 5 hops;
        #   (2,2) -> (3,3): as without faults, 2 hops.
        expect = {(0, 1): 3, (1, 0): 3, (0, 5): 4, (0, 9): 5, (10, 15): 2}
        for a in ("bfs", "sssp", "genetic"):
            with self.subTest(algorithm=a), h5py.File(path(f"one-{a}.h5"), "r") as f:
                self.assertEqual(int(f["turns"][()].sum()), 0)
                lengths = f["route_lengths"][()]
                routes = f["routes"][()]
                for (s, d), hops in expect.items():
                    self.assertEqual(lengths[s, d], hops, (s, d))
                self.assertEqual(routes[0, 1], 64)
                self.assertEqual(routes[0, 5], 64)
                self.assertEqual(f["proof"].attrs["complete"], 1)
                self.assertEqual(f["proof"].attrs["deadlock_free"], 1)
                self.assertEqual(f["metrics"].attrs["unroutable_pairs"], 0)
                self.assertEqual(f["metrics"].attrs["pairs"], 240)
                # Every pair: the brute force's shortest legal route, and the stretch over
                # the fault-free distance.
                best = self.brute_force(f)
                stretch = f["stretch"][()]
                ratios = []
                for s in range(16):
                    self.assertEqual(lengths[s, s], 0)
                    for d in range(16):
                        if s == d:
                            continue
                        self.assertEqual(lengths[s, d], best[s, d], (s, d))
                        dist = torus_distance([4, 4], s, d)
                        self.assertEqual(stretch[s, d], lengths[s, d] / dist)
                        ratios.append(lengths[s, d] / dist)
                self.assertAlmostEqual(f["metrics"].attrs["mean_stretch"],
                                       sum(ratios) / len(ratios), places=12)
                self.assertEqual(f["metrics"].attrs["max_stretch"], 3.0)
                self.assertEqual(f["metrics"].attrs["max_route_length"], max(best.values()))

    def test_a_pair_without_legal_route_is_reported(self):
        # (1,1) keeps only its link to (0,1): a packet leaves it -X, and enters it +X from
        # (0,1), which only a route that is +X alone reaches ((1,0) -> (1,1) would need +X
        # after the wrap, +Y, then +X again). The brute force names the same pairs.
        r = wormnet(["tables", "-t", "torus:4x4", "-a", "sssp", "--faults", "leaf.txt", "-o",
                     "leaf.h5"])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertFalse(os.path.exists(path("leaf.h5")))  # refused: nothing written
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertRegex(lines[0], r"^wormnet: error: --faults 'leaf.txt': 14 working pairs "
                                   r"have no legal Angara route around these faults "
                                   r"\(\(1,0\) -> \(1,1\), ")
        self.assertIn("--allow-unroutable", lines[0])
        self.assertEqual(r.stdout, "")
        for a in ("bfs", "sssp", "genetic"):
            name = f"leaf-{a}.h5"
            if os.path.exists(path(name)):
                os.remove(path(name))
            r = wormnet(["tables", "-t", "torus:4x4", "-a", a, "--faults", "leaf.txt",
                         "--allow-unroutable", "-o", name])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("14 without a legal route ((1,0) -> (1,1), (2,0) -> (1,1)", r.stdout)
            with h5py.File(path(name), "r") as f:
                best = self.brute_force(f)
                lengths = f["route_lengths"][()]
                routes = f["routes"][()]
                none = sorted(k for k, v in best.items() if v is None)
                self.assertEqual(len(none), 14)
                self.assertEqual(sorted((s, d) for s in range(16) for d in range(16)
                                        if s != d and lengths[s, d] == 65535), none)
                for s, d in none:
                    self.assertEqual(routes[s, d], 65535)
                for (s, d), hops in best.items():
                    if hops is not None:
                        self.assertEqual(lengths[s, d], hops, (a, s, d))
                self.assertEqual(f["metrics"].attrs["unroutable_pairs"], 14)
                self.assertEqual(f["metrics"].attrs["pairs"], 240 - 14)
        # verify proves the pairs the table claims; run refuses traffic that needs the others.
        r = wormnet(["verify", "-t", "torus:4x4", "-r", "table", "--tables", "leaf-sssp.h5",
                     "--faults", "leaf.txt"])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("delivery   ok: 226 pairs", r.stdout)
        self.assertIn("unclaimed  14 working pairs", r.stdout)
        self.assertIn("DEADLOCK-FREE", r.stdout)
        r = wormnet(["run", "-t", "torus:4x4", "-r", "table", "--tables", "leaf-sssp.h5",
                     "--faults", "leaf.txt", *TABLE_SIM])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertRegex(r.stderr, r"^wormnet: error: --tables 'leaf-sssp.h5': the traffic "
                                   r"needs 14 working pairs without a route")
        # The load analysis of a pattern that needs them (hotspot: every working pair) is
        # over the pairs the table claims, and says how many it left out (it said "FAILED:
        # dead end" at the first unclaimed pair); the uniform figures say so too.
        r = wormnet(["info", "-t", "torus:4x4", "-r", "table", "--tables", "leaf-sssp.h5",
                     "--faults", "leaf.txt", "--load", "--traffic", "hotspot"])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("FAILED", r.stdout)
        self.assertIn("traffic           hotspot: 226 pairs", r.stdout)
        self.assertRegex(r.stdout, r"unclaimed +14 working pairs of the traffic have no route "
                                   r"in the table")
        self.assertRegex(r.stdout, r"unclaimed +14 working pairs have no route in the table: "
                                   r"the uniform figures are over the 226 it claims")
        # neighbor traffic ((x,y) -> (x+1,y)) needs none of them: (1,1) -> (2,1) goes -X.
        r = wormnet(["run", "-t", "torus:4x4", "-r", "table", "--tables", "leaf-sssp.h5",
                     "--faults", "leaf.txt", "--traffic", "neighbor", *TABLE_SIM])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("status     ok", r.stdout)

    def test_three_dimensions_against_the_brute_force(self):
        # torus:4x4x3 without 6 random links (fault seed 3): the augmentation adds a turn where
        # a ring broke, and 2 pairs have no legal route; every generator's route lengths and
        # unrouted pairs are the brute force's with the file's turns (the same in every file).
        best = None
        for a in ("bfs", "sssp", "genetic"):
            name = f"three-{a}.h5"
            if os.path.exists(path(name)):
                os.remove(path(name))
            r = wormnet(["tables", "-t", "torus:4x4x3", "-a", a, "--fail-links", "6",
                         "--fault-seed", "3", "--max-generations", "5", "--allow-unroutable",
                         "-q", "-o", name])
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(path(name), "r") as f:
                turns = f["turns"][()]
                self.assertEqual(int((turns != 0).sum()), 1)
                if best is None:
                    best = angara_lengths([4, 4, 3],
                                          set(int(c) for c in f["faults/channels"][()]), turns)
                    first_turns = turns
                self.assertTrue(np.array_equal(turns, first_turns))
                lengths = f["route_lengths"][()]
                got = {k: (None if lengths[k] == 65535 else int(lengths[k])) for k in best}
                self.assertEqual(got, best, a)
                self.assertEqual(sum(v is None for v in best.values()), 2)
                self.assertEqual(f["metrics"].attrs["unroutable_pairs"], 2)

    def test_drop_unroutable_drops_and_counts(self):
        # --drop-unroutable: uniform traffic with a table that leaves 14 of the 240 working
        # pairs without a route drops the messages to them at their sources and counts them:
        # about 14/240 of the messages drawn; the same count on 1 and 3 ranks and across a
        # restart (it is derived from state every checkpoint holds).
        name = "drop-table.h5"
        if os.path.exists(path(name)):
            os.remove(path(name))
        r = wormnet(["tables", "-t", "torus:4x4", "-a", "bfs", "--faults", "leaf.txt",
                     "--allow-unroutable", "-q", "-o", name])
        self.assertEqual(r.returncode, 0, r.stderr)
        run = ["run", "-t", "torus:4x4", "-r", "table", "--tables", name, "--faults",
               "leaf.txt", "--buffer", "40", "--length", "20", "--warmup", "200", "--measure",
               "6000", "--load", "0.2", "--drop-unroutable"]
        outs = {}
        for ranks, out in ((1, "drop1.h5"), (3, "drop3.h5")):
            if os.path.exists(path(out)):
                os.remove(path(out))
            r = wormnet([*run, "-o", out], ranks=ranks)
            self.assertEqual(r.returncode, 0, r.stderr)
            outs[ranks] = r.stdout
        m = re.search(r"dropped +(\d+) messages", outs[1])
        self.assertIsNotNone(m, outs[1])
        with h5py.File(path("drop1.h5"), "r") as f:
            p = f["points/000"]
            dropped = int(p.attrs["dropped_messages"])
            created = int(p["timeseries"]["created_flits"][()].sum()) // 20
            self.assertIn("drop-unroutable = true", f.attrs["config"])
        self.assertEqual(dropped, int(m.group(1)))
        drawn = dropped + created
        expect = drawn * 14 / 240
        self.assertLess(abs(dropped - expect), 4 * (expect * (1 - 14 / 240)) ** 0.5,
                        (dropped, drawn))
        ca, cb = contents(path("drop1.h5")), contents(path("drop3.h5"))
        self.assertEqual([k for k in ca if not same(ca[k], cb[k])], [])
        ck = path("drop.ck")
        shutil.rmtree(ck, ignore_errors=True)
        if os.path.exists(path("dropr.h5")):
            os.remove(path("dropr.h5"))
        r = wormnet([*run, "-o", "dropr.h5", "--stop-at-cycle", "3000", "--checkpoint-dir", ck],
                    ranks=2)
        self.assertEqual(r.returncode, 5, r.stderr)
        r = wormnet(["run", "--restart", ck, "-q"])
        self.assertEqual(r.returncode, 0, r.stderr)
        cr = contents(path("dropr.h5"))
        self.assertEqual([k for k in ca if not same(ca[k], cr[k])], [])

    def test_deadlock_proof_rejects_a_broken_faulty_table(self):
        # Turns +Y -> +X added at every node, and the routes (x,y) -> (x+1,y+1) alternately
        # +X +Y and first step +Y then +X along the diagonal (0,1), (1,1), (1,2), (2,2), ...:
        # their channels close a cycle between the X and the Y rings, none over the failed
        # link. Every route is legal with those turns; only the proof can refuse the table.
        name = path("cycle.h5")
        shutil.copyfile(path("one-sssp.h5"), name)
        with h5py.File(name, "r+") as f:
            turns = f["turns"][()]
            turns[:, 1] |= 1  # arrival +Y: may leave +X
            f["turns"][...] = turns
            routes = f["routes"][()]
            for x, y in ((0, 1), (1, 2), (2, 3), (3, 0)):  # +X then +Y: word 0
                routes[x + 4 * y, (x + 1) % 4 + 4 * ((y + 1) % 4)] = 0
            for x, y in ((1, 1), (2, 2), (3, 3), (0, 0)):  # first step +Y, then +X: word 2
                routes[x + 4 * y, (x + 1) % 4 + 4 * ((y + 1) % 4)] = 2
            f["routes"][...] = routes
        wormnet_seal.reseal(name)
        for cmd in (["verify"], ["run", *TABLE_SIM]):
            r = wormnet([*cmd, "-t", "torus:4x4", "-r", "table", "--tables", "cycle.h5",
                         "--faults", "one.txt"])
            self.assertEqual(r.returncode, 2, r.stderr)
            lines = r.stderr.splitlines()
            self.assertEqual(len(lines), 1, r.stderr)
            self.assertIn("--tables", lines[0])
            self.assertIn("cycle between rings", lines[0])
        # The untouched table passes.
        r = wormnet(["verify", "-t", "torus:4x4", "-r", "table", "--tables", "one-sssp.h5",
                     "--faults", "one.txt"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("DEADLOCK-FREE", r.stdout)

    def test_tables_with_faults_on_one_to_four_ranks(self):
        # The genetic table does not depend on the rank count; a table made on 3 ranks is
        # checked the same (metrics, stretch) as on one; a run with it is bit-identical on 1
        # and 4 ranks and across a restart on another rank count.
        with open(path("three.txt"), "w") as f:
            f.write("link (0,0,0) (1,0,0)\nnode (2,2,1)\nlink (3,1,2) Z+\n")
        base = ["tables", "-t", "torus:4x4x3", "--faults", "three.txt", "--seed", "4",
                "--allow-unroutable", "-q"]
        for ranks in (1, 2, 4):
            name = f"gen{ranks}.h5"
            if os.path.exists(path(name)):
                os.remove(path(name))
            r = wormnet([*base, "-a", "genetic", "--max-generations", "12", "-o", name],
                        ranks=ranks)
            self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(path("gen1.h5"), "r") as a:
            for ranks in (2, 4):
                with h5py.File(path(f"gen{ranks}.h5"), "r") as b:
                    for k in ("routes", "turns", "loads", "route_lengths", "stretch"):
                        self.assertTrue(np.array_equal(a[k][()], b[k][()]), (ranks, k))
                    for k in ("pi", "sigma4", "mean_stretch", "max_stretch", "pairs"):
                        self.assertEqual(a["metrics"].attrs[k], b["metrics"].attrs[k], k)
        if os.path.exists(path("bfs3.h5")):
            os.remove(path("bfs3.h5"))
        r = wormnet([*base, "-a", "bfs", "-o", "bfs3.h5"], ranks=3)
        self.assertEqual(r.returncode, 0, r.stderr)
        run = ["run", "-t", "torus:4x4x3", "-r", "table", "--tables", "bfs3.h5", "--faults",
               "three.txt", "--traffic", "tornado", "--buffer", "40", "--length", "20",
               "--warmup", "200", "--measure", "1500", "--load", "0.1", "-q"]
        for ranks, name in ((1, "t1.h5"), (4, "t4.h5")):
            if os.path.exists(path(name)):
                os.remove(path(name))
            r = wormnet([*run, "-o", name], ranks=ranks)
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(contents(path("t1.h5"))["/@config"], contents(path("t4.h5"))["/@config"])
        ca, cb = contents(path("t1.h5")), contents(path("t4.h5"))
        self.assertEqual([k for k in ca if not same(ca[k], cb[k])], [])
        ck = path("t.ck")
        shutil.rmtree(ck, ignore_errors=True)
        if os.path.exists(path("tr.h5")):
            os.remove(path("tr.h5"))
        r = wormnet([*run, "-o", "tr.h5", "--stop-at-cycle", "900", "--checkpoint-dir", ck],
                    ranks=2)
        self.assertEqual(r.returncode, 5, r.stderr)
        r = wormnet([*run, "-o", "tr.h5", "--restart", ck], ranks=3)
        self.assertEqual(r.returncode, 0, r.stderr)
        cr = contents(path("tr.h5"))
        self.assertEqual([k for k in ca if not same(ca[k], cr[k])], [])


class FaultStudyAnalysis(unittest.TestCase):
    """analysis/faults_study.py (docs/faults_study.md) on tiny files named as
    runs/faults_study.sh names them: its rows are the files' figures."""

    def test_rows_are_the_files_figures(self):
        import json
        study = path("study")
        shutil.rmtree(study, ignore_errors=True)
        os.makedirs(study)
        faults = {"none": [], "links2_s1": ["--fail-links", "2", "--fault-seed", "1"]}
        for name, opts in faults.items():
            for a in ("bfs", "genetic", "sssp"):
                base = os.path.join(study, f"table_4x4x3_{name}_{a}")
                r = wormnet(["tables", "-t", "torus:4x4x3", "-a", a, "--max-generations", "5",
                             *opts, "--json", "-o", base + ".h5"])
                self.assertEqual(r.returncode, 0, r.stderr)
                with open(base + ".json", "w") as f:
                    f.write(r.stdout)
        sweep = os.path.join(study, "sweep_4x4x3_links2_s1_sssp_uniform.h5")
        r = wormnet(["sweep", "-t", "torus:4x4x3", "-r", "table", "--tables",
                     os.path.join(study, "table_4x4x3_links2_s1_sssp.h5"), "--fail-links", "2",
                     "--fault-seed", "1", "--length", "8", "--buffer", "32", "--warmup", "200",
                     "--measure", "500", "--loads", "0.1,0.2", "-q", "-o", sweep])
        self.assertEqual(r.returncode, 0, r.stderr)
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                              "analysis", "faults_study.py")
        p = subprocess.run([sys.executable, script, study], capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(study, "table_4x4x3_links2_s1_sssp.json")) as f:
            sssp = json.load(f)
        pis = []
        for a in ("bfs", "genetic", "sssp"):
            with open(os.path.join(study, f"table_4x4x3_links2_s1_{a}.json")) as f:
                pis.append(f"{json.load(f)['pi']:.0f}")
        row = [line for line in p.stdout.splitlines() if line.startswith("| 4x4x3 | 2 links | 1 | ")]
        self.assertEqual(len(row), 1, p.stdout)
        self.assertIn(f"| {sssp['mean_stretch']:.4f} |", row[0])
        self.assertIn(" / ".join(pis), row[0])
        with h5py.File(sweep, "r") as f:
            accepted = max(f[f"points/{i:03d}"].attrs["accepted"] for i in range(2))
        rate = [line for line in p.stdout.splitlines()
                if line.startswith("| 4x4x3 | 2 links | ")][-1]
        self.assertIn(f"| {sssp['saturation_rate']:.4f} | {accepted:.3f} | - |", rate)


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
