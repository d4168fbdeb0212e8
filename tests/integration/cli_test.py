#!/usr/bin/python3
"""Command-line tests of the wormnet binary: bad input, exit codes and the JSON outputs.

Run by ctest, one test case class per ctest test:
    cli_test.py --wormnet PATH [BadInput|Verify|Info ...]
Standard library only. Expected values come from closed forms (H_t has 6t^2 nodes and
9t^2 - 3t links, ...) and hand-worked cases, never from an earlier run of the program.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

WORMNET = "wormnet"
#: Every command here is one process: an isolated MPI singleton with only the self transport
#: starts in a quarter of the time of a default one (the cost of most cases). Isolated
#: singletons share a session directory name, so commands run at once get their own
#: directory for it (OMPI_MCA_orte_tmpdir_base, see run_case()).
ENV = dict(os.environ, OMPI_MCA_ess_singleton_isolated="1", OMPI_MCA_btl="self",
           OMPI_MCA_pml="ob1")


def run(*args):
    """Runs wormnet with args; returns (exit code, stdout, stderr)."""
    import tempfile
    with tempfile.TemporaryDirectory(prefix="wormnet-mpi-") as sessions:
        p = subprocess.run([WORMNET, *args], capture_output=True, text=True, timeout=300,
                           check=False, env=dict(ENV, OMPI_MCA_orte_tmpdir_base=sessions))
    return p.returncode, p.stdout, p.stderr


def run_json(test, *args, code=0):
    """Runs wormnet with --json, checks the exit code and parses the one JSON object."""
    rc, out, err = run(*args, "--json")
    test.assertEqual(rc, code, err)
    test.assertEqual(err, "")
    test.assertEqual(out.count("\n"), 1, "one line of JSON expected")
    return json.loads(out)


class BadInput(unittest.TestCase):
    """Each bad input: exit code 2, nothing on stdout, exactly one line on stderr that names
    the option and the value given (and what is allowed), no crash or trace."""

    def expect_one_line(self, args, *named):
        rc, out, err = run(*args)
        self.assertEqual(rc, 2, f"{args}: exit code {rc}, stderr {err!r}")
        self.assertEqual(out, "", f"{args}: stdout should be empty")
        self.assertTrue(err.endswith("\n"), f"{args}: {err!r}")
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, f"{args}: {err!r}")
        line = lines[0]
        self.assertTrue(line.startswith("wormnet: error: "), line)
        self.assertTrue(line.isprintable(), f"control characters in {line!r}")
        for word in named:
            self.assertIn(word, line, f"{args}")
        for trace in ("terminate called", "what():", "Aborted", "internal error", "#0 ",
                      "Traceback", "Sanitizer"):
            self.assertNotIn(trace, err)

    def test_empty_integer_values(self):
        # CLI11 reads "" as 0: an unset shell variable must not run with seed 0 or no drain.
        base = ["run", "-t", "mesh:4x4", "-r", "xy", "--warmup", "10", "--measure", "10", "-q"]
        for option in ("--seed", "--drain-limit", "--vcs", "--buffer", "--fail-links"):
            for value in ("", " "):
                self.expect_one_line([*base, option, value], option, "an empty value")
        self.expect_one_line(["tables-study", "--dims", "2", "--systems", "1", "--min-size",
                              "", "-o", "never.h5"], "--min-size", "an empty value")

    def test_workload_refuses_length_naming_its_value(self):
        self.expect_one_line(["run", "-t", "mesh:4x4", "-r", "xy", "--workload", "alltoall",
                              "--length", "4", "-q", "-o", "never.h5"],
                             "--length '4'", "--workload alltoall")

    def test_configuration_longer_than_a_checkpoint_holds(self):
        # The checkpoint keeps the configuration in its root's object header (64 KiB a
        # message): a list that makes it longer is refused up front, naming the option,
        # where it used to fail at the first checkpoint as a write error (exit 6).
        import tempfile
        base = ["sweep", "-t", "mesh:4x4", "-r", "xy", "--warmup", "10", "--measure", "200",
                "--length", "2", "-q", "--stop-at-cycle", "5"]
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s.h5")
            self.expect_one_line([*base, "--loads", ",".join(["0.0123456789012345"] * 3000),
                                  "-o", out], "--loads '[0.0123", "60000")
            self.assertEqual(os.listdir(d), [])
            # 2,600 loads, about 57,800 bytes of configuration: stopped at cycle 5 with its
            # checkpoint written (exit 5).
            rc, _, err = run(*base, "--loads", ",".join(["0.0123456789012345"] * 2600), "-o", out)
            self.assertEqual(rc, 5, err)
            self.assertTrue(os.path.exists(os.path.join(d, "s.h5.checkpoint", "checkpoint.h5")),
                            os.listdir(d))

    def test_empty_integer_in_a_config_file(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            config = os.path.join(d, "c.toml")
            with open(config, "w", encoding="utf-8") as f:
                f.write('topology = "mesh:4x4"\nrouting = "xy"\nseed = ""\n')
            self.expect_one_line(["run", "--config", config, "--warmup", "10", "--measure",
                                  "10", "-q", "-o", os.path.join(d, "r.h5")],
                                 "--seed", "an empty value")
            self.assertEqual(sorted(os.listdir(d)), ["c.toml"])

    def test_tables_study_refuses_before_it_writes(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s.h5")
            common = ["tables-study", "-q", "-o", out]
            self.expect_one_line([*common, "--algorithms", "bfs,bfs", "--systems", "1",
                                  "--dims", "2", "--max-size", "4"], "--algorithms", "twice")
            # 40^6 nodes, and 20^4 = 160000: past the N^2-route tables' 16384 nodes.
            self.expect_one_line([*common, "--algorithms", "bfs", "--systems", "1,1",
                                  "--dims", "2,6", "--min-size", "40", "--max-size", "40"],
                                 "--max-size '40'", "torus:40x40x40x40x40x40", "16384")
            self.expect_one_line([*common, "--algorithms", "bfs", "--systems", "1",
                                  "--dims", "4", "--min-size", "20", "--max-size", "20"],
                                 "--max-size '20'", "torus:20x20x20x20 (160000 nodes)")
            self.expect_one_line([*common, "--systems", "2000000000", "--dims", "2"],
                                 "--systems", "100000")
            self.assertEqual(os.listdir(d), [])

    def test_stdout_that_cannot_be_written(self):
        # The report lost on a full disk or a closed stdout is an output failure (exit 6),
        # not a success.
        import tempfile
        with tempfile.TemporaryDirectory(prefix="wormnet-mpi-") as sessions:
            env = dict(ENV, OMPI_MCA_orte_tmpdir_base=sessions)
            with open("/dev/full", "w", encoding="utf-8") as full:
                p = subprocess.run([WORMNET, "info", "-t", "mesh:4x4"], stdout=full,
                                   stderr=subprocess.PIPE, text=True, timeout=300, env=env,
                                   check=False)
            self.assertEqual(p.returncode, 6, p.stderr)
            self.assertEqual(p.stderr.splitlines(),
                             ["wormnet: error: cannot write the standard output: "
                              "No space left on device"])
            p = subprocess.run([WORMNET, "verify", "-t", "mesh:4x4", "-r", "xy", "--json"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               timeout=300, env=env, check=False)
            self.assertEqual((p.returncode, p.stderr), (0, ""))  # /dev/null takes it all

    def test_honeycomb_zero(self):
        self.expect_one_line(["info", "--topology", "honeycomb:0"], "--topology", "honeycomb:0",
                             "[1,")

    def test_honeycomb_negative(self):
        self.expect_one_line(["verify", "-t", "honeycomb:-3", "-r", "stojmenovic"], "--topology",
                             "honeycomb:-3", "[1,")

    def test_honeycomb_not_a_number(self):
        self.expect_one_line(["info", "-t", "honeycomb:six"], "--topology", "honeycomb:six")

    def test_torus_trailing_x(self):
        self.expect_one_line(["info", "-t", "torus:8x"], "--topology", "torus:8x", "sizes")

    def test_torus_size_one(self):
        self.expect_one_line(["info", "-t", "torus:4x1"], "--topology", "torus:4x1", ">= 2")

    def test_torus_size_zero(self):
        self.expect_one_line(["info", "-t", "torus:0x4"], "--topology", "torus:0x4", ">= 2")

    def test_seven_dimensions(self):
        self.expect_one_line(["info", "-t", "torus:2x2x2x2x2x2x2"], "--topology",
                             "torus:2x2x2x2x2x2x2", "6")
        self.expect_one_line(["verify", "-t", "mesh:2x2x2x2x2x2x2", "-r", "xy"], "--topology",
                             "mesh:2x2x2x2x2x2x2", "6")

    def test_unknown_topology_kind(self):
        self.expect_one_line(["info", "-t", "hypercube:4"], "--topology", "hypercube:4",
                             "honeycomb", "torus", "mesh")

    def test_honeycomb_tori_sizes(self):
        # Cho & Hsu: HReT(M, N) needs M and N even; HRoT(M, N) N even; both at least 4 rows
        # for a simple graph; HT_T needs T >= 1.
        for spec, words in (("honeycomb-torus:0", ("[1,",)), ("honeycomb-torus:two", ()),
                            ("honeycomb-rect:3x4", ("even",)), ("honeycomb-rect:4x2", (">= 4",)),
                            ("honeycomb-rect:4", ("MxN",)), ("honeycomb-rhombic:1x4", (">= 2",)),
                            ("honeycomb-rhombic:3x5", ("even",))):
            self.expect_one_line(["info", "-t", spec], "--topology", spec, *words)

    def test_routing_needs_more_vcs_than_a_channel_has(self):
        # HReT(4, 8): four dateline levels, 8 VCs for double-xy-dateline, 9 for duato.
        self.expect_one_line(["verify", "-t", "honeycomb-rect:4x8", "-r", "duato"], "--routing",
                             "duato", "9 VCs", "honeycomb-rect:4x8")
        # HReT(2, 40): periods 2, 1, 1 (gcd(1, 20) = 1 for y and z): the fewest levels, x with
        # y, are 1 + 1 + 11 = 13 (a way crosses x = 0 mod 2 at most once, y = 0 mod 1 at most
        # 11 times: |y| <= 11 on a shortest way). Once an internal error for verify.
        for command in ("verify", "run"):
            self.expect_one_line([command, "-t", "honeycomb-rect:2x40", "-r",
                                  "stojmenovic-dateline"], "--routing", "stojmenovic-dateline",
                                 "13 VCs", "honeycomb-rect:2x40")

    def test_transpose_that_is_no_permutation(self):
        self.expect_one_line(["run", "-t", "honeycomb-rect:6x8", "-r", "stojmenovic",
                              "--traffic", "transpose", "--warmup", "10", "--measure", "10"],
                             "--traffic", "transpose", "honeycomb-rect:6x8")

    def test_duato_whose_escape_needs_too_many_vcs(self):
        # HReT(6, 10) has 6 dateline levels: double-xy-dateline needs 12 VCs, duato 13. The
        # refusal named --routing 'double-xy-dateline', which the user never asked for.
        for command in ("verify", "run"):
            self.expect_one_line([command, "-t", "honeycomb-rect:6x10", "-r", "duato"],
                                 "--routing 'duato'", "escape routing double-xy-dateline",
                                 "12 VCs")

    def test_routing_that_does_not_fit_the_topology(self):
        self.expect_one_line(["verify", "-t", "honeycomb:3", "-r", "dor"], "--routing", "dor",
                             "honeycomb:3", "stojmenovic")
        self.expect_one_line(["verify", "-t", "torus:4x4", "-r", "stojmenovic"], "--routing",
                             "stojmenovic", "dor-dateline")
        self.expect_one_line(["info", "--load", "-t", "mesh:4x4", "-r", "angara"], "--routing",
                             "angara", "west-first")

    def test_unknown_routing(self):
        self.expect_one_line(["verify", "-t", "mesh:4x4", "-r", "zigzag"], "--routing", "zigzag",
                             "xy")

    def test_unknown_option(self):
        self.expect_one_line(["info", "-t", "honeycomb:3", "--bogus"], "--bogus", "info --help")
        self.expect_one_line(["verify", "-t", "honeycomb:3", "-r", "stojmenovic", "--frob=1"],
                             "--frob")
        self.expect_one_line(["--bogus"], "--bogus")

    def test_unexpected_argument(self):
        self.expect_one_line(["verify", "-t", "honeycomb:3", "-r", "stojmenovic", "extra"],
                             "extra")

    def test_unknown_subcommand(self):
        self.expect_one_line(["frobnicate"], "frobnicate", "info", "verify")
        self.expect_one_line(["frobnicate", "-t", "honeycomb:3"], "frobnicate")

    def test_missing_subcommand(self):
        self.expect_one_line([], "subcommand")

    def test_missing_required_option(self):
        self.expect_one_line(["verify", "-t", "honeycomb:3"], "--routing", "required")
        self.expect_one_line(["verify", "-r", "stojmenovic"], "--topology", "required")
        self.expect_one_line(["info"], "--topology", "required")

    def test_option_without_its_value(self):
        self.expect_one_line(["info", "-t"], "--topology")

    def test_load_without_routing(self):
        self.expect_one_line(["info", "-t", "honeycomb:3", "--load"], "--load", "--routing")

    def test_bad_flow_control(self):
        self.expect_one_line(["verify", "-t", "torus:4x4", "-r", "dor", "--flow-control", "foo"],
                             "--flow-control", "foo", "credit", "bubble")

    def test_bad_choice_names_the_choices(self):
        # Enum options: the message lists the names (CLI11's own transformer printed the
        # enum values as raw bytes, a NUL cutting the message short).
        for option, names in (("--traffic", ("uniform", "tornado", "all-to-all")),
                              ("--process", ("poisson", "bernoulli")),
                              ("--selection", ("priority", "random", "least-occupied")),
                              ("--flow-control", ("credit", "bubble")),
                              ("--vc-bandwidth", ("shared", "per-vc")),
                              ("--congestion", ("off", "totals", "series"))):
            self.expect_one_line(["run", "-t", "honeycomb:2", "-r", "double-xy", option,
                                  "nonsense"], option, "nonsense", *names)

    def test_help_and_version_are_not_errors(self):
        for args in (["--help"], ["info", "--help"], ["verify", "--help"], ["run", "--help"],
                     ["--version"]):
            rc, out, err = run(*args)
            self.assertEqual(rc, 0, args)
            self.assertNotEqual(out, "", args)
            self.assertEqual(err, "", args)
            for line in out.splitlines():
                self.assertTrue(line.isprintable(), f"{args}: {line!r}")


def honeycomb_adjacent(a, b):
    """Stojmenovic's rule, independent of the program: differ by 1 in exactly one coordinate."""
    diffs = [abs(x - y) for x, y in zip(a, b)]
    return sorted(diffs) == [0, 0, 1]


