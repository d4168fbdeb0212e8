#!/usr/bin/python3
"""Command-line tests of routing tables: `wormnet tables`, and tables files handed to
`wormnet run/verify --routing table --tables FILE`. Every bad input (a file for another
topology, a missing pair, a route that leaves the network, a route that is not minimal, a
truncated file, bad generator options) must give exit code 2 and exactly one line on stderr
naming the option and the value. Bad files are made from a good one with h5py.

    tables_cli_test.py --wormnet PATH --out DIR [unittest arguments]
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wormnet_seal  # noqa: E402

WORMNET = "wormnet"
OUT = "."
MADE = set()  # files made by this run

# torus:4x4x2: node id = x + 4y + 16z.
TOPO = "torus:4x4x2"
SIM = ["--buffer", "40", "--length", "20", "--warmup", "200", "--measure", "500",
       "--load", "0.05"]


def run(*args):
    p = subprocess.run([WORMNET, *args], capture_output=True, text=True, timeout=300,
                       check=False)
    return p.returncode, p.stdout, p.stderr


def path(name):
    return os.path.join(OUT, name)


def good_file():
    """A checked SSSP table for torus:4x4x2 (made once)."""
    p = path("good.h5")
    if p not in MADE:  # once per test run: a file left by another build may be stale
        rc, _, err = run("tables", "-t", TOPO, "-a", "sssp", "-o", p, "-q")
        assert rc == 0, err
        MADE.add(p)
    return p


def broken_copy(name, edit, reseal=True):
    """A copy of the good file with `edit(h5py file)` applied, sealed again (so that the
    loader's checks of the content see the edit) unless `reseal` is false."""
    p = path(name)
    shutil.copyfile(good_file(), p)
    with h5py.File(p, "r+") as f:
        edit(f)
    if reseal:
        wormnet_seal.reseal(p)
    return p


class Tables(unittest.TestCase):
    def expect_one_line(self, args, *named):
        rc, out, err = run(*args)
        self.assertEqual(rc, 2, f"{args}: exit code {rc}, stderr {err!r}")
        self.assertEqual(out, "", f"{args}: stdout should be empty")
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, f"{args}: {err!r}")
        self.assertTrue(lines[0].startswith("wormnet: error: "), lines[0])
        for word in named:
            self.assertIn(word, lines[0], f"{args}")
        for trace in ("terminate called", "what():", "Aborted", "internal error",
                      "Traceback", "HDF5-DIAG"):
            self.assertNotIn(trace, err)

    def expect_refused(self, table, *named):
        for cmd in (["run", *SIM], ["verify"]):
            self.expect_one_line([*cmd, "-t", TOPO, "-r", "table", "--tables", table],
                                 "--tables", table, *named)

    def test_good_table_runs_and_verifies(self):
        rc, out, err = run("run", "-t", TOPO, "-r", "table", "--tables", good_file(), *SIM)
        self.assertEqual(rc, 0, err)
        self.assertIn("status     ok", out)
        rc, out, err = run("verify", "-t", TOPO, "-r", "table", "--tables", good_file())
        self.assertEqual(rc, 0, err)
        self.assertIn("DEADLOCK-FREE", out)
        self.assertIn("all routes minimal", out)

    def test_table_of_another_topology(self):
        other = path("other.h5")
        rc, _, err = run("tables", "-t", "torus:4x4x4", "-a", "bfs", "-o", other, "-q")
        self.assertEqual(rc, 0, err)
        self.expect_refused(other, "torus:4x4x4", "torus:4x4x2")

    def test_missing_pair(self):
        def edit(f):
            f["routes"][3, 17] = 65535
        self.expect_refused(broken_copy("missing.h5", edit), "(3,0,0) -> (1,0,1)", "missing")

    def test_route_leaving_the_network(self):
        def edit(f):
            f["routes"][0, 16] = 4 << 6  # (0,0,0) -> (0,0,1) going - in Z: no link there
        self.expect_refused(broken_copy("leaves.h5", edit), "(0,0,0) -> (0,0,1)",
                            "leaves the network")

    def test_route_not_minimal(self):
        def edit(f):
            f["routes"][0, 1] = 1 << 6  # (0,0,0) -> (1,0,0) going - round the X ring: 3 hops
        self.expect_refused(broken_copy("long.h5", edit), "(0,0,0) -> (1,0,0)", "not minimal")

    def test_changed_file_fails_its_seal(self):
        # Any byte changed after wormnet wrote the table, data or HDF5 metadata alike, is
        # refused before HDF5 parses the file (HDF5 1.10 crashed on damaged metadata).
        def edit(f):
            f["routes"][3, 17] = 65535
        self.expect_refused(broken_copy("unsealed.h5", edit, reseal=False), "damaged",
                            "checksum")
        p = path("flipped.h5")
        shutil.copyfile(good_file(), p)
        with open(p, "r+b") as f:
            f.seek(700)  # the superblock, right after the 512-byte seal
            byte = f.read(1)
            f.seek(700)
            f.write(bytes([byte[0] ^ 0x40]))
        self.expect_refused(p, "damaged", "checksum")
        self.expect_refused(good_file() + ".nonexistent")

    def test_truncated_file(self):
        p = path("truncated.h5")
        shutil.copyfile(good_file(), p)
        with open(p, "r+b") as f:
            f.truncate(os.path.getsize(p) // 2)
        self.expect_refused(p)

    def test_not_a_table_file(self):
        p = path("plain.h5")
        with h5py.File(p, "w") as f:
            f.attrs["schema_version"] = 1
        self.expect_refused(p, "not a routing-table file")

    def test_table_routing_without_file(self):
        self.expect_one_line(["verify", "-t", TOPO, "-r", "table"], "--tables")

    def test_tables_file_with_another_routing(self):
        self.expect_one_line(["verify", "-t", TOPO, "-r", "angara", "--tables", good_file()],
                             "--tables", "--routing table")

    def test_generator_bad_input(self):
        # The generators' names in full, from their one table (docs/tables.md).
        self.expect_one_line(["tables", "-t", TOPO, "-a", "dfs"], "--algorithm 'dfs'",
                             "allowed: bfs, genetic, sssp")
        self.expect_one_line(["tables", "-t", TOPO, "-a", "BFS"], "--algorithm 'BFS'",
                             "allowed: bfs, genetic, sssp")
        self.expect_one_line(["tables-study", "--dims", "2", "--systems", "1", "--max-size", "3",
                              "--algorithms", "bfs,dfs", "-q", "-o", "study.h5"],
                             "--algorithms 'dfs'", "allowed: bfs, genetic, sssp")
        self.expect_one_line(["tables", "-t", "mesh:4x4", "-a", "bfs"], "--topology", "mesh:4x4",
                             "tori")
        self.expect_one_line(["tables", "-t", "honeycomb:3", "-a", "bfs"], "--topology")
        self.expect_one_line(["tables", "-t", TOPO, "-a", "genetic", "--mutation", "2"],
                             "--mutation", "2")
        self.expect_one_line(["tables", "-t", TOPO, "-a", "genetic", "--children", "3"],
                             "--children", "3", "even")
        self.expect_one_line(["tables", "-t", TOPO, "-a", "sssp", "--sync", "-1"], "--sync")
        self.expect_one_line(["tables", "-t", TOPO, "-a", "sssp", "-o", "/nonexistent/t.h5"],
                             "-o", "/nonexistent/t.h5")

    def test_json_summary(self):
        rc, out, err = run("tables", "-t", "torus:4", "-a", "sssp", "--json")
        self.assertEqual(rc, 0, err)
        j = json.loads(out)
        # A ring of 4: every channel carries 2 routes in a balanced table (worked by hand).
        self.assertEqual(j["pi"], 2)
        self.assertEqual(j["min_load"], 2)
        self.assertTrue(j["complete"] and j["minimal"] and j["deadlock_free"])


def main():
    global WORMNET, OUT
    args = sys.argv[1:]
    if len(args) < 4 or args[0] != "--wormnet" or args[2] != "--out":
        sys.exit("usage: tables_cli_test.py --wormnet PATH --out DIR [unittest arguments]")
    WORMNET, OUT = args[1], args[3]
    os.makedirs(OUT, exist_ok=True)
    unittest.main(argv=[sys.argv[0], "-v", *args[4:]])


if __name__ == "__main__":
    main()