class Verify(unittest.TestCase):
    """wormnet verify: exit code 0 = deadlock-free, 1 = cycle; the JSON object."""

    def test_exit_codes(self):
        for topo, routing, extra, code in [
                ("honeycomb:3", "double-xy", [], 0),
                ("honeycomb:3", "xy-first", [], 0),
                ("honeycomb:3", "stojmenovic", [], 1),
                ("honeycomb:1", "minimal-adaptive", [], 1),
                ("mesh:4x4", "west-first", [], 0),
                ("torus:3x3", "dor", [], 0),
                ("torus:4x4", "dor", [], 1),
                ("torus:4x4", "dor", ["--flow-control", "bubble"], 0),
                ("torus:4x4", "dor-dateline", [], 0),
                ("torus:4x4", "angara", [], 0),
                ("honeycomb-torus:3", "stojmenovic", [], 1),
                ("honeycomb-torus:3", "stojmenovic-dateline", [], 1),
                ("honeycomb-torus:3", "double-xy-dateline", [], 0),
                ("honeycomb-rhombic:3x6", "double-xy-dateline", [], 0),
                ("honeycomb-torus:3", "duato", [], 0),
                ("honeycomb:3", "duato", [], 0),
                ("mesh:4x4", "duato", [], 0),
                ("torus:6x4", "duato", [], 0),
                ("torus:6x4", "dor-dateline-dest", [], 0)]:
            rc, out, err = run("verify", "-t", topo, "-r", routing, *extra)
            self.assertEqual(rc, code, f"{topo} {routing} {extra}: {err}")
            self.assertEqual(err, "")
            self.assertIn("DEADLOCK-FREE" if code == 0 else "CYCLE", out)

    def test_json_deadlock_free(self):
        j = run_json(self, "verify", "-t", "honeycomb:4", "-r", "double-xy")
        self.assertIs(j["deadlock_free"], True)
        self.assertEqual(j["cycle"], [])

    def test_json_cycle_is_a_closed_chain_of_links(self):
        j = run_json(self, "verify", "-t", "honeycomb:3", "-r", "stojmenovic", code=1)
        self.assertIs(j["deadlock_free"], False)
        cycle = j["cycle"]
        self.assertEqual(len(cycle), 6)  # the girth of H_t
        for i, step in enumerate(cycle):
            self.assertEqual(set(step), {"from", "to", "direction", "vc"})
            self.assertTrue(honeycomb_adjacent(step["from"], step["to"]), step)
            self.assertEqual(step["to"], cycle[(i + 1) % len(cycle)]["from"])
            self.assertEqual(step["vc"], 0)

    def test_json_honeycomb_torus_cycle_is_a_hexagon(self):
        # The torus has girth 6 like H_t; one VC (or one per dateline level) leaves a hexagon.
        for routing in ("stojmenovic", "stojmenovic-dateline"):
            j = run_json(self, "verify", "-t", "honeycomb-torus:4", "-r", routing, code=1)
            cycle = j["cycle"]
            self.assertEqual(len(cycle), 6, routing)
            for i, step in enumerate(cycle):
                self.assertEqual(step["to"], cycle[(i + 1) % len(cycle)]["from"])
            # A hexagon takes each of X, Y, Z twice, once each way.
            self.assertEqual(sorted(s["direction"] for s in cycle),
                             ["X+", "X-", "Y+", "Y-", "Z+", "Z-"], routing)

    def test_json_duato(self):
        # The plain CDG of Duato's routing is cyclic; its extended CDG is not.
        j = run_json(self, "verify", "-t", "mesh:4x4", "-r", "duato")
        self.assertIs(j["deadlock_free"], True)
        self.assertEqual(j["cycle"], [])
        self.assertGreater(len(j["plain_cycle"]), 0)
        d = j["duato"]
        self.assertEqual(d["escape_vcs"], "0")
        self.assertIs(d["connected"], True)
        self.assertIs(d["holds"], True)
        self.assertGreater(d["adaptive_states"], 0)
        rc, out, err = run("verify", "-t", "honeycomb-torus:2", "-r", "duato")
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("DEADLOCK-FREE (Duato)", out)
        self.assertIn("plain CDG  cyclic", out)

    def test_json_torus_cycle_runs_round_the_smallest_big_ring(self):
        j = run_json(self, "verify", "-t", "torus:3x5", "-r", "dor", code=1)
        self.assertEqual(len(j["cycle"]), 5)
        self.assertEqual(len({s["direction"] for s in j["cycle"]}), 1)
        self.assertIn(j["cycle"][0]["direction"], ("Y+", "Y-"))

    def test_bubble_is_said(self):
        rc, out, _ = run("verify", "-t", "torus:4x4x4", "-r", "angara")
        self.assertEqual(rc, 0)
        self.assertIn("bubble flow control", out)
        j = run_json(self, "verify", "-t", "torus:4x4x4", "-r", "angara")
        self.assertIs(j["deadlock_free"], True)
        self.assertIs(j["rings_set_aside"], True)


def brick_graph(rect, m, n):
    """Cho & Hsu's HReT(m, n) (rect) or HRoT(m, n) as adjacency sets over the brick nodes in
    their published order: HReT: (i, j) ~ (i, j +- 1 mod n), (i, j) ~ (i - 1 mod m, j) if i + j
    is even. HRoT: nodes i <= j < i + n in column i, (i, j) ~ (i, j +- 1) within the column
    modulo n, (i, j) ~ (i - 1, j) if i + j is even and i > 0, (0, j) ~ (m - 1, j + m) if j is
    even."""
    nodes = [(i, j) for i in range(m) for j in (range(n) if rect else range(i, i + n))]
    index = {v: k for k, v in enumerate(nodes)}
    adj = [set() for _ in nodes]

    def col(i, j):
        return (i, j % n) if rect else (i, i + (j - i) % n)

    def link(a, b):
        adj[index[a]].add(index[b])
        adj[index[b]].add(index[a])

    for i, j in nodes:
        link((i, j), col(i, j + 1))
        if (i + j) % 2 == 0 and (rect or i > 0):
            link((i, j), col((i - 1) % m, j))
        if not rect and i == 0 and j % 2 == 0:
            link((0, j), col(m - 1, j + m))
    assert all(len(a) == 3 for a in adj)
    return adj


def bfs(adj, source):
    dist = [-1] * len(adj)
    dist[source] = 0
    frontier = [source]
    while frontier:
        nxt = []
        for u in frontier:
            for v in adj[u]:
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    return dist


class Info(unittest.TestCase):
    """wormnet info [--load]: the JSON keys and their values."""

    def test_honeycomb_counts(self):
        for t in (1, 2, 6):
            j = run_json(self, "info", "-t", f"honeycomb:{t}")
            self.assertEqual(j["nodes"], 6 * t * t)
            self.assertEqual(j["links"], 9 * t * t - 3 * t)
            self.assertEqual(j["channels"], 2 * (9 * t * t - 3 * t))
            self.assertEqual(j["diameter"], 4 * t - 1)
            self.assertIsInstance(j["average_distance"], float)
        # H_1 is a hexagon: from each node 2 at distance 1, 2 at 2, 1 at 3: mean 9/5.
        j = run_json(self, "info", "-t", "honeycomb:1")
        self.assertAlmostEqual(j["average_distance"], 9 / 5, places=12)

    def test_torus_and_mesh_counts(self):
        # 8x8x8 torus: mean ring distance over all ordered pairs (s = d included) is k/4 = 2
        # per dimension, so over s != d: 3 * 2 * N / (N - 1).
        j = run_json(self, "info", "-t", "torus:8x8x8")
        self.assertEqual((j["nodes"], j["links"], j["channels"], j["diameter"]),
                         (512, 1536, 3072, 12))
        self.assertAlmostEqual(j["average_distance"], 6 * 512 / 511, places=12)
        # 16x16 mesh: per coordinate, ordered value pairs sum k(k^2-1)/3 = 1360, times k^2
        # for the other coordinate, 2 coordinates, over N(N-1) = 256 * 255 pairs: 32/3.
        j = run_json(self, "info", "-t", "mesh:16x16")
        self.assertEqual((j["nodes"], j["links"], j["channels"], j["diameter"]),
                         (256, 480, 960, 30))
        self.assertAlmostEqual(j["average_distance"], 32 / 3, places=12)

    def test_honeycomb_torus_counts(self):
        # Stojmenovic: HT_T has 6T^2 nodes, 9T^2 links, degree 3, diameter 2T. HT_1 is
        # K_{3,3}: 3 nodes at distance 1 and 2 at distance 2 from each: mean 7/5.
        for t in (1, 2, 5):
            j = run_json(self, "info", "-t", f"honeycomb-torus:{t}")
            self.assertEqual((j["nodes"], j["links"], j["channels"], j["diameter"]),
                             (6 * t * t, 9 * t * t, 18 * t * t, 2 * t))
            self.assertEqual(j["degree_histogram"], {"3": 6 * t * t})
            self.assertIn("double-xy-dateline", j["routings"])
        j = run_json(self, "info", "-t", "honeycomb-torus:1")
        self.assertAlmostEqual(j["average_distance"], 7 / 5, places=12)
        # Cho & Hsu: HReT(M, N) and HRoT(M, N) have M N nodes and 3 M N / 2 links.
        for spec, n in (("honeycomb-rect:6x8", 48), ("honeycomb-rhombic:5x6", 30)):
            j = run_json(self, "info", "-t", spec)
            self.assertEqual((j["nodes"], j["links"]), (n, 3 * n // 2))

    def test_thin_and_wide_honeycomb_tori(self):
        # Shapes whose nearest images tie more than a dozen times (issue 36: these ended in an
        # internal error). Expected values from Cho & Hsu's brick rules, by breadth-first search
        # here: the tori are vertex-transitive, so a black and a white node give the diameter
        # and one node the mean distance.
        for rect, m, n in ((False, 2, 46), (True, 24, 4), (False, 3, 128), (False, 6, 256),
                           (False, 500, 8), (True, 500, 8), (True, 1000, 4)):
            spec = f"honeycomb-{'rect' if rect else 'rhombic'}:{m}x{n}"
            with self.subTest(spec):
                graph = brick_graph(rect, m, n)
                d0 = bfs(graph, 0)
                d1 = bfs(graph, next(iter(graph[0])))
                j = run_json(self, "info", "-t", spec)
                self.assertEqual((j["nodes"], j["links"], j["diameter"]),
                                 (m * n, 3 * m * n // 2, max(max(d0), max(d1))))
                self.assertAlmostEqual(j["average_distance"], sum(d0) / (m * n - 1), places=9)
        # Routed over those ties (up to 14 nearest images): a short run completes (at a low
        # load: the routing is cyclic, and deadlocks at 0.05).
        rc, out, err = run("run", "-t", "honeycomb-rect:24x4", "-r", "stojmenovic", "--load",
                           "0.01", "--warmup", "100", "--measure", "300", "-q")
        self.assertEqual((rc, err), (0, ""))

    def test_text_output(self):
        rc, out, err = run("info", "-t", "honeycomb:6")
        self.assertEqual((rc, err), (0, ""))
        self.assertRegex(out, r"nodes\s+216\n")
        self.assertRegex(out, r"links\s+306\n")
        self.assertRegex(out, r"diameter\s+23 hops")

    def test_load_keys_and_hand_worked_values(self):
        # DOR on a 4-ring (derived in tests/unit/verify/channel_loads_test.cpp): + channels
        # carry 3, - channels 1; perfect 2, sigma4 1, saturation (4-1)/3 = 1.
        j = run_json(self, "info", "--load", "-t", "torus:4", "-r", "dor")
        for key, value in (("pi", 3.0), ("sigma4", 1.0), ("min_load", 1.0),
                           ("perfect_load", 2.0), ("saturation_rate", 1.0)):
            self.assertAlmostEqual(j[key], value, places=12, msg=key)
        # H_1 under stojmenovic: 5 clockwise, 4 counter-clockwise (worked in the unit test).
        j = run_json(self, "info", "--load", "-t", "honeycomb:1", "-r", "stojmenovic")
        for key, value in (("pi", 5.0), ("sigma4", 0.5), ("min_load", 4.0),
                           ("perfect_load", 4.5), ("saturation_rate", 1.0)):
            self.assertAlmostEqual(j[key], value, places=12, msg=key)
        # The topology keys are still there.
        self.assertEqual(j["nodes"], 6)

    def test_load_text(self):
        rc, out, err = run("info", "--load", "-t", "mesh:4x4", "-r", "xy")
        self.assertEqual((rc, err), (0, ""))
        self.assertRegex(out, r"pi = 16\.0+ ")

    def test_pattern_ideal_hand_worked(self):
        # Worked in tests/unit/verify/pattern_loads_test.cpp: tornado on torus:8x8 under dor
        # (+3 per ring: 3 routes on every + channel), transpose on mesh:4x4 under xy (3 on the
        # busiest channels, the 4 diagonal nodes silent: 12 / (16 x 3)) and on torus:4x4 under
        # dor (2: 12 / (16 x 2)). The uniform figures stay those of all pairs.
        for topo, routing, traffic, pi, rate, offered, senders, silent in (
                ("torus:8x8", "dor", "tornado", 3.0, 1 / 3, 1 / 3, 64, 0),
                ("mesh:4x4", "xy", "transpose", 3.0, 0.25, 1 / 3, 12, 4),
                ("torus:4x4", "dor", "transpose", 2.0, 0.375, 0.5, 12, 4)):
            j = run_json(self, "info", "--load", "-t", topo, "-r", routing, "--traffic", traffic)
            p = j["pattern"]
            self.assertEqual((p["traffic"], p["senders"], p["silent"], p["defect"]),
                             (traffic, senders, silent, ""))
            for key, value in (("pi", pi), ("saturation_rate", rate),
                               ("offered_at_ideal", offered)):
                self.assertAlmostEqual(p[key], value, places=12, msg=f"{traffic} {key}")
            uniform = run_json(self, "info", "--load", "-t", topo, "-r", routing)
            self.assertEqual(j["pi"], uniform["pi"])
            self.assertNotIn("pattern", uniform)
        # Uniform and all-to-all are the uniform analysis: no pattern of their own.
        j = run_json(self, "info", "--load", "-t", "torus:4x4", "-r", "dor", "--traffic",
                     "all-to-all")
        self.assertNotIn("pattern", j)
        rc, out, err = run("info", "--load", "-t", "mesh:4x4", "-r", "xy", "--traffic",
                           "transpose")
        self.assertEqual((rc, err), (0, ""))
        self.assertRegex(out, r"pattern ideal\s+0\.250000 flits/node/cycle accepted")

    def test_tables_without_output_says_it_wrote_nothing(self):
        rc, out, err = run("tables", "-t", "torus:4x4", "-a", "bfs")
        self.assertEqual((rc, err), (0, ""))
        self.assertRegex(out, r"\nwritten\s+nothing: no -o FILE")

    def test_pattern_bad_input(self):
        base = ["info", "--load", "-t", "mesh:4x4", "-r", "xy"]
        for args, named in (
                ([*base, "--traffic", "hotspot", "--hotspot-fraction", "2"],
                 ("--hotspot-fraction", "2", "[0, 1]")),
                ([*base, "--traffic", "hotspot", "--hotspot-nodes", "16"],
                 ("--hotspot-nodes", "16", "[0, 15]")),
                ([*base, "--traffic", "tornado", "--hotspot-nodes", "3"],
                 ("--hotspot-nodes", "3", "hotspot only")),
                (["info", "--load", "-t", "mesh:4x3", "-r", "xy", "--traffic", "transpose"],
                 ("--traffic", "transpose", "mesh:4x3"))):
            rc, out, err = run(*args)
            self.assertEqual((rc, out), (2, ""), f"{args}: {err}")
            self.assertEqual(len(err.splitlines()), 1, err)
            for word in named:
                self.assertIn(word, err, args)


class SetupChecks(unittest.TestCase):
    """The setup of run and sweep says what `wormnet verify` would find (issue 39): a cyclic
    routing is warned about before it deadlocks (dor on an 8x8 torus, no datelines: a cycle
    round a ring), a deadlock-free one is said to be (dor-dateline; dor with bubble flow
    control, rings set aside; duato by Duato's condition), and on a network whose check would
    be too long it is skipped with the reason."""

    def setup_line(self, *args):
        rc, out, err = run("run", *args, "--warmup", "0", "--measure", "60", "--drain-limit",
                           "60", "--load", "0.05")
        self.assertIn(rc, (0, 4), err)
        lines = [x for x in out.splitlines() if x.startswith("verify ")]
        self.assertEqual(len(lines), 1, out)
        return lines[0]

    def test_a_cyclic_routing_is_warned_about(self):
        line = self.setup_line("-t", "torus:8x8", "-r", "dor")
        self.assertRegex(line, r"WARNING: the channel dependency graph has a cycle of \d+ "
                               r"channels: the run may deadlock \(wormnet verify -t torus:8x8 "
                               r"-r dor shows it\)")
        # What verify says, independently: exit 1, a cycle.
        rc, out, _ = run("verify", "-t", "torus:8x8", "-r", "dor")
        self.assertEqual(rc, 1)
        self.assertIn("CYCLE", out)

    def test_deadlock_free_routings_are_said_to_be(self):
        for args in (["-t", "torus:8x8", "-r", "dor-dateline"],
                     ["-t", "torus:8x8", "-r", "dor", "--flow-control", "bubble", "--buffer", "40"],
                     ["-t", "mesh:4x4", "-r", "duato"]):
            line = self.setup_line(*args)
            self.assertIn("deadlock-free", line, args)
            rc, _, _ = run("verify", *args[:4], *(args[4:6] if "bubble" in args else []))
            self.assertEqual(rc, 0, args)

    def test_skipped_on_a_large_network(self):
        line = self.setup_line("-t", "honeycomb:100", "-r", "double-xy-turn")
        self.assertRegex(line, r"deadlock check skipped: about [0-9.e+]+ routing states, more "
                               r"than 2e\+08 \(wormnet verify -t honeycomb:100 -r "
                               r"double-xy-turn makes it\)")


class RunBadInput(BadInput):
    """Bad simulation options: the same one-line contract, and no results file is left
    behind that could be taken for a finished run."""

    base = ["run", "-t", "honeycomb:3", "-r", "double-xy", "--warmup", "100", "--measure", "200"]

    def test_load_out_of_range(self):
        for value in ("0", "-0.1", "1.5"):
            self.expect_one_line([*self.base, "--load", value], "--load", "(0, 1]")
        self.expect_one_line([*self.base, "--load", "nan"], "--load", "nan", "finite")

    def test_load_fraction_out_of_range(self):
        self.expect_one_line([*self.base, "--load-fraction", "2"], "--load-fraction", "(0, 1]")

    def test_load_fraction_needs_more_ranks_on_a_network_this_large(self):
        # The exact load analysis of H_200 (240,000 nodes) is about 6e10 routing states.
        self.expect_one_line(["run", "-t", "honeycomb:200", "-r", "double-xy", "--load-fraction",
                              "0.1"], "--load-fraction", "0.1", "ranks")
        self.expect_one_line(["info", "--load", "-t", "honeycomb:200", "-r", "double-xy"],
                             "--load", "ranks")

    def test_min_length_above_max(self):
        self.expect_one_line([*self.base, "--length-min", "50", "--length-max", "10"],
                             "--length-min", "50", "--length-max")

    def test_warmup_longer_than_the_run(self):
        self.expect_one_line(["run", "-t", "honeycomb:3", "-r", "double-xy", "--warmup", "5000",
                              "--cycles", "3000"], "--warmup", "5000", "--cycles")

    def test_fewer_vcs_than_the_routing_needs(self):
        self.expect_one_line([*self.base, "--vcs", "1"], "--vcs", "1", "double-xy", "2")

    def test_bubble_buffers_smaller_than_two_packets(self):
        self.expect_one_line(["run", "-t", "torus:4x4", "-r", "angara", "--buffer", "8",
                              "--length", "20"], "--buffer", "8", "40")
        self.expect_one_line(["run", "-t", "torus:4x4", "-r", "dor", "--flow-control", "bubble",
                              "--buffer", "3", "--length", "2"], "--buffer", "3", "4")

    def test_deadlock_threshold_shorter_than_a_credit_round_trip(self):
        # Issue 11: thresholds the latencies make meaningless once reported "deadlocks" of
        # no channel on a routing the verifier proves deadlock-free. The round trip with the
        # default 1-cycle delays is 6 cycles (routing, VC and switch allocation, switch,
        # link, credit); with 100-cycle links and credits, 204.
        for value in ("1", "2", "6"):
            self.expect_one_line([*self.base, "--deadlock-threshold", value],
                                 "--deadlock-threshold", value, "6 cycles")
        self.expect_one_line([*self.base, "--link-latency", "100", "--credit-latency", "100",
                              "--deadlock-threshold", "60"], "--deadlock-threshold", "60",
                             "204 cycles")
        self.expect_one_line([*self.base, "--deadlock-threshold", "2000000000"],
                             "--deadlock-threshold", "2000000000")
        rc, _, err = run(*self.base, "--deadlock-threshold", "7", "-q")
        self.assertEqual(rc, 0, err)

    def test_unwritable_output_path_leaves_no_file(self):
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "no", "such", "dir", "out.h5")
            self.expect_one_line([*self.base, "-o", missing], "out.h5")
            self.assertFalse(os.path.exists(missing))
            self.expect_one_line([*self.base, "-o", d], d)
            os.chmod(d, 0o500)
            try:
                if os.geteuid() != 0:  # root may write anywhere
                    target = os.path.join(d, "out.h5")
                    self.expect_one_line([*self.base, "-o", target], "out.h5")
                    self.assertFalse(os.path.exists(target))
            finally:
                os.chmod(d, 0o700)

    def test_pattern_undefined_on_the_topology(self):
        self.expect_one_line(["run", "-t", "torus:3x5", "-r", "dor-dateline", "--traffic",
                              "transpose"], "--traffic", "transpose", "torus:3x5")

    def test_self_traffic_needs_uniform_traffic(self):
        self.expect_one_line([*self.base, "--self-traffic", "--traffic", "tornado"],
                             "--self-traffic", "uniform")

    def test_hotspot_outside_the_network(self):
        self.expect_one_line([*self.base, "--traffic", "hotspot", "--hotspot-nodes", "999"],
                             "--hotspot-nodes", "999")

    def test_sweep_loads(self):
        sweep = ["sweep", "-t", "honeycomb:3", "-r", "double-xy"]
        self.expect_one_line([*sweep, "--loads", "0,0.1"], "--loads", "(0, 1]")
        self.expect_one_line([*sweep, "--load-range", "0.1:0.05:0.01"], "--load-range",
                             "0.1:0.05:0.01")
        self.expect_one_line([*sweep, "--load-range", "a:b:c"], "--load-range", "a:b:c")
        self.expect_one_line([*sweep, "--loads", "0.1", "--load-range", "0.1:0.2:0.1"],
                             "--load-range")
        self.expect_one_line([*sweep], "--loads")

    def test_config_files(self):
        import os
        import tempfile
        cases = {
            "unknown.toml": ('topology = "honeycomb:3"\nbogus = 3\n', "unknown key 'bogus'"),
            "twice.toml": ('load = 0.1\nload = 0.2\n', "'load' given twice"),
            "type.toml": ('load = "a lot"\n', "--load"),
            "syntax.toml": ("load 0.1\n", "key = value"),
            "section.toml": ('[sweep]\nload = 0.1\n', "[run]"),
        }
        with tempfile.TemporaryDirectory() as d:
            for name, (text, word) in cases.items():
                path = os.path.join(d, name)
                with open(path, "w") as f:
                    f.write(text)
                self.expect_one_line(["run", "--config", path], word)
            garbage = os.path.join(d, "garbage.toml")
            with open(garbage, "wb") as f:
                f.write(bytes(range(256)) * 4)
            self.expect_one_line(["run", "--config", garbage], "--config", "garbage.toml")
            self.expect_one_line(["run", "--config", os.path.join(d, "missing.toml")],
                                 "--config", "missing.toml")
            h5 = os.path.join(d, "not_toml.h5")
            with open(h5, "wb") as f:
                f.write(b"\x89HDF\r\n\x1a\n" + bytes(64))
            self.expect_one_line(["run", "--config", h5], "--config", "not_toml.h5")


SENTINEL = b"an earlier result\n"
#: Cases run at once: each is a process that mostly waits (MPI start-up), not computes.
CORPUS_WORKERS = 8
#: Cases run by this process, for the count printed at the end.
CASES_RUN = [0]


class Case:
    """One bad input of the corpus: the command line (words "{d}" stand for the case's own
    directory, its working directory), the words its one error line must hold, its exit code
    and the files it finds (an earlier results file, results.h5, is always there and is the
    run's -o unless the case names its own). After the case, every file of the directory must
    be as it was and none added: nothing lost, nothing overwritten, nothing left behind."""

    def __init__(self, args, *words, code=2, files=None, output=True, label=None):
        self.args = list(args)
        self.words = list(words)
        self.code = code
        self.files = files or {}
        self.output = output
        self.label = label or " ".join(self.args)


def snapshot(d):
    """Every file under d: relative path -> bytes (directories as None; symbolic links,
    pipes and devices as tuples, never opened; a regular file's permission bits with its
    bytes when it is not writable)."""
    import stat
    out = {}
    for root, dirs, files in os.walk(d):
        for name in dirs:
            out[os.path.relpath(os.path.join(root, name), d)] = None
        for name in files:
            p = os.path.join(root, name)
            st = os.lstat(p)
            rel = os.path.relpath(p, d)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISFIFO(st.st_mode):
                out[rel] = ("fifo",)
            elif stat.S_ISCHR(st.st_mode):
                out[rel] = ("chr", os.major(st.st_rdev), os.minor(st.st_rdev))
            else:
                with open(p, "rb") as f:
                    data = f.read()
                mode = stat.S_IMODE(st.st_mode)
                out[rel] = data if mode & 0o222 else ("mode", oct(mode), data)
    return out


def make_file(p, data):
    """Makes one file of a Case at p: data is None (a directory), bytes or text, or a tuple:
    ("link", target), ("fifo",), ("chr", major, minor) (a device node: root only) or
    ("mode", permission bits, bytes or text)."""
    if data is None:
        os.makedirs(p, exist_ok=True)
        return
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if isinstance(data, tuple):
        kind = data[0]
        if kind == "link":
            os.symlink(data[1], p)
        elif kind == "fifo":
            os.mkfifo(p)
        elif kind == "chr":
            import stat
            os.mknod(p, 0o644 | stat.S_IFCHR, os.makedev(data[1], data[2]))
        else:  # ("mode", bits, contents)
            make_file(p, data[2])
            os.chmod(p, data[1])
        return
    with open(p, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def run_case(case, base):
    import tempfile
    d = tempfile.mkdtemp(dir=base)
    sessions = tempfile.mkdtemp(dir=base, prefix="mpi-")
    try:
        with open(os.path.join(d, "results.h5"), "wb") as f:
            f.write(SENTINEL)
        for name, data in case.files.items():
            make_file(os.path.join(d, name), data)
        args = [a.replace("{d}", d) for a in case.args]
        if case.output and args and args[0] in ("run", "sweep") and not any(
                a in ("-o", "--output") or a.startswith("--output=") for a in args):
            args += ["-o", "results.h5"]
        before = snapshot(d)
        p = subprocess.run([WORMNET, *args], cwd=d, capture_output=True, text=True,
                           timeout=300, check=False,
                           env=dict(ENV, OMPI_MCA_orte_tmpdir_base=sessions))
        after = snapshot(d)
        return d, p.returncode, p.stdout, p.stderr, before, after
    finally:
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(sessions, ignore_errors=True)




class CorpusRunner(unittest.TestCase):
    """Runs a list of Cases in parallel and checks each: its exit code, nothing on stdout,
    exactly one printable line on stderr that starts like every wormnet error and holds the
    case's words, no trace of a crash, and its directory unchanged."""

    def run_corpus(self, cases):
        import concurrent.futures
        import tempfile
        base = tempfile.mkdtemp(prefix="wormnet-corpus-")
        try:
            with concurrent.futures.ThreadPoolExecutor(CORPUS_WORKERS) as pool:
                results = list(pool.map(lambda c: run_case(c, base), cases))
        finally:
            shutil.rmtree(base, ignore_errors=True)
        CASES_RUN[0] += len(cases)
        for case, (d, rc, out, err, before, after) in zip(cases, results):
            with self.subTest(case=case.label):
                self.check_case(case, d, rc, out, err, before, after)

    def check_case(self, case, d, rc, out, err, before, after):
        label = case.label
        self.assertEqual(rc, case.code, f"{label}: exit code {rc}, stderr {err!r}")
        if case.code == 2:
            self.assertEqual(out, "", f"{label}: stdout should be empty")
        self.assertTrue(err.endswith("\n"), f"{label}: {err!r}")
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, f"{label}: {err!r}")
        self.assertTrue(lines[0].startswith("wormnet: "), lines[0])
        self.assertTrue(lines[0].isprintable(), f"control characters in {lines[0]!r}")
        for word in case.words:
            self.assertIn(word.replace("{d}", d), lines[0], label)
        for trace in ("terminate called", "what():", "Aborted", "internal error", "#0 ",
                      "Traceback", "Sanitizer", "Segmentation"):
            self.assertNotIn(trace, err, label)
        self.assertEqual(sorted(after), sorted(before), f"{label}: files added or removed")
        for name, data in before.items():
            self.assertEqual(after[name], data, f"{label}: {name} changed")


class WorkloadBadInput(CorpusRunner):
    """Closed-loop workloads (docs/workloads.md): unknown motifs, grids that do not fit,
    options that do not go together, malformed traces. One line naming the option, the value
    and what is allowed; exit code 2; nothing written."""

    RUN = ["run", "-t", "torus:4x4", "-r", "dor-dateline"]
    HEADER = "id,source,destination,flits,after,iteration,depends\n"

    def trace_case(self, text, *words, label):
        return Case([*self.RUN, "--workload", "trace", "--trace", "t.csv", "--write-trace",
                     "w.csv"], "--trace", "t.csv", *words, files={"t.csv": text}, label=label)

    def test_workload_options(self):
        w = [*self.RUN, "--workload"]
        h = self.HEADER
        self.run_corpus([
            # The names each refusal allows, in full (docs/workloads.md), from one table each.
            Case([*w, "halo4d"], "--workload", "halo4d",
                 "allowed: allreduce-rd, allreduce-ring, alltoall, halo2d, halo3d, sweep2d, "
                 "npb-cg, npb-ft, npb-is, npb-lu, npb-mg, trace"),
            Case([*w, "Halo2d"], "--workload 'Halo2d'", "halo2d, halo3d"),
            Case([*w, "halo2d", "--grid", "4x5"], "--grid", "4x5", "16 processes"),
            Case([*w, "halo2d", "--grid", "16"], "--grid", "16", "AxB"),
            Case([*w, "halo3d", "--grid", "4x4"], "--grid", "4x4", "AxBxC"),
            Case([*w, "halo2d", "--grid", "4xx4"], "--grid", "4xx4"),
            Case([*w, "halo2d", "--grid", "0x16"], "--grid", "0x16"),
            Case([*w, "alltoall", "--grid", "4x4"], "--grid", "halo2d, halo3d and sweep2d"),
            Case([*w, "halo2d", "--mapping", "snake"], "--mapping 'snake'",
                 "allowed: linear, random, topology"),
            Case([*w, "halo2d", "--message-size", "70000"], "--message-size", "70000"),
            Case([*w, "halo2d", "--message-size", "0"], "--message-size", "0"),
            Case([*w, "halo2d", "--iterations", "0"], "--iterations", "0"),
            Case([*w, "alltoall", "--iterations", "1000000"], "--iterations", "1000000",
                 "messages"),
            Case([*w, "halo2d", "--load", "0.1"], "--load", "--workload halo2d"),
            Case([*w, "halo2d", "--warmup", "10"], "--warmup", "--workload halo2d"),
            Case([*w, "halo2d", "--trace", "t.csv"], "--trace", "t.csv", "--workload trace"),
            Case([*w, "trace"], "--trace", "--workload trace"),
            Case([*w, "trace", "--trace", "/no/such.csv"], "--trace", "/no/such.csv"),
            Case([*w, "trace", "--trace", "t.csv", "--iterations", "3"], "--iterations", "3",
                 files={"t.csv": h + "0,0,1,4,0,0,\n"}),
            Case([*w, "halo2d", "--write-trace", "{d}"], "--write-trace", "{d}"),
            Case([*w, "halo2d", "--write-trace", "/no/such/dir/x.csv"], "--write-trace"),
            Case([*w, "trace", "--trace", "t.csv", "--write-trace", "t.csv"], "--write-trace",
                 files={"t.csv": h + "0,0,1,4,0,0,\n"}),
            # Bubble flow control (angara's rings, dor with --flow-control bubble): buffers for
            # two of the workload's longest messages, not of --length-max (issue 36 case 3).
            Case(["run", "-t", "torus:4x4", "-r", "angara", "--buffer", "64", "--workload",
                  "alltoall", "--iterations", "3", "--message-size", "40"], "--buffer", "'64'",
                 "--message-size", "40 flits", ">= 80"),
            Case(["run", "-t", "torus:4x4", "-r", "dor", "--flow-control", "bubble", "--buffer",
                  "40", "--workload", "halo2d", "--message-size", "32"], "--buffer", "'40'",
                 "--message-size", "32 flits", ">= 64"),
            Case(["run", "-t", "torus:4x4", "-r", "angara", "--buffer", "59", "--workload",
                  "trace", "--trace", "t.csv"], "--buffer", "'59'", "message 1 of --trace t.csv",
                 "30 flits", ">= 60", files={"t.csv": h + "0,0,1,4,0,0,\n1,1,2,30,0,0,0\n"}),
        ])

    def test_processes_per_node_and_computation(self):
        """Several processes per node, computation, the NPB skeletons (issue 41): a process
        count that does not fit, a computation out of range, options of another workload."""
        w = [*self.RUN, "--workload"]
        h8 = self.HEADER.strip() + ",compute\n"
        self.run_corpus([
            # Process counts that do not fit.
            Case([*w, "halo2d", "--processes-per-node", "0"], "--processes-per-node", "0",
                 "1..1024"),
            Case([*w, "halo2d", "--processes-per-node", "1025"], "--processes-per-node",
                 "1025", "1..1024"),
            Case([*w, "halo2d", "--processes-per-node", "2", "--grid", "4x4"], "--grid", "4x4",
                 "32 processes, 2 per node"),
            Case([*w, "npb-lu", "--processes-per-node", "3"], "--processes-per-node", "'3'",
                 "48 processes", "power of two"),
            Case(["run", "-t", "torus:3x3", "-r", "dor-dateline", "--workload", "npb-cg"],
                 "--processes-per-node", "9 processes", "power of two"),
            Case([*w, "npb-lu", "--npb-class", "S", "--processes-per-node", "16"],
                 "--processes-per-node", "256 processes", "at most 12 processes along a side"),
            Case([*w, "npb-ft", "--npb-class", "S", "--processes-per-node", "8"],
                 "--processes-per-node", "128 processes", "at most 64 processes"),
            Case([*w, "npb-mg", "--npb-class", "S", "--processes-per-node", "1024"],
                 "--processes-per-node", "16384 processes", "fewer than 32 processes"),
            Case([*w, "npb-is", "--npb-class", "S", "--processes-per-node", "128"],
                 "--processes-per-node", "2048 processes", "at most 1024 processes"),
            Case([*w, "npb-ft", "--npb-class", "S", "--processes-per-node", "4",
                  "--iterations", "5000"], "--iterations", "5000", "messages"),
            Case([*w, "trace", "--trace", "t.csv", "--processes-per-node", "2"],
                 "--processes-per-node", "the trace says it",
                 files={"t.csv": self.HEADER + "0,0,1,4,0,0,\n"}),
            # Messages too long for a packet, computations too long for a step.
            Case(["run", "-t", "torus:2x2", "-r", "dor-dateline", "--workload", "npb-ft"],
                 "--npb-scale", "'1'", "65535 flits", "a scale of 129 or more"),
            Case([*w, "npb-lu", "--compute-rate", "0.000001"], "--compute-rate", "1e-06",
                 "1000000000 cycles", "a higher rate"),
            Case([*w, "halo2d", "--compute-cycles", "1000000001"], "--compute-cycles",
                 "1000000001", "0..1000000000"),
            Case([*w, "npb-lu", "--compute-rate", "0"], "--compute-rate", "'0'", "above 0"),
            Case([*w, "npb-lu", "--compute-rate", "-2"], "--compute-rate", "-2", "above 0"),
            Case([*w, "npb-lu", "--compute-rate", "inf"], "--compute-rate", "inf"),
            Case([*w, "npb-lu", "--compute-rate", "nan"], "--compute-rate", "nan"),
            Case([*w, "npb-lu", "--compute-rate", "2e9"], "--compute-rate", "2e+09",
                 "at most 1e+09"),
            Case([*w, "npb-lu", "--npb-class", "D"], "--npb-class", "D", "allowed: S, W, A, B, C"),
            Case([*w, "npb-lu", "--npb-class", "c"], "--npb-class 'c'", "allowed: S, W, A, B, C"),
            Case([*w, "npb-lu", "--npb-scale", "0"], "--npb-scale", "'0'", "1..1073741824"),
            Case([*w, "npb-lu", "--npb-scale", "1073741825"], "--npb-scale", "1073741825"),
            Case([*w, "halo2d", "--processes-per-node", "2", "--local-latency", "0"],
                 "--local-latency", "'0'", "1..1000000"),
            Case([*w, "halo2d", "--processes-per-node", "2", "--local-latency", "1000001"],
                 "--local-latency", "1000001", "1..1000000"),
            # Options of another kind of workload.
            Case([*w, "halo2d", "--local-latency", "5"], "--local-latency", "'5'",
                 "--processes-per-node above 1"),
            Case([*w, "halo2d", "--compute-rate", "2"], "--compute-rate", "npb-*"),
            Case([*w, "halo2d", "--npb-class", "A"], "--npb-class", "npb-*"),
            Case([*w, "alltoall", "--npb-scale", "8"], "--npb-scale", "npb-*"),
            Case([*w, "npb-lu", "--compute-cycles", "10"], "--compute-cycles", "--compute-rate"),
            Case([*w, "npb-lu", "--message-size", "8"], "--message-size", "npb-lu"),
            Case([*w, "npb-mg", "--grid", "2x2x4"], "--grid", "2x2x4", "npb-mg"),
            Case([*w, "trace", "--trace", "t.csv", "--compute-cycles", "5"], "--compute-cycles",
                 "the trace says it", files={"t.csv": self.HEADER + "0,0,1,4,0,0,\n"}),
            Case([*w, "trace", "--trace", "t.csv", "--compute-rate", "5"], "--compute-rate",
                 "the trace says it", files={"t.csv": self.HEADER + "0,0,1,4,0,0,\n"}),
            # The trace's eight-column form: every field bounded.
            self.trace_case(h8 + "0,0,1,4,0,0,,1000000001\n", "line 2", "compute",
                            "0..1000000000", label="compute beyond 1e9"),
            self.trace_case(h8 + "0,0,1,4,0,0,,99999999999999999999\n", "line 2", "compute",
                            label="compute beyond 2^64"),
            self.trace_case(h8 + "0,0,1,4,0,0,,x\n", "line 2", "compute 'x'",
                            label="compute not a number"),
            self.trace_case(h8 + "0,0,1,4,0,0,\n", "line 2", "8 comma-separated fields",
                            label="seven fields under the eight-column header"),
            self.trace_case(h8 + "0,0,1,0,0,0,,0\n", "line 2", "size 0 flits",
                            "0 only within a node", label="an empty message between nodes"),
            self.trace_case(h8 + "0,0,0,70000,0,0,,0\n", "line 2", "flits",
                            label="a message within a node too long"),
            self.trace_case(self.HEADER + "0,0,1,4,0,0,,5\n", "line 2",
                            "7 comma-separated fields", label="eight fields under seven"),
        ])

    def test_malformed_traces(self):
        h = self.HEADER
        self.run_corpus([
            self.trace_case("", "header", label="empty trace"),
            self.trace_case("# only a comment\n", "header", label="comment only"),
            self.trace_case(h, "at least one message", label="header only"),
            self.trace_case("id,src,dst\n0,0,1\n", "line 1", "header", label="bad header"),
            self.trace_case(h + "0,0,1,4,0,0\n", "line 2", "7 comma-separated fields",
                            label="six fields"),
            self.trace_case(h + "0,0,16,4,0,0,\n", "line 2", "destination", "0..15",
                            label="node outside the network"),
            self.trace_case(h + "0,0,1,0,0,0,\n", "line 2", "flits", label="zero flits"),
            self.trace_case(h + "0,0,1,70000,0,0,\n", "line 2", "flits", label="too long"),
            self.trace_case(h + "0,3,3,4,0,0,\n", "line 2", "same node", label="to itself"),
            self.trace_case(h + "1,0,1,4,0,0,\n", "line 2", "out of order", label="id 1 first"),
            self.trace_case(h + "0,0,1,4,0,0,0\n", "line 2", "not an earlier message",
                            label="depends on itself"),
            self.trace_case(h + "0,0,1,4,0,0,\n1,2,3,4,0,0,0\n", "line 3",
                            "neither sent nor received", label="dependency its source never saw"),
            self.trace_case(h + "0,0,1,4,0,0,x\n", "line 2", "dependency 'x'",
                            label="dependency not a number"),
            self.trace_case(h + "0,0,1,4,-5,0,\n", "line 2", "after", label="negative time"),
            self.trace_case(h + "0,a,1,4,0,0,\n", "line 2", "source", label="source not a number"),
            self.trace_case(b"id\x00\xff\n", "line 1", label="binary garbage"),
            self.trace_case(h + "0,0,1,4,4611686018427387905,0,\n", "line 2", "after",
                            "0..4611686018427387904", label="after beyond 2^62"),
            # An iteration label is a row of the completion report: labels are bounded by the
            # message count (a label of 4e9 once sized the report's array after the whole run:
            # out of memory, the results left "running"; 1e8 grew to 10 GB).
            self.trace_case(h + "0,0,1,4,0,4000000000,\n", "line 2", "iteration",
                            "4000000000", "below the number of messages", label="iteration 4e9"),
            self.trace_case(h + "0,0,1,4,0,0,\n1,1,0,4,0,100000000,0\n", "line 3",
                            "iteration", "100000000", "below the number of messages",
                            label="iteration 1e8 on the second of two messages"),
            self.trace_case(h + "0,0,1,4,0,1,\n", "line 2", "iteration 1",
                            "below the number of messages (1)",
                            label="iteration 1 in a one-message trace"),
            self.trace_case(h + "0,0,1,4,0,0,\n1,1,0,4,0,5,0\n2,0,1,4,0,1,1\n", "line 3",
                            "iteration 5", "below the number of messages (3)",
                            label="the largest label named, not the last"),
            self.trace_case(h + "0,0,1,4,0,4294967295,\n", "line 2", "iteration",
                            label="iteration 2^32 - 1"),
            self.trace_case(h + "0,0,1,4,0,99999999999999999999,\n", "line 2", "iteration",
                            label="iteration beyond 2^64"),
            self.trace_case(h + "99999999999999999999,0,1,4,0,0,\n", "line 2", "id",
                            label="id beyond 2^64"),
            self.trace_case(h + "0,0,1,4,0,0,99999999999999999999\n", "line 2", "dependency",
                            label="dependency beyond 2^64"),
            # Lines are read in bounded pieces: a line over the limit is refused when the
            # limit is crossed, not after the whole line is in memory.
            self.trace_case("x" * 3_000_000, "line 1", "longer than 1000000 characters",
                            label="a 3 MB line without a newline"),
            self.trace_case(h + "0,0,1,4,0,0,\n#" + "y" * 1_000_001 + "\n", "line 3",
                            "longer than 1000000 characters", label="a long comment line"),
        ])

    def test_trace_that_is_no_regular_file(self):
        # /dev/zero never ends (std::getline once read it until memory ran out) and a FIFO
        # without a writer blocks open(): both refused before reading, as is a directory.
        self.run_corpus([
            Case([*self.RUN, "--workload", "trace", "--trace", "/dev/zero"], "--trace",
                 "/dev/zero", "a regular file"),
            Case([*self.RUN, "--workload", "trace", "--trace", "/dev/null"], "--trace",
                 "/dev/null", "a regular file"),
            Case([*self.RUN, "--workload", "trace", "--trace", "{d}"], "--trace",
                 "a regular file", label="--trace a directory"),
        ])


class FaultBadInput(CorpusRunner):
    """Failed links and nodes (docs/faults.md): malformed fault files (one line naming the
    file and the line), options only faults read given without faults, fault sets a routing
    cannot run on (refused at setup naming the pair and the failed channel), faults that
    split the network, a table made for other faults. Exit code 2, one line, nothing
    written."""

    RUN = ["run", "-t", "torus:4x4", "-r", "dor", "--warmup", "50", "--measure", "200"]
    MESH = ["run", "-t", "mesh:4x4", "-r", "west-first", "--warmup", "50", "--measure", "200"]

    def file_case(self, text, *words, label):
        return Case([*self.RUN, "--faults", "f.txt"], "--faults", "f.txt", *words,
                    files={"f.txt": text}, label=label)

    def test_malformed_fault_files(self):
        self.run_corpus([
            self.file_case("link (0,0) (2,0)\n", "line 1", "not neighbours",
                           label="a link that does not exist"),
            self.file_case("link (0,0) (1,0)\nlink (1,0) X-\n", "line 2", "listed twice",
                           label="a link listed twice, once by direction"),
            self.file_case("node (1,1)\nnode (1,1)\n", "line 2", "listed twice",
                           label="a node listed twice"),
            self.file_case("node (4,0)\n", "line 1", "(4,0)", "not a node", "X in 0..3",
                           label="a node out of range"),
            self.file_case("node (-1,0)\n", "line 1", "not a node", label="a negative node"),
            self.file_case("node (1,1,1)\n", "line 1", "3 coordinates",
                           label="coordinates of another dimension count"),
            self.file_case("node (1,1)\nlink (1,1) Y+\n", "line 2", "failed already",
                           label="a link of a failed node"),
            self.file_case("link (0,0) W+\n", "line 1", "'W+'", "X+, X-, Y+, Y-",
                           label="a direction the torus does not have"),
            self.file_case("remove (0,0)\n", "line 1", "'remove'", label="an unknown word"),
            self.file_case("node (1;1)\n", "line 1", "not a list of integer coordinates",
                           label="a bad separator"),
            self.file_case("node (1,1) extra\n", "line 1", "unexpected", label="trailing words"),
            self.file_case(b"node (1,1)\x00\n", "line 1", "NUL", label="a NUL byte"),
            self.file_case(b"\xff\xfe\x00garbage\n", "line 1", label="binary garbage"),
            self.file_case("#" * 5000 + "\n", "line 1", "longer than 4096",
                           label="a line too long"),
            self.file_case("".join(f"node ({x},{y})\n" for x in range(4) for y in (0, 2)),
                           "fall apart into 2 groups", "(0,1) cannot reach (0,3)",
                           "--allow-disconnected", label="a file that splits the torus"),
            Case(["info", "-t", "mesh:2x2", "--faults", "f.txt"], "--faults", "f.txt",
                 "two must stay", files={"f.txt": "node (0,0)\nnode (1,0)\nnode (0,1)\n"},
                 label="a file that leaves one working node", output=False),
        ])

    def test_options_and_refusals(self):
        self.run_corpus([
            Case([*self.RUN, "--fault-seed", "3"], "--fault-seed", "3", "--fail-links",
                 label="--fault-seed without a random draw"),
            Case([*self.RUN, "--fault-seed", "3", "--faults", "f.txt"], "--fault-seed",
                 files={"f.txt": "node (1,1)\n"}, label="--fault-seed with a file only"),
            Case([*self.RUN, "--allow-disconnected"], "--allow-disconnected",
                 label="--allow-disconnected without faults"),
            Case(["verify", "-t", "torus:4x4", "-r", "dor", "--allow-disconnected"],
                 "--allow-disconnected", label="verify: --allow-disconnected without faults",
                 output=False),
            Case([*self.RUN, "--fail-links", "1"], "--routing", "dor", "failed channel",
                 label="dor refused on a torus with a failed link"),
            Case([*self.RUN, "--faults", "f.txt"], "--routing", "dor",
                 "the route (1,0) -> (0,0) takes (1,0) X- -> (0,0), a failed channel",
                 files={"f.txt": "link (0,0) (1,0)\n"},
                 label="dor refused naming the pair and the channel"),
            Case(["sweep", *self.RUN[1:], "--loads", "0.1", "--faults", "f.txt"], "--routing",
                 "failed channel", files={"f.txt": "node (2,2)\n"},
                 label="sweep: dor refused on a torus with a failed node"),
            Case(["run", "-t", "torus:4x4", "-r", "duato", "--faults", "f.txt", "--measure",
                  "200"], "--routing", "duato", "failed channel",
                 files={"f.txt": "link (0,0) X+\n"}, label="duato: the failed link's own pair"),
            Case(["run", "-t", "mesh:3x3", "-r", "duato", "--faults", "f.txt", "--measure",
                  "200"], "--routing", "duato", "Duato's condition", "no escape step",
                 files={"f.txt": "node (0,0)\n"},
                 label="duato: the escape step into a failed corner is gone"),
            Case(["info", "-t", "torus:4x4", "-r", "angara", "--load", "--fail-nodes", "1"],
                 "--routing", "angara", "failed channel", output=False,
                 label="info --load refuses like run"),
            Case(["run", "-t", "mesh:4x4", "-r", "west-first", "--workload", "halo2d",
                  "--faults", "f.txt"], "--workload",
                 "halo2d", "faults", files={"f.txt": "node (3,0)\n"},
                 label="a workload on a network with faults"),
            Case([*self.MESH, "--traffic", "hotspot", "--hotspot-nodes", "3", "--faults",
                  "f.txt"], "--hotspot-nodes", "3", "has failed",
                 files={"f.txt": "node (3,0)\n"}, label="a failed hotspot"),
            Case(["run", "-t", "torus:70x70x14", "-r", "dor", "--fail-links", "1", "--measure",
                  "100"], "--fail-links", "1", "needs the exact load analysis",
                 "run on at least 2 ranks", label="the delivery check of a large faulty torus"),
            Case(["run", "-t", "mesh:4x4", "-r", "west-first", "--fail-nodes", "15"],
                 "--fail-nodes", "15", "at most 14", label="too many random nodes"),
            Case(["run", "-t", "mesh:4x4", "-r", "west-first", "--fail-links", "10"],
                 "--fail-links", "10", "only 9 links", "--allow-disconnected",
                 label="random links that would split the mesh"),
            # Tables around faults (docs/tables.md section 8).
            Case([*self.RUN, "--drop-unroutable"], "--drop-unroutable",
                 "--routing table on a network with faults only",
                 label="--drop-unroutable without faults"),
            Case([*self.MESH, "--faults", "f.txt", "--drop-unroutable"], "--drop-unroutable",
                 files={"f.txt": "node (3,0)\n"}, label="--drop-unroutable without a table"),
            Case(["tables", "-t", "torus:4x4", "-a", "bfs", "--allow-unroutable"],
                 "--allow-unroutable", "faults only", label="--allow-unroutable without faults"),
            Case(["tables", "-t", "torus:4x4", "-a", "sssp", "--faults", "f.txt", "-o",
                  "results.h5"], "--faults", "f.txt", "14 working pairs have no legal Angara "
                 "route", "(1,0) -> (1,1)", "--allow-unroutable",
                 files={"f.txt": "link (1,1) X+\nlink (1,1) Y+\nlink (1,1) Y-\n"},
                 label="a table with pairs without a legal route (the earlier file kept)"),
        ])

    def test_restart_with_a_changed_fault_file(self):
        # The fault file is an input a restart checks by its contents (SHA-256), as --tables
        # and --trace: another failed corner is another network.
        import tempfile
        run_ = [*self.MESH[:-4], "--faults", "f.txt", "--load", "0.1", "--warmup", "100",
                "--measure", "2000"]
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "f.txt"), "w") as f:
                f.write("node (3,0)\n")
            p = subprocess.run([WORMNET, *run_, "--stop-at-cycle", "500", "--checkpoint-dir",
                                "ck", "-q", "-o", "r.h5"], cwd=d, capture_output=True, text=True,
                               timeout=300, check=False, env=ENV)
            self.assertEqual(p.returncode, 5, p.stderr)
            with open(os.path.join(d, "ck/checkpoint.h5"), "rb") as f:
                ck = f.read()
            with open(os.path.join(d, "r.h5"), "rb") as f:
                results = f.read()
        self.run_corpus([
            Case([*run_, "--restart", "ck", "-o", "r.h5"], "--faults", "f.txt",
                 "contents changed since the checkpoint", output=False,
                 files={"f.txt": "node (3,3)\n", "ck/checkpoint.h5": ck, "r.h5": results},
                 label="restart: the other east corner failed instead"),
            Case(["run", "--restart", "ck"], "--faults", "f.txt", "contents changed",
                 output=False,
                 files={"f.txt": "node (3,0)  # the same node, another text\n",
                        "ck/checkpoint.h5": ck, "r.h5": results},
                 label="restart alone: a comment added to the fault file"),
        ])

    def test_a_table_made_for_other_faults(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([WORMNET, "tables", "-t", "torus:4x4x2", "-a", "bfs", "-o",
                                "tb.h5", "-q"], cwd=d, capture_output=True, text=True,
                               timeout=300, check=False, env=ENV)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "tb.h5"), "rb") as f:
                table = f.read()
        self.run_corpus([
            Case(["run", "-t", "torus:4x4x2", "-r", "table", "--tables", "tb.h5", "--length",
                  "8", "--buffer", "16", "--faults", "f.txt"], "--tables", "tb.h5",
                 "made for a network with 0 failed links and 0 failed nodes",
                 "1 failed link", files={"tb.h5": table, "f.txt": "link (0,0,0) X+\n"},
                 label="a fault-free table on a network with a failed link"),
        ])


def lock_line(pid):
    """A lock file's line as wormnet writes it: process, host, job, since, boot, pid
    namespace (include/wormnet/h5/lock_file.hpp)."""
    import socket
    import time
    with open("/proc/sys/kernel/random/boot_id") as f:
        boot = f.read().strip()
    ns = os.readlink("/proc/self/ns/pid").split("[")[1].rstrip("]")
    return f"wormnet {pid} {socket.gethostname()} - {int(time.time())} {boot} {ns}\n"


def can_make_devices():
    """Whether this process may make device nodes (root with CAP_MKNOD)."""
    import stat
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        try:
            os.mknod(os.path.join(d, "full"), 0o644 | stat.S_IFCHR, os.makedev(1, 7))
            return True
        except OSError:
            return False


def table_listing_a_pair_twice():
    """The bytes of a routing-table file of torus:4x4x2 (32 nodes) whose routes dataset says
    it has 33 rows of 32: one route word per (source, destination) pair, a source listed
    twice. Made from a table `wormnet tables` wrote, by rewriting the dataset's dimensions in
    its dataspace message (HDF5 layout: the current and the maximum dimensions, 8 bytes
    each, (32, 32, 32, 32)) and sealing it again (wormnet_seal), standard library only."""
    import tempfile
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import wormnet_seal
    with tempfile.TemporaryDirectory(prefix="wormnet-table-") as d:
        path = os.path.join(d, "t.h5")
        rc, _, err = run("tables", "-t", "torus:4x4x2", "-a", "bfs", "-q", "-o", path)
        assert rc == 0, err
        with open(path, "rb") as f:
            data = bytearray(f.read())
        dims = (32).to_bytes(8, "little")
        assert data.count(dims * 4) == 1, "the routes dataspace is not where it was"
        at = data.find(dims * 4)
        data[at:at + 32] = ((33).to_bytes(8, "little") + dims) * 2
        with open(path, "wb") as f:
            f.write(data)
        wormnet_seal.reseal(path)
        with open(path, "rb") as f:
            return f.read()


class Corpus(CorpusRunner):
    """The bad-input corpus: every option of every subcommand with wrong values, conflicting
    options, numbers that overflow, configuration files with unknown keys, wrong types,
    duplicated keys and garbage, outputs that cannot or must not be written. Each case: one
    line naming the option and the value (and what is allowed), exit code 2, and every file of
    its directory, an earlier results file first, as it was. The option lists come from
    --help, so a new option without a case here fails the test."""

    RUN = ["run", "-t", "honeycomb:2", "-r", "double-xy", "--warmup", "50", "--measure", "100"]
    SWEEP = ["sweep", "-t", "honeycomb:2", "-r", "double-xy", "--warmup", "50", "--measure",
             "100", "--loads", "0.1"]
    BIG = "18446744073709551615"  # 2^64 - 1
    # option: wrong values (each refused naming the option and the value)
    SIM = {
        "--topology": ["honeycomb:0", "torus:1x4", "ring:4", "honeycomb:18000",
                       "mesh:4x4x4x4x4x4x4", "torus:", "honeycomb:-1", "torus:4x4x",
                       "mesh:99999999999x2", ""],
        "--routing": ["dor", "zigzag", "", "table"],
        "--vcs": ["-1", "abc", "1", "99", "1e3"],
        "--buffer": ["0", "x", "-3", "70000", "4.5"],
        "--link-latency": ["0", "1.5", "1001", "-1"],
        "--credit-latency": ["0", "many", "1001"],
        "--injection-latency": ["-1", "1001", "x"],
        "--ejection-latency": ["-1", "1001", "x"],
        # honeycomb double-xy has no half-ring ties to draw
        "--ring-tie": ["sideways", "", "random", "alternating"],
        "--self-traffic": [],  # a flag; refused with non-uniform traffic (test below)
        "--preset": ["gem5", ""],
        "--routing-delay": ["-1", "99999999999", "1001"],
        "--vc-alloc-delay": ["-1", "q", "1001"],
        "--switch-alloc-delay": ["-1", "0x", "1001"],
        "--switch-delay": ["-1", "nan", "1001"],
        "--flow-control": ["wormhole", ""],
        "--selection": ["best", ""],
        "--vc-bandwidth": ["double", ""],
        "--tables": ["/no/such/table.h5", ""],
        "--partition": ["random", ""],
        "--traffic": ["bursty", ""],
        "--process": ["pareto", ""],
        "--length": ["0", "-4", "x", "70000"],
        "--length-min": ["0", "x", "-1"],
        "--length-max": ["0", "x", "70000"],
        "--hotspot-fraction": ["-0.5", "2", "x", "nan", "inf"],
        "--hotspot-nodes": ["999", "a", "-1", "1,,2", "1,"],
        "--warmup": ["-1", "x", "18446744073709551616", "4611686018427387905"],
        "--measure": ["-1", "x", "0", BIG, "1.5"],
        "--cycles": ["-1", "x", "0", "50", BIG],
        "--drain-limit": ["-1", "x", BIG],
        "--stats-window": ["0", "-1", "x", BIG],
        "--congestion": ["timeline", "on", ""],
        "--deadlock-threshold": ["0", "-1"],
        "--flit-rate": ["0", "-1", "x", "inf", "nan", "1e400"],
        "--seed": ["-1", "x", "18446744073709551616", "1.5"],
        "--config": ["/no/such/file.toml", "/dev/zero", "{d}"],
        "--output": ["/no/such/dir/out.h5", "/dev/full", "/dev/null", "{d}", ""],
        "--quiet": [],  # a flag
        "--checkpoint-every": ["0", "-5", "5x", "m", "1.5h", "99999999999999999999999",
                               "10000000h", "0m", BIG, "99999999999999999999",
                               "18446744073709551616", "99999999999999999999m",
                               "18446744073709551616h"],
        "--checkpoint-dir": ["/dev/null", "results.h5/ck", ""],
        "--restart": ["/no/such/dir", "{d}", "/dev/null", ""],
        "--walltime": ["1", "00:00:00", "1:60:00", "a:b:c", "-1:00:00", "1000000:00:00",
                       "1:00:00:00", "99999999999999999999:00:00", ""],
        "--stop-at-cycle": ["-5", "x", "0", BIG],
        "--progress-interval": ["0", "-1", "x", "inf", "nan"],
        "--progress": ["sometimes", ""],
        "--stop-backlog": ["-1", "x", "nan", "inf"],
        "--stop-latency": ["-1", "x", "4611686018427387905", "18446744073709551616"],
        # Faults (docs/faults.md; the fault file's own corpus: FaultBadInput). H_2 has 24
        # nodes and 30 links.
        "--faults": ["/no/such/faults.txt", "", "{d}", "/dev/null"],
        "--fail-links": ["-1", "x", "31", "1.5", BIG],
        "--fail-nodes": ["-1", "x", "23", "0.5"],
        "--fault-seed": ["-1", "x", "5", "18446744073709551616"],
        "--allow-disconnected": [],  # a flag; refused without faults (FaultBadInput)
        "--drop-unroutable": [],  # a flag; refused without faults and a table (FaultBadInput)
    }
    RUN_ONLY = {
        "--load": ["0", "-0.1", "1.5", "nan", "inf", "-inf", "abc", "1e-300", ""],
        "--load-fraction": ["0", "2", "x", "inf", "-0.5"],
        # The workload options (refused here without --workload; with it: WorkloadBadInput).
        "--workload": ["bogus", "", "HALO9D"],
        "--trace": ["t.csv", ""],
        "--iterations": ["0", "-1", "x", "2"],
        "--message-size": ["0", "x", "16"],
        "--grid": ["4x4", ""],
        "--mapping": ["zigzag", "", "linear"],
        "--write-trace": ["/no/such/dir/t.csv", "", "t.csv"],
        "--processes-per-node": ["0", "x", "-1", "2"],
        "--local-latency": ["0", "x", "4"],
        "--compute-cycles": ["-1", "x", "5"],
        "--compute-rate": ["0", "nan", "x", "1"],
        "--npb-class": ["D", "", "C"],
        "--npb-scale": ["0", "x", "64"],
    }
    SWEEP_ONLY = {
        "--loads": ["0", "1.5", "a,b", "", "0.1,,0.2", "0.1,", ",0.1", "nan", "inf", "1e-300",
                    "0.1,-0.2"],
        "--load-range": ["0.1", "0.2:0.1:0.1", "a:b:c", "0:1:0", "1e-300:1:1e-300", "0.1:0.5:0",
                         "0.1:inf:0.1", "::", "0.1:0.2:0.1:0.3", ""],
        "--relative": [],  # a flag
        "--after-saturation": ["-1", "x", "1.5"],
    }
    TABLES = ["tables", "-t", "torus:4x4", "-a", "bfs", "-q"]
    GENERATOR = {
        "--seed": ["-1", "x"],
        "--sync": ["-1", "x"],
        "--turn-candidates": ["some", ""],
        "--population": ["1", "x"],
        "--children": ["3", "0"],
        "--mutation": ["1", "-0.1", "nan"],
        "--patience": ["0"],
        "--min-gain": ["1", "inf"],
        "--good-enough": ["1", "-1"],
        "--max-generations": ["-1"],
        "--quiet": [],
    }
    # The fault options of info, verify and tables (torus:4x4: 16 nodes, 32 links).
    FAULTS = {"--faults": ["/no/such/faults.txt", "{d}"], "--fail-links": ["33", "-2"],
              "--fail-nodes": ["15", "y"], "--fault-seed": ["7"], "--allow-disconnected": []}
    STUDY = ["tables-study", "--dims", "2", "--systems", "1", "--max-size", "3", "--algorithms",
             "bfs", "-q", "-o", "study.h5"]
    OTHER = {
        "info": (["info", "-t", "torus:4x4"], {"--topology": ["torus:4x", "x", ""],
                                                "--routing": ["west-first", "zigzag"],
                                                "--load": [], "--json": [],
                                                "--flow-control": ["none"],
                                                "--ring-tie": ["north"],
                                                "--tables": ["/no/such.h5"],
                                                # without --load (the base has none)
                                                "--traffic": ["bursty", "tornado"],
                                                "--hotspot-fraction": ["x", "0.5"],
                                                "--hotspot-nodes": ["a", "3"], **FAULTS}),
        "verify": (["verify", "-t", "torus:4x4", "-r", "dor"], {"--topology": ["mesh:1x1", ""],
                                                               "--routing": ["xy", "angara-x", ""],
                                                               "--flow-control": ["none"],
                                                               "--ring-tie": ["x"],
                                                               "--json": [],
                                                               "--tables": ["/no/such.h5"],
                                                               **FAULTS}),
        "tables": (TABLES, {"--topology": ["torus:4x", "mesh:4x4", "honeycomb:2"],
                            "--algorithm": ["dfs", ""],
                            "--output": ["/no/such/dir/t.h5", "/dev/full", "{d}", ""],
                            "--json": [], **GENERATOR, **FAULTS,
                            # a flag; refused without faults (FaultBadInput)
                            "--allow-unroutable": []}),
        "tables-study": (STUDY, {"--dims": ["7", "0", "x", "2,,3"],
                                 "--systems": ["-1", "1,2", "x"],
                                 "--min-size": ["1", "x"], "--max-size": ["1", "65"],
                                 "--algorithms": ["dfs", "bfs,,sssp"],
                                 "--output": ["/no/such/dir/s.h5", "/dev/full", "{d}", ""],
                                 **GENERATOR}),
        "status": (["status", "results.h5"], {}),
    }

    def options_of(self, command):
        rc, out, _ = run(command, "--help")
        self.assertEqual(rc, 0)
        names = set()
        for line in out.splitlines():
            # The option column: "  -t,--topology TEXT ..." / "  --load-range TEXT ...".
            m = re.match(r"^\s+(?:-\w,)?(--[a-z][a-z-]*)", line)
            if m and m.group(1) != "--help":
                names.add(m.group(1))
        return names

    @staticmethod
    def without(base, option):
        """`base` without `option` (or its short form) and its value."""
        short = {"--topology": "-t", "--routing": "-r", "--output": "-o",
                 "--algorithm": "-a"}.get(option)
        out, skip = [], False
        for a in base:
            if skip:
                skip = False
            elif a in (option, short):
                skip = True
            else:
                out.append(a)
        return out

    #: Options of the base command lines that exclude the option under test (dropped then).
    EXCLUDED = {"--cycles": "--measure", "--load-range": "--loads"}

    def table_cases(self, base, table, command):
        self.assertEqual(self.options_of(command), set(table),
                         f"options of 'wormnet {command}' without (or with stale) corpus entries")
        cases = []
        for option, values in table.items():
            args = self.without(base, option)
            if option in self.EXCLUDED:
                args = self.without(args, self.EXCLUDED[option])
            for value in values:
                named = [option]
                if value.strip() and value.isprintable():
                    # A list is refused naming its bad item.
                    named.append(value.split(",")[-1] if "," in value and ",," not in value
                                 and not value.endswith(",") and not value.startswith(",")
                                 else value)
                cases.append(Case([*args, option, value], *named))
        return cases

    def test_every_run_option(self):
        self.run_corpus(self.table_cases(self.RUN, {**self.SIM, **self.RUN_ONLY}, "run"))

    def test_every_sweep_option(self):
        self.run_corpus(self.table_cases(self.SWEEP, {**self.SIM, **self.SWEEP_ONLY}, "sweep"))

    def test_test_only_walk_options(self):
        # Hidden from --help (so not in the tables above): the differential harness's skewed
        # walk on small networks (docs/differential-testing.md).
        cases = []
        for base in (self.RUN, self.SWEEP):
            for value in ("63", "0", "-1", "x", "100", "2147483648", "99999999999999999999"):
                cases.append(Case([*base, "--walk-block-routers", value],
                                  "--walk-block-routers", value, "power of two"))
            for value in ("0", "65", "-1", "x"):
                cases.append(Case([*base, "--walk-skew", value], "--walk-skew", value))
            # An empty value: the line names the hidden option too (CLI11 leaves a hidden
            # option's name out of a validator's message).
            for option in ("--walk-block-routers", "--walk-skew"):
                cases.append(Case([*base, option, ""], f"{option} ''", "an empty value"))
        self.run_corpus(cases)

    def test_every_option_of_the_other_commands(self):
        cases = []
        for command, (base, table) in self.OTHER.items():
            cases += self.table_cases(base, table, command)
        self.run_corpus(cases)

    def test_a_routing_table_that_lists_a_pair_twice(self):
        # A table holds one route word per (source, destination) pair (docs/tables.md); a
        # file listing a pair twice is refused by every command that reads it, before any
        # route is.
        files = {"dup.h5": table_listing_a_pair_twice()}
        words = ("--tables", "dup.h5", "(33, 32)", "must be (32, 32)",
                 "one route word per (source, destination) pair")
        table = ["-t", "torus:4x4x2", "-r", "table", "--tables", "dup.h5"]
        self.run_corpus([
            Case(["run", *table, "--buffer", "40", "--length", "20", "--warmup", "50",
                  "--measure", "100"], *words, files=files),
            Case(["verify", *table], *words, files=files),
            Case(["info", "--load", *table], *words, files=files),
        ])

    def test_status_of_what_is_not_a_wormnet_output(self):
        self.run_corpus([
            Case(["status", "results.h5"], "results.h5", label="status of a text file"),
            Case(["status", "plain.h5"], "plain.h5",
                 files={"plain.h5": b"\x89HDF\r\n\x1a\n" + bytes(600)},
                 label="status of a broken HDF5 superblock"),
            Case(["status", "{d}"], "{d}", label="status of a directory"),
            Case(["status", "f.h5"], "f.h5", "not a regular file", files={"f.h5": ("fifo",)},
                 label="status of a FIFO"),
            Case(["status"], "file", label="status without a file"),
        ])

    def test_conflicting_options_name_both(self):
        run_, sweep = self.RUN, self.SWEEP[:-2]
        self.run_corpus([
            Case([*run_, "--load", "0.1", "--load-fraction", "0.5"], "--load", "--load-fraction"),
            Case([*run_, "--cycles", "500"], "--measure", "--cycles"),
            Case([*run_[:-2], "--cycles", "500", "--measure", "100"], "--measure", "--cycles"),
            Case([*run_, "--length", "8", "--length-min", "4"], "--length", "--length-min"),
            Case([*run_, "--length", "8", "--length-max", "40"], "--length", "--length-max"),
            Case([*sweep, "--loads", "0.1", "--load-range", "0.1:0.2:0.1"], "--loads",
                 "--load-range"),
            Case([*run_, "--config", "a.toml", "--config", "b.toml"], "--config", "twice",
                 "a.toml", "b.toml", files={"a.toml": "seed = 2\n", "b.toml": "seed = 3\n"}),
            Case([*run_, "--config=a.toml", "--config=a.toml"], "--config", "twice",
                 files={"a.toml": "seed = 2\n"}),
            Case([*run_, "--config", "both.toml"], "--load", "--load-fraction",
                 files={"both.toml": "load = 0.1\nload-fraction = 0.5\n"},
                 label="conflict inside a config file"),
            Case([*sweep, "--load", "0.1"], "--load", "sweep",
                 label="sweep has no --load (its loads are --loads / --load-range)"),
            Case([*sweep, "--load-fraction", "0.5"], "--load-fraction"),
            Case(["sweep", "-t", "honeycomb:2", "-r", "double-xy"], "--loads", "--load-range"),
            Case([*run_, "--hotspot-nodes", "3"], "--hotspot-nodes", "3", "--traffic hotspot"),
            Case([*run_, "--traffic", "tornado", "--hotspot-fraction", "0.5"],
                 "--hotspot-fraction", "0.5", "tornado"),
            Case([*run_, "--config", "h.toml"], "--hotspot-fraction", "--traffic hotspot",
                 files={"h.toml": "hotspot-fraction = 0.2\n"},
                 label="a hotspot key in a config file of uniform traffic"),
        ])

    def test_channel_series_is_bounded(self):
        # --congestion series keeps at most 4096 statistics windows a point: a run that may
        # last longer (warm-up + measurement + drain limit; a workload's drain limit) is
        # refused before it starts, with
        # the smallest --stats-window that fits: ceil(100150 / 4096) = 25 and
        # ceil(5100000 / 4096) = 1246.
        self.run_corpus([
            Case([*self.RUN, "--congestion", "series", "--stats-window", "20"], "--congestion",
                 "'series'", "4096", "100150 cycles", "5008 windows", "--stats-window 25 or more"),
            Case([*self.RUN[:-4], "--warmup", "0", "--cycles", "5000000", "--congestion",
                  "series"], "--congestion", "5100000 cycles", "--stats-window 1246 or more"),
            # A workload runs from cycle 0 within its drain limit (100000 by default).
            Case(["run", "-t", "torus:4x4", "-r", "dor-dateline", "--workload", "halo2d",
                  "--congestion", "series", "--stats-window", "20"], "--congestion",
                 "100000 cycles (the drain limit)", "--stats-window 25 or more"),
        ])

    def test_numbers_that_overflow_or_mean_nothing(self):
        big = self.BIG
        base = self.RUN[:-4]
        self.run_corpus([
            Case([*base, "--warmup", big, "--measure", "1"], "--warmup", big),
            Case([*base, "--warmup", "4611686018427387904", "--measure", "1"], "--warmup",
                 "--measure", "exceeds"),
            Case([*base, "--warmup", "0", "--cycles", "4611686018427387904", "--drain-limit",
                  "1"], "--cycles", "--drain-limit", "exceeds"),
            Case([*base, "--warmup", "10", "--measure", "4611686018427387903"], "--warmup",
                 "--measure", "--drain-limit", "exceeds"),
            Case([*base, "--measure", big], "--measure", big),
            Case([*base, "--measure", "18446744073709551616"], "--measure", "2^64 - 1"),
            Case([*self.RUN, "--load", "1e-300"], "--load", "1e-300", "fewer than one"),
            Case([*self.RUN, "--load", "1e-19"], "--load", "1e-19", "fewer than one"),
            Case([*self.RUN[:-2], "--load", "0.001", "--measure", "5"], "--load",
                 "fewer than one"),
            Case([*self.RUN, "--measure", "5"], "--measure", "2 times"),
            Case([*self.RUN, "--load", "4.9e-324"], "--load", "fewer than one"),
            Case([*self.SWEEP[:-2], "--loads", "0.1,1e-300"], "--loads", "1e-300",
                 "fewer than one"),
            Case([*self.SWEEP[:-2], "--load-range", "1e-300:1:1e-300"], "--load-range",
                 "at most 10000"),
            Case([*self.SWEEP[:-2], "--load-range", "1e-9:1e-9:1"], "--load-range",
                 "fewer than one"),
            Case([*self.RUN, "--checkpoint-every", "4611686018427387905"], "--checkpoint-every",
                 "at most"),
            # 20 digits, beyond 2^64 - 1: once an internal error (exit 3) from the conversion.
            Case([*self.RUN, "--checkpoint-every", "99999999999999999999"], "--checkpoint-every",
                 "'99999999999999999999'", "at most 4611686018427387904 cycles"),
            Case([*self.RUN, "--checkpoint-every", "18446744073709551616"], "--checkpoint-every",
                 "'18446744073709551616'", "at most 4611686018427387904 cycles"),
            Case([*self.RUN, "--checkpoint-every", "99999999999999999999m"], "--checkpoint-every",
                 "'99999999999999999999m'", "at most 5256000m"),
            Case([*self.RUN, "--checkpoint-every", "18446744073709551616h"], "--checkpoint-every",
                 "'18446744073709551616h'", "at most 87600h"),
            Case([*self.RUN, "--checkpoint-every", "00000000000000000000000000000000000005000000h"],
                 "--checkpoint-every", "at most 87600h", label="leading zeros are no overflow"),
            Case([*self.SWEEP, "--checkpoint-every", "99999999999999999999"],
                 "--checkpoint-every", "'99999999999999999999'", "at most"),
            Case([*self.RUN, "--config", "c.toml"], "--checkpoint-every",
                 "'99999999999999999999m'", "at most 5256000m",
                 files={"c.toml": 'checkpoint-every = "99999999999999999999m"\n'},
                 label="--checkpoint-every overflowing in a config file"),
            Case([*self.SWEEP, "--config", "c.toml"], "--checkpoint-every",
                 "'99999999999999999999'", "at most",
                 files={"c.toml": "checkpoint-every = 99999999999999999999\n"},
                 label="sweep: --checkpoint-every overflowing in a config file"),
            Case([*self.RUN, "--walltime", "100000:00:00"], "--walltime", "100000:00:00",
                 "hours up to 99999"),
            Case([*self.RUN, "--walltime", "99999999999999999999:00:00"], "--walltime",
                 "hours up to 99999"),
            Case([*self.RUN, "--walltime", "1:99999999999999999999:00"], "--walltime",
                 "minutes"),
            Case([*self.RUN, "--stop-at-cycle", "4611686018427387905"], "--stop-at-cycle",
                 "at most"),
            Case([*self.RUN, "--flit-rate", "1e400"], "--flit-rate", "1e400"),
            Case([*self.RUN, "--length", "65536"], "--length-max", "65536"),
            Case([*base, "--warmup", "0", "--measure", "4611686018427387000", "--drain-limit",
                  "0"], "--measure", "router-cycles", label="cycles x routers beyond 2^64"),
        ])

    def test_outputs_that_must_not_be_written(self):
        run_ = self.RUN
        me = lock_line(os.getpid())  # this test's own process: alive, on this host
        self.run_corpus([
            Case([*run_, "--config", "x.toml", "-o", "x.toml"], "--output", "x.toml", "--config",
                 files={"x.toml": "seed = 2\n"}),
            Case([*run_, "--config", "x.toml", "-o", "./x.toml"], "--output", "--config",
                 files={"x.toml": "seed = 2\n"}, label="-o ./x.toml with --config x.toml"),
            Case(["run", "-t", "torus:4x4x2", "-r", "table", "--tables", "t.h5", "-o", "t.h5"],
                 "--output", "t.h5", "--tables", files={"t.h5": b"a table\n"}),
            Case([*run_, "--checkpoint-dir", "ck", "-o", "ck/checkpoint.h5", "--stop-at-cycle",
                  "60"], "--output", "ck/checkpoint.h5", "--checkpoint-dir", files={"ck": None}),
            Case([*run_, "--checkpoint-dir", "ck", "-o", "ck"], "--output", "ck",
                 "--checkpoint-dir"),
            Case([*run_, "--restart", "ck", "-o", "ck/checkpoint.h5"], "--restart", "ck",
                 files={"ck": None}, label="restart from a directory without a checkpoint"),
            Case([*run_, "-o", "results.h5"], "--output", "results.h5", "another run",
                 str(os.getpid()), files={"results.h5.lock": me},
                 label="a live process holds the output's lock"),
            Case([*run_, "-o", "results.h5"], "--output", "results.h5", "cannot read",
                 files={"results.h5.lock": "garbage\n"}, label="a lock file of unknown form"),
            # A FIFO in the lock's place once blocked the run in open() for good, deaf to
            # SIGTERM: a lock is read only when it is a regular file.
            Case([*run_, "-o", "results.h5"], "--output", "results.h5.lock", "a FIFO",
                 files={"results.h5.lock": ("fifo",)}, label="a FIFO in the lock's place"),
            Case([*run_, "--checkpoint-every", "100", "-o", "results.h5"], "--checkpoint-dir",
                 "another run", files={"results.h5.checkpoint/checkpoint.h5.lock": me},
                 label="a live process holds the checkpoint's lock"),
            Case([*run_, "-o", "results.h5"], "--output", "results.h5.partial",
                 files={"results.h5.partial": None}, label="a directory in the partial's place"),
            Case([*run_, "--checkpoint-every", "100", "--vcs", "1"], "--vcs",
                 label="bad input after the checkpoint directory was made: it goes again"),
            Case([*run_, "--checkpoint-dir", "a/b/c", "--vcs", "1"], "--vcs",
                 label="bad input after nested checkpoint directories were made"),
            Case([*run_, "-o", "link.h5"], "--output", "link.h5", "symbolic link to nothing",
                 files={"link.h5": ("link", "nowhere/at/all.h5")}),
            Case([*run_, "-o", "a" * 300 + ".h5"], "--output", "303 characters"),
            Case([*run_, "-o", "/tmp/" + "d" * 300 + "/x.h5"], "--output", "300 characters"),
            Case([*self.TABLES, "-o", "t.h5"], "--output", "t.h5", "another run",
                 files={"t.h5.lock": me}, label="tables: a live process holds the lock"),
            Case([*self.TABLES, "-o", "a" * 300 + ".h5"], "--output", "303 characters"),
            # What a killed or failed run left is not replaced by a plain re-run: continued
            # with --restart, or removed by hand.
            Case([*run_, "-o", "results.h5"], "--output", "'results.h5.partial'", "--restart",
                 "remove it", files={"results.h5.partial": b"a killed run's results\n"},
                 label="a plain re-run onto a killed run's partial file"),
            Case([*self.SWEEP, "-o", "results.h5"], "--output", "'results.h5.partial'",
                 "--restart", files={"results.h5.partial": b"a killed sweep's results\n"},
                 label="a plain sweep onto a killed sweep's partial file"),
            Case([*self.TABLES, "-o", "t.h5"], "--output", "'t.h5.partial'", "remove it",
                 files={"t.h5.partial": b"a killed table run's file\n"},
                 label="tables: a killed run's partial file"),
            Case([*run_, "-o", "fifo.h5"], "--output", "fifo.h5", "not a regular file",
                 files={"fifo.h5": ("fifo",)}, label="-o onto a FIFO"),
            Case([*run_, "-o", "ro.h5"], "--output", "ro.h5", "write-protected",
                 files={"ro.h5": ("mode", 0o444, b"kept\n")}, label="-o onto a read-only file"),
            *self.trace_outputs_that_must_not_be_written(me),
        ])

    def trace_outputs_that_must_not_be_written(self, me):
        """--write-trace is checked as -o is: no device, pipe, link to either, dangling link,
        write-protected file or directory is replaced; a lock and a killed run's partial file
        refuse it too."""
        w = ["run", "-t", "torus:4x4", "-r", "dor-dateline", "--workload", "halo2d",
             "--write-trace", "t.csv"]
        cases = [
            Case(w, "--write-trace", "t.csv", "not a regular file", files={"t.csv": ("fifo",)},
                 label="--write-trace onto a FIFO"),
            Case(w, "--write-trace", "t.csv", "not a regular file",
                 files={"t.csv": ("link", "/dev/null")},
                 label="--write-trace onto a link to /dev/null"),
            Case(w, "--write-trace", "t.csv", "symbolic link to nothing",
                 files={"t.csv": ("link", "nowhere/t.csv")},
                 label="--write-trace onto a dangling link"),
            Case(w, "--write-trace", "t.csv", "write-protected",
                 files={"t.csv": ("mode", 0o444, "# an earlier trace\n")},
                 label="--write-trace onto a read-only file"),
            Case(w, "--write-trace", "t.csv", "another run", str(os.getpid()),
                 files={"t.csv.lock": me}, label="--write-trace: a live process holds the lock"),
            Case(w, "--write-trace", "'t.csv.partial'", "remove it",
                 files={"t.csv.partial": "# a killed run's trace\n"},
                 label="--write-trace: a killed run's partial file"),
        ]
        if can_make_devices():
            cases.append(Case(w, "--write-trace", "t.csv", "not a regular file",
                              files={"t.csv": ("chr", 1, 7)},
                              label="--write-trace onto a copy of /dev/full (mknod)"))
        return cases

    def test_config_file_corpus(self):
        files = {
            "unknown": ("topology = \"honeycomb:2\"\nfrobnicate = 3\n", "unknown key 'frobnicate'"),
            "unknown_batch": ("checkpoint_evry = 5\n", "unknown key 'checkpoint-evry'"),
            "twice": ("seed = 1\nseed = 2\n", "'seed' given twice"),
            "twice_alias": ("hotspot-fraction = 0.1\nhotspot_fraction = 0.2\n", "given twice"),
            "string_for_int": ("vcs = \"two\"\n", "--vcs"),
            "float_for_int": ("buffer = 2.5\n", "--buffer"),
            "bool_for_int": ("routing-delay = true\n", "--routing-delay"),
            "overridden_but_broken": ("warmup = \"50\n", "bad value"),
            "list_for_scalar": ("load = [0.1, 0.2]\n", "--load"),
            "int_for_flag": ("quiet = 3\n", "quiet"),
            "negative_unsigned": ("seed = -4\n", "--seed"),
            "unterminated": ("partition = \"blocks\n", "bad value"),
            "bad_escape": ("partition = \"a\\qb\"\n", "bad value"),
            "empty_value": ("partition =\n", "bad value"),
            "no_key": ("= 3\n", "not an option name"),
            "nested": ("config = \"other.toml\"\n", "cannot include"),
            "section": ("[verify]\nseed = 1\n", "[run]"),
            "table_array": ("[[run]]\n", "[run]"),
            "inline_table": ("traffic = { pattern = \"uniform\" }\n", "bad value"),
            "nul": ("seed = 1\x00\n", "control characters"),
            "bad_value": ("walltime = \"soon\"\n", "--walltime"),
            "bom_inside": ("seed = 1\n\ufeffwarmup = 5\n", "<U+FEFF>warmup"),
            "zero_width_key": ("se\u200bed = 1\n", "<U+200B>"),
            "empty_list_item": ("hotspot-nodes = [1, , 2]\n", "empty item"),
            "huge_number": ("drain-limit = 18446744073709551615\n", "--drain-limit",
                            "18446744073709551615"),
            "inf_rate": ("flit-rate = inf\n", "--flit-rate"),
            "stop_zero": ("stop-at-cycle = 0\n", "--stop-at-cycle"),
            "empty_dir": ("checkpoint-dir = \"\"\n", "--checkpoint-dir"),
        }
        cases = []
        for name, (text, *words) in files.items():
            cases.append(Case([*self.RUN, "--config", name + ".toml"], *words,
                              files={name + ".toml": text.encode()}, label="config " + name))
        for name, data in (("garbage", bytes(range(256)) * 8), ("empty_binary", b"\xff\xfe"),
                           ("huge", b"# x\n" * 300000),
                           ("utf16", "seed = 1\n".encode("utf-16")),
                           ("not_toml.h5", b"\x89HDF\r\n\x1a\n" + bytes(64))):
            fname = name if name.endswith(".h5") else name + ".toml"
            cases.append(Case([*self.RUN, "--config", fname], "--config", fname,
                              files={fname: data}, label="config " + name))
        cases.append(Case([*self.RUN[:-2], "--config", "c.toml"], "--cycles", files={
            "c.toml": "cycles = 0\n"}, label="config cycles_zero"))
        cases.append(Case([*self.RUN[:-2], "--config", "c.toml"], "--measure", "--cycles", files={
            "c.toml": "cycles = 500\nmeasure = 100\n"}, label="config measure and cycles"))
        cases.append(Case([*self.RUN, "--config", "{d}"], "--config", label="config directory"))
        cases.append(Case([*self.RUN, "--config", "/dev/zero"], "--config", "a regular file",
                          label="config /dev/zero"))
        cases.append(Case([*self.RUN, "--config", "missing.toml"], "--config", "missing.toml"))
        self.run_corpus(cases)


    # Issue 36: the restart of a run whose --tables or --trace file changed since the
    # checkpoint (it crashed with exit 139, or finished on the new file with other results).
    TABLE_RUN = ["run", "-t", "torus:4x4x2", "-r", "table", "--tables", "tb.h5",
                 "--flow-control", "bubble", "--length", "8", "--buffer", "16", "--load", "0.3",
                 "--warmup", "200", "--measure", "2000"]
    TRACE_RUN = ["run", "-t", "mesh:4x4", "-r", "xy", "--workload", "trace", "--trace", "t.csv"]

    @staticmethod
    def pingpong(flits):
        """Six 8-flit messages between nodes 0 and 15 of mesh:4x4, each after the last;
        `flits`: other lengths by message id."""
        rows = ["id,source,destination,flits,after,iteration,depends"]
        for i in range(6):
            src, dst = (0, 15) if i % 2 == 0 else (15, 0)
            rows.append(f"{i},{src},{dst},{flits.get(i, 8)},0,{i // 2},"
                        f"{i - 1 if i else ''}")
        return "\n".join(rows) + "\n"

    def made_in(self, d, *commands):
        """Runs wormnet `commands` (argument lists) in directory `d`, each ending as its last
        item says (an exit code)."""
        for *args, code in commands:
            p = subprocess.run([WORMNET, *args], cwd=d, capture_output=True, text=True,
                               timeout=300, check=False, env=ENV)
            self.assertEqual(p.returncode, code, f"{args}: {p.stderr}")

    def read(self, d, name):
        with open(os.path.join(d, name), "rb") as f:
            return f.read()

    def test_restart_with_changed_inputs(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            stop = ["--stop-at-cycle", "500", "--checkpoint-dir", "ck", "-q"]
            self.made_in(d, ["tables", "-t", "torus:4x4x2", "-a", "bfs", "-o", "tb.h5", "-q", 0],
                         ["tables", "-t", "torus:4x4x2", "-a", "genetic", "-o", "gen.h5", "-q",
                          0], [*self.TABLE_RUN, *stop, 5])
            bfs, gen = self.read(d, "tb.h5"), self.read(d, "gen.h5")
            table_ck = self.read(d, "ck/checkpoint.h5")
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "t.csv"), "w") as f:
                f.write(self.pingpong({}))
            self.made_in(d, [*self.TRACE_RUN, "--stop-at-cycle", "50", "--checkpoint-dir", "ck",
                             "-q", 5])
            trace_ck = self.read(d, "ck/checkpoint.h5")
        changed = "contents changed since the checkpoint"
        restart = ["--restart", "ck"]
        self.run_corpus([
            Case([*self.TABLE_RUN, *restart], "--tables", "tb.h5", changed, output=False,
                 files={"tb.h5": gen, "ck/checkpoint.h5": table_ck},
                 label="restart: a genetic table copied over the BFS table"),
            Case(["run", *restart], "--tables", "tb.h5", changed, output=False,
                 files={"tb.h5": gen, "ck/checkpoint.h5": table_ck},
                 label="restart alone: a genetic table copied over the BFS table"),
            Case([*self.TABLE_RUN, *restart], "--tables", "tb.h5", changed, output=False,
                 files={"tb.h5": bfs + b"\0", "ck/checkpoint.h5": table_ck},
                 label="restart: a byte appended to the table"),
            Case([*self.TABLE_RUN, *restart], "--tables", "tb.h5", output=False,
                 files={"ck/checkpoint.h5": table_ck},
                 label="restart: the table file is gone"),
            Case([*self.TRACE_RUN, *restart], "--trace", "t.csv", changed, output=False,
                 files={"t.csv": self.pingpong({4: 60, 5: 60}), "ck/checkpoint.h5": trace_ck},
                 label="restart: two later messages of the trace made 60 flits long"),
            Case([*self.TRACE_RUN, *restart], "--trace", "t.csv", changed, output=False,
                 files={"t.csv": self.pingpong({1: 12}), "ck/checkpoint.h5": trace_ck},
                 label="restart: the message in flight made longer"),
            Case([*self.TRACE_RUN, *restart], "--trace", "t.csv", changed, output=False,
                 files={"t.csv": "# a comment\n" + self.pingpong({}),
                        "ck/checkpoint.h5": trace_ck},
                 label="restart: a comment added to the trace (the bytes count)"),
        ])


class InputFiles(unittest.TestCase):
    """Text inputs (--trace, --config) that never end or never open: a FIFO without a writer
    (open() blocked and absorbed SIGTERM: 8.5 minutes under `timeout -s TERM 5`, the lock left
    behind), /dev/zero and a large file without a newline (std::getline read the whole line
    first: 1 GB/s of memory, and under a memory cap the wrong reason). Each ends at once with
    exit code 2, one line naming the option, the file and what is allowed, and nothing left
    in its directory (no results file, partial file or lock)."""

    RUN = ["run", "-t", "mesh:2x2", "-r", "xy", "-q"]

    def setUp(self):
        import tempfile
        self.dir = tempfile.mkdtemp(prefix="wormnet-inputs-")
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)

    def refused(self, args, *words, prefix=(), limit=20):
        """Runs wormnet in self.dir (with -o out.h5); checks exit 2 within `limit` seconds,
        one line holding `words`, and the directory as it was."""
        import time
        before = sorted(os.listdir(self.dir))
        start = time.time()
        try:
            p = subprocess.run([*prefix, WORMNET, *args, "-o", "out.h5"], cwd=self.dir,
                               capture_output=True, text=True, timeout=limit, check=False,
                               env=ENV)
        except subprocess.TimeoutExpired:
            self.fail(f"{args}: still running after {limit} s")
        elapsed = time.time() - start
        self.assertEqual(p.returncode, 2, p.stderr)
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        for w in words:
            self.assertIn(w, lines[0])
        self.assertEqual(sorted(os.listdir(self.dir)), before, "files added or removed")
        return elapsed

    def test_fifo_trace_is_refused_at_once(self):
        os.mkfifo(os.path.join(self.dir, "t.csv"))
        self.refused([*self.RUN, "--workload", "trace", "--trace", "t.csv"], "--trace",
                     "'t.csv'", "a regular file")

    def test_fifo_config_is_refused_at_once(self):
        os.mkfifo(os.path.join(self.dir, "c.toml"))
        self.refused([*self.RUN, "--config", "c.toml"], "--config", "'c.toml'",
                     "a regular file")

    def test_fifo_tables_is_refused_at_once(self):
        os.mkfifo(os.path.join(self.dir, "t.h5"))
        self.refused(["run", "-t", "torus:4x4", "-r", "table", "--tables", "t.h5", "-q"],
                     "--tables", "'t.h5'", "regular file")

    def test_endless_inputs_under_a_memory_cap(self):
        # 1.5 GB of address space: far more than wormnet needs here, far less than the
        # whole of a 4 GiB line. The sparse file costs no disk. AddressSanitizer reserves
        # terabytes of shadow address space at start, so under it the cap cannot be set and
        # only the time bound checks that the reader stops early.
        cap = [] if os.environ.get("ASAN_OPTIONS") else ["prlimit", "--as=1500000000"]
        big = os.path.join(self.dir, "big.csv")
        with open(big, "wb") as f:
            f.truncate(4 << 30)
        for trace, words in (("/dev/zero", ["'/dev/zero'", "a regular file"]),
                             ("big.csv", ["'big.csv'", "line 1",
                                          "longer than 1000000 characters"])):
            with self.subTest(trace=trace):
                elapsed = self.refused([*self.RUN, "--workload", "trace", "--trace", trace],
                                       "--trace", *words, prefix=cap)
                self.assertLess(elapsed, 15)
        self.refused([*self.RUN, "--config", "big.csv"], "--config", "'big.csv'", "1 MiB",
                     prefix=cap)


class Faults(unittest.TestCase):
    """Networks with failed links and nodes (docs/faults.md), end to end: what info reports
    (the hand-worked torus:4x4 without the link (0,0)-(1,0): the link's two ends 3 hops apart,
    every other pair as before, 516 hops over 240 pairs), a split network reported as such,
    verify's verdict naming the failed channel, a run on the working nodes."""

    def write(self, d, name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_info_of_a_torus_without_one_link(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            f = self.write(d, "f.txt", "# one link\nlink (0,0) (1,0)\n")
            j = run_json(self, "info", "-t", "torus:4x4", "--faults", f)
        self.assertEqual((j["nodes"], j["links"], j["channels"]), (16, 31, 62))
        self.assertEqual(j["diameter"], 4)
        self.assertAlmostEqual(j["average_distance"], 516 / 240, places=12)
        self.assertEqual(j["degree_histogram"], {"3": 2, "4": 14})
        self.assertEqual(j["faults"]["failed_links"], 1)
        self.assertEqual(j["faults"]["failed_nodes"], 0)
        self.assertTrue(j["faults"]["connected"])
        self.assertEqual(j["faults"]["distance_pairs"], 240)

    def test_info_of_a_split_network(self):
        # mesh:3x3 without its middle column: two columns of three, 6 working nodes in 2
        # groups; within a column the distances of a 3-node path (1, 1, 2 hops each way).
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            f = self.write(d, "f.txt", "node (1,0)\nnode (1,1)\nnode (1,2)\n")
            rc, out, err = run("info", "-t", "mesh:3x3", "--faults", f)
            self.assertEqual(rc, 2)
            self.assertIn("--allow-disconnected", err)
            j = run_json(self, "info", "-t", "mesh:3x3", "--faults", f, "--allow-disconnected")
        self.assertEqual(j["nodes"], 6)
        self.assertEqual(j["links"], 4)
        self.assertFalse(j["faults"]["connected"])
        self.assertEqual(j["faults"]["components"], 2)
        self.assertEqual(j["faults"]["largest_component"], 3)
        self.assertEqual(j["faults"]["distance_pairs"], 12)
        self.assertEqual(j["diameter"], 2)
        self.assertAlmostEqual(j["average_distance"], 16 / 12, places=12)

    def test_fault_options_in_a_config_file(self):
        # The keys are the option names; the effective configuration writes them back; the
        # command line wins over the file, and what it leaves unread is refused.
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            f = self.write(d, "f.txt", "node (3,0)\n")
            c = self.write(d, "c.toml", 'topology = "mesh:4x4"\nrouting = "west-first"\n'
                           f'faults = "{f}"\nallow-disconnected = true\nmeasure = 500\n')
            out_file = os.path.join(d, "r.h5")
            rc, out, err = run("run", "--config", c, "-o", out_file, "-q")
            self.assertEqual((rc, err), (0, ""))
            probe = subprocess.run(
                ["/usr/bin/python3", "-c", "import h5py, sys; f = h5py.File(sys.argv[1]); "
                 "print(f.attrs['config']); print(list(f['faults/nodes'][()]))", out_file],
                capture_output=True, text=True, check=False)
            if probe.returncode != 0:
                self.skipTest("no h5py for /usr/bin/python3")
            self.assertIn(f'faults = "{f}"', probe.stdout)
            self.assertIn("allow-disconnected = true", probe.stdout)
            self.assertIn("[3]", probe.stdout)
            r = self.write(d, "r.toml", 'topology = "mesh:4x4"\nrouting = "west-first"\n'
                           "fail-nodes = 1\nfault-seed = 2\nmeasure = 500\n")
            rc, out, err = run("run", "--config", r, "--fail-nodes", "0")
            self.assertEqual(rc, 2)
            self.assertIn("--fault-seed '2': is read with --fail-links or --fail-nodes only", err)

    def test_info_skips_the_all_pairs_search_past_its_budget(self):
        # torus:300x300 with a failed link: a search from each of the 90000 working nodes
        # visits 8.1e9 nodes, past 4e9 on one rank; the counts and the cut are still given.
        j = run_json(self, "info", "-t", "torus:300x300", "--fail-links", "1")
        self.assertFalse(j["faults"]["distances_known"])
        self.assertEqual(j["links"], 2 * 90000 - 1)
        self.assertTrue(j["faults"]["connected"])
        rc, out, err = run("info", "-t", "torus:300x300", "--fail-links", "1")
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("diameter          not computed: a search from every working node "
                      "visits about 8.1e+09 nodes", out)
        self.assertIn("run on at least 3 ranks", out)

    def test_verify_names_the_failed_channel(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            f = self.write(d, "f.txt", "link (1,0) X-\n")
            j = run_json(self, "verify", "-t", "torus:4x4", "-r", "dor", "--faults", f, code=1)
            self.assertFalse(j["delivery"]["ok"])
            self.assertEqual(j["delivery"]["defect"],
                             "the route (1,0) -> (0,0) takes (1,0) X- -> (0,0), a failed channel")
            self.assertEqual(j["faults"]["failed_links"], 1)
            # West-first on mesh:4x4 without its south-east corner delivers and is proven.
            f = self.write(d, "g.txt", "node (3,0)\n")
            j = run_json(self, "verify", "-t", "mesh:4x4", "-r", "west-first", "--faults", f)
            self.assertTrue(j["deadlock_free"])
            self.assertEqual(j["delivery"]["pairs"], 15 * 14)

    def test_run_on_the_working_nodes(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            f = self.write(d, "f.txt", "node (3,0)\n")
            rc, out, err = run("run", "-t", "mesh:4x4", "-r", "west-first", "--faults", f,
                               "--load", "0.1", "--warmup", "500", "--measure", "4000")
            self.assertEqual((rc, err), (0, ""))
            self.assertIn("faults     0 failed links, 1 failed node", out)
            self.assertIn("15 of 16 nodes and 22 of 24 links work", out)
            accepted = float(re.search(r"^accepted +([0-9.]+)", out, re.M).group(1))
            # Per working node: about the offered load below saturation.
            self.assertAlmostEqual(accepted, 0.1, delta=0.02)
            # The progress line too: mesh:3x3 without both east corners has 7 working nodes
            # of 9, so a rate per node of the topology would read 7/9 of the summary's.
            f = self.write(d, "g.txt", "node (2,0)\nnode (2,2)\n")
            rc, out, err = run("run", "-t", "mesh:3x3", "-r", "west-first", "--faults", f,
                               "--load", "0.1", "--warmup", "1000", "--measure", "40000",
                               "--stats-window", "1000", "--progress-interval", "0.000001")
            self.assertEqual((rc, err), (0, ""))
            summary = float(re.search(r"^accepted +([0-9.]+)", out, re.M).group(1))
            figures = [float(m) for m in
                       re.findall(r"^progress .* accepted ([0-9.]+) ", out, re.M)][5:-5]
            self.assertGreater(len(figures), 10, out)
            self.assertAlmostEqual(sum(figures) / len(figures) / summary, 1.0, delta=0.08)


class ConfigFiles(unittest.TestCase):
    """What a configuration file is allowed to be: a UTF-8 byte-order mark at its start is
    not part of the first key, and the command line wins over the file, also over a key it
    excludes."""

    def test_byte_order_mark_and_command_line_wins(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            cfg = os.path.join(d, "bom.toml")
            with open(cfg, "wb") as f:
                f.write("\ufefftopology = \"honeycomb:2\"\nrouting = \"double-xy\"\n"
                        "warmup = 20\nmeasure = 300\n".encode())
            rc, out, err = run("run", "--config", cfg, "--cycles", "200")
            self.assertEqual((rc, err), (0, ""))
            self.assertIn("honeycomb:2", out)


class EnumNames(unittest.TestCase):
    """Every enum option's names, as docs/ and the README spell them: the same set in every
    subcommand's --help, and a configuration stored with the names other than the defaults
    reads back (--config) to the same configuration."""

    NAMES = {
        "--flow-control": {"credit", "bubble"},
        "--selection": {"priority", "random", "least-occupied"},
        "--vc-bandwidth": {"shared", "per-vc"},
        "--ring-tie": {"plus", "random", "alternating"},
        "--partition": {"geometric", "blocks", "metis"},
        "--traffic": {"uniform", "transpose", "neighbor", "tornado", "bit-complement", "hotspot",
                      "all-to-all"},
        "--process": {"poisson", "bernoulli"},
        "--congestion": {"off", "totals", "series"},
    }
    OPTIONS = {
        "run": list(NAMES), "sweep": list(NAMES),
        "info": ["--flow-control", "--ring-tie", "--traffic"],
        "verify": ["--flow-control", "--ring-tie"],
    }

    def test_every_name_in_help(self):
        for command, options in self.OPTIONS.items():
            rc, out, err = run(command, "--help")
            self.assertEqual((rc, err), (0, ""), command)
            for option in options:
                m = re.search(re.escape(option) + r" ENUM:\{([^}]*)\}", out)
                self.assertIsNotNone(m, f"{command} {option}")
                self.assertEqual(set(m.group(1).split(",")), self.NAMES[option],
                                 f"{command} {option}")

    @staticmethod
    def stored_configuration(path):
        """The effective configuration a results file holds (its attribute's bytes)."""
        with open(path, "rb") as f:
            data = f.read()
        start = data.find(b"# wormnet effective configuration")
        return data[start:data.find(b"\0", start)].decode() if start >= 0 else ""

    def test_stored_configuration_reads_back(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            first = os.path.join(d, "first.h5")
            rc, _, err = run("run", "--topology", "torus:4x4", "--routing", "dor",
                             "--flow-control", "bubble", "--buffer", "40", "--selection",
                             "random", "--vc-bandwidth", "per-vc", "--ring-tie", "alternating",
                             "--partition", "blocks", "--traffic", "tornado", "--process",
                             "bernoulli", "--congestion", "totals", "--load", "0.05",
                             "--warmup", "20", "--measure", "100", "--output", first)
            self.assertEqual((rc, err), (0, ""))
            text = self.stored_configuration(first)
            for key, value in [("flow-control", "bubble"), ("selection", "random"),
                               ("vc-bandwidth", "per-vc"), ("ring-tie", "alternating"),
                               ("partition", "blocks"), ("traffic", "tornado"),
                               ("process", "bernoulli"), ("congestion", "totals")]:
                self.assertIn(f'\n{key} = "{value}"\n', text)
            toml = os.path.join(d, "stored.toml")
            with open(toml, "w") as f:
                f.write(text)
            second = os.path.join(d, "second.h5")
            rc, _, err = run("run", "--config", toml, "--output", second)
            self.assertEqual((rc, err), (0, ""))
            self.assertEqual(self.stored_configuration(second), text)


class Progress(unittest.TestCase):
    """The progress line's accepted traffic is in flits/node/cycle like the summary's: below
    saturation it is about the offered load. It once left out the node count and read N
    times too high (4.65 against 0.045 on H_4, N = 96)."""

    def test_accepted_is_per_node(self):
        load = 0.04
        rc, out, err = run("run", "-t", "honeycomb:4", "-r", "double-xy", "--load", str(load),
                           "--warmup", "500", "--measure", "20000", "--stats-window", "500",
                           "--progress-interval", "0.000001")
        self.assertEqual((rc, err), (0, ""))
        figures = [float(m) for m in re.findall(r"^progress .* accepted ([0-9.]+) ", out, re.M)]
        self.assertGreater(len(figures), 5, out)
        summary = float(re.search(r"^accepted +([0-9.]+) flits/node/cycle", out, re.M).group(1))
        self.assertAlmostEqual(summary, load, delta=0.25 * load)
        # Each line shows the last statistics window: within noise of the offered load (one
        # window of 500 cycles holds about 96 x 500 x 0.04 / 20 = 96 messages).
        after_warmup = figures[len(figures) // 4:]
        for a in after_warmup:
            self.assertLess(a, 3 * load, out)
        mean = sum(after_warmup) / len(after_warmup)
        self.assertAlmostEqual(mean, load, delta=0.35 * load)


class Memory(unittest.TestCase):
    """The summary's memory line: model state per router, the peak resident memory over all
    ranks and per rank (issue 42: what one node must hold). One rank: the per-rank figure is
    the total, and the total holds at least the model state."""

    def test_memory_line_is_coherent(self):
        rc, out, err = run("run", "-t", "torus:8x8x8", "-r", "dor-dateline", "--load", "0.01",
                           "--warmup", "100", "--measure", "300")
        self.assertEqual((rc, err), (0, ""))
        m = re.search(r"^memory +(\d+) bytes/router of model state; peak resident ([0-9.]+) MiB "
                      r"over all ranks = (\d+) bytes/router; per rank ([0-9.]+) MiB; (\d+) MiB "
                      r"in huge pages$", out, re.M)
        self.assertIsNotNone(m, out)
        state, total, per_router, per_rank = (int(m[1]), float(m[2]), int(m[3]), float(m[4]))
        # Huge pages are resident memory (none here: no array of 512 routers reaches 2 MiB).
        self.assertLessEqual(int(m[5]), total)
        routers = 512
        self.assertEqual(per_rank, total)
        self.assertAlmostEqual(per_router * routers / 2**20, total, delta=0.1)
        self.assertGreater(per_router, state)
        # A process that ran anything holds a few MiB; a figure in KiB read as bytes would not.
        self.assertGreater(total, 4.0)


class Version(unittest.TestCase):
    """The revision in --version (and in every output file) is the checkout's HEAD at build
    time, read at every build: it used to be read at configure time only and went stale
    with each commit."""

    def test_revision_is_the_checkouts_head(self):
        source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        git = shutil.which("git")
        if git is None or not os.path.exists(os.path.join(source, ".git")):
            self.skipTest("not a git checkout")
        head = subprocess.run([git, "-C", source, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        rc, out, err = run("--version")
        self.assertEqual(rc, 0, err)
        m = re.fullmatch(r"\S+ \(([0-9a-f]{12})(-dirty)?\)\n", out)
        self.assertIsNotNone(m, out)
        self.assertEqual(m.group(1), head, "built from another revision than HEAD: rebuild")


def main():
    global WORMNET
    args = sys.argv[1:]
    if len(args) < 2 or args[0] != "--wormnet":
        sys.exit("usage: cli_test.py --wormnet PATH [unittest arguments]")
    WORMNET = os.path.abspath(args[1]) if os.sep in args[1] else args[1]
    import time
    start = time.time()
    result = unittest.main(argv=[sys.argv[0], "-v", *args[2:]], exit=False).result
    if CASES_RUN[0]:
        print(f"bad-input corpus: {CASES_RUN[0]} cases in {time.time() - start:.1f} s "
              f"({CORPUS_WORKERS} at a time)", file=sys.stderr)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
