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


def run(*args):
    """Runs wormnet with args; returns (exit code, stdout, stderr)."""
    p = subprocess.run([WORMNET, *args], capture_output=True, text=True, timeout=300,
                       check=False)
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
                              ("--selection", ("priority", "random")),
                              ("--flow-control", ("credit", "bubble")),
                              ("--vc-bandwidth", ("shared", "per-vc"))):
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
                ("torus:4x4", "angara", [], 0)]:
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


class RunBadInput(BadInput):
    """Bad simulation options: the same one-line contract, and no results file is left
    behind that could be taken for a finished run."""

    base = ["run", "-t", "honeycomb:3", "-r", "double-xy", "--warmup", "100", "--measure", "200"]

    def test_load_out_of_range(self):
        for value in ("0", "-0.1", "1.5", "nan"):
            self.expect_one_line([*self.base, "--load", value], "--load", "(0, 1]")

    def test_load_fraction_out_of_range(self):
        self.expect_one_line([*self.base, "--load-fraction", "2"], "--load-fraction", "(0, 1]")

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


class Corpus(unittest.TestCase):
    """The bad-input corpus: every option of every subcommand with wrong values, config files
    with unknown keys, wrong types, duplicated keys and garbage; each gives the one-line error
    (option, value, what is allowed) and exit code 2, and an existing results file survives.
    The option lists come from --help, so a new option without a case here fails the test."""

    expect_one_line = BadInput.expect_one_line
    RUN = ["run", "-t", "honeycomb:2", "-r", "double-xy", "--warmup", "50", "--measure", "100"]
    SWEEP = ["sweep", "-t", "honeycomb:2", "-r", "double-xy", "--warmup", "50", "--measure",
             "100", "--loads", "0.1"]
    # option: wrong values (each refused naming the option and the value)
    SIM = {
        "--topology": ["honeycomb:0", "torus:1x4", "ring:4", "honeycomb:18000", "mesh:4x4x4x4x4x4x4"],
        "--routing": ["dor", "zigzag", ""],
        "--vcs": ["-1", "abc", "1"],
        "--buffer": ["0", "x", "-3"],
        "--link-latency": ["0", "1.5"],
        "--credit-latency": ["0", "many"],
        "--injection-latency": ["-1", "1001", "x"],
        "--ejection-latency": ["-1", "1001", "x"],
        # honeycomb double-xy has no half-ring ties to draw
        "--ring-tie": ["sideways", "", "random", "alternating"],
        "--self-traffic": [],  # a flag; refused with non-uniform traffic (test below)
        "--preset": ["gem5", ""],
        "--routing-delay": ["-1", "99999999999"],
        "--vc-alloc-delay": ["-1", "q"],
        "--switch-alloc-delay": ["-1", "0x"],
        "--switch-delay": ["-1", "nan"],
        "--flow-control": ["wormhole", ""],
        "--selection": ["best"],
        "--vc-bandwidth": ["double", ""],
        "--tables": [],  # a path, read by --routing table; bad table files: cli.Tables
        "--partition": ["random", ""],
        "--traffic": ["bursty"],
        "--process": ["pareto"],
        "--load": ["0", "-0.1", "1.5", "nan", "inf", "abc"],
        "--load-fraction": ["0", "2", "x"],
        "--length": ["0", "-4", "x"],
        "--length-min": ["0", "x"],
        "--length-max": ["0", "x"],
        "--hotspot-fraction": ["-0.5", "2", "x"],
        "--hotspot-nodes": ["999", "a", "-1"],
        "--warmup": ["-1", "x"],
        "--measure": ["-1", "x", "0"],
        "--cycles": ["-1", "x"],
        "--drain-limit": ["-1", "x"],
        "--stats-window": ["0", "-1", "x"],
        "--deadlock-threshold": ["0", "-1"],
        "--flit-rate": ["0", "-1", "x"],
        "--seed": ["-1", "x", "18446744073709551616"],
        "--config": ["/no/such/file.toml"],
        "--output": ["/no/such/dir/out.h5"],
        "--quiet": [],  # a flag
        "--checkpoint-every": ["0", "-5", "5x", "m", "1.5h"],
        "--checkpoint-dir": [],  # checked when a checkpoint is planned (test below)
        "--restart": ["/no/such/dir"],
        "--walltime": ["1", "00:00:00", "1:60:00", "a:b:c", "-1:00:00"],
        "--stop-at-cycle": ["-5", "x"],
        "--progress-interval": ["0", "-1", "x"],
    }
    SWEEP_ONLY = {
        "--loads": ["0", "1.5", "a,b", ""],
        "--load-range": ["0.1", "0.2:0.1:0.1", "a:b:c", "0:1:0"],
        "--relative": [],  # a flag
        "--after-saturation": ["-1", "x"],
    }
    OTHER = {
        "info": (["info", "-t", "torus:4x4"], {"--topology": ["torus:4x", "x"],
                                                "--routing": ["west-first"],
                                                "--load": [], "--json": [],
                                                "--flow-control": ["none"],
                                                "--ring-tie": ["north"],
                                                # bad table files: cli.Tables
                                                "--tables": []}),
        "verify": (["verify", "-t", "torus:4x4", "-r", "dor"], {"--topology": ["mesh:1x1"],
                                                               "--routing": ["xy", "angara-x"],
                                                               "--flow-control": ["none"],
                                                               "--ring-tie": ["x"],
                                                               "--json": [],
                                                               "--tables": []}),
    }

    def options_of(self, command):
        rc, out, _ = run(command, "--help")
        self.assertEqual(rc, 0)
        names = set()
        import re
        for line in out.splitlines():
            # The option column: "  -t,--topology TEXT ..." / "  --load-range TEXT ...".
            m = re.match(r"^\s+(?:-\w,)?(--[a-z][a-z-]*)", line)
            if m and m.group(1) != "--help":
                names.add(m.group(1))
        return names

    @staticmethod
    def without(base, option):
        """`base` without `option` (or its short form) and its value."""
        short = {"--topology": "-t", "--routing": "-r"}.get(option)
        out, skip = [], False
        for a in base:
            if skip:
                skip = False
            elif a in (option, short):
                skip = True
            else:
                out.append(a)
        return out

    def check_table(self, base, table, command, shared_sample=False):
        self.assertEqual(self.options_of(command), set(table),
                         f"options of 'wormnet {command}' without (or with stale) corpus entries")
        for option, values in table.items():
            if shared_sample and option in self.SIM:
                values = values[:1]  # the same code as run's: one value each
            for value in values:
                with self.subTest(option=option, value=value):
                    args = [*self.without(base, option), option, value]
                    named = [option]
                    if value.strip() and value.isprintable():
                        named.append(value)
                    self.expect_one_line(args, *named)

    def test_every_run_option(self):
        self.check_table(self.RUN, self.SIM, "run")

    def test_every_sweep_option(self):
        self.check_table(self.SWEEP, {**self.SIM, **self.SWEEP_ONLY}, "sweep", shared_sample=True)

    def test_every_info_and_verify_option(self):
        for command, (base, table) in self.OTHER.items():
            self.check_table(base, table, command)

    def test_huge_networks_are_refused_cleanly(self):
        for command in (["info"], ["verify", "-r", "double-xy"], [*self.RUN[:1], "-r", "double-xy"]):
            self.expect_one_line([*command, "-t", "honeycomb:100000"], "--topology",
                                 "honeycomb:100000", "18000")
        self.expect_one_line(["info", "-t", "torus:2000x1000x1000"], "--topology",
                             "torus:2000x1000x1000", "GiB")

    def test_a_routing_is_no_alternative_to_itself(self):
        rc, _, err = run("verify", "-t", "mesh:4x4x4", "-r", "west-first")
        self.assertEqual(rc, 2)
        allowed = err[err.index("allowed:"):]
        self.assertNotIn("west-first", allowed)
        self.assertIn("xy", allowed)
        rc, _, err = run("verify", "-t", "torus:4x4", "-r", "xy")
        self.assertNotIn("xy,", err[err.index("allowed:"):])

    def test_config_file_corpus(self):
        import os
        import tempfile
        cases = {
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
        }
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "results.h5")
            with open(out, "wb") as f:
                f.write(b"an earlier result\n")
            for name, (text, word) in cases.items():
                path = os.path.join(d, name + ".toml")
                with open(path, "w") as f:
                    f.write(text)
                with self.subTest(case=name):
                    self.expect_one_line([*self.RUN, "--config", path, "-o", out], word)
            for name, data in (("garbage", bytes(range(256)) * 8), ("empty_binary", b"\xff\xfe"),
                               ("huge", b"# x\n" * 300000),
                               ("utf16", "seed = 1\n".encode("utf-16"))):
                path = os.path.join(d, name + ".toml")
                with open(path, "wb") as f:
                    f.write(data)
                with self.subTest(case=name):
                    self.expect_one_line([*self.RUN, "--config", path, "-o", out], "--config",
                                         name + ".toml")
            with self.subTest(case="directory"):
                self.expect_one_line([*self.RUN, "--config", d, "-o", out], "--config")
            with open(out, "rb") as f:
                self.assertEqual(f.read(), b"an earlier result\n")

    def test_bad_input_never_touches_an_existing_output(self):
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "results.h5")
            with open(out, "wb") as f:
                f.write(b"an earlier result\n")
            for extra, word in ((["--vcs", "1"], "--vcs"),
                                (["--traffic", "hotspot", "--hotspot-nodes", "99"], "99"),
                                (["--checkpoint-dir", "/proc/no/such", "--stop-at-cycle", "60"],
                                 "--checkpoint-dir"),
                                (["--checkpoint-dir", out, "--checkpoint-every", "10"],
                                 "--checkpoint-dir"),
                                (["--restart", d], "--restart"),
                                (["--walltime", "7"], "--walltime")):
                with self.subTest(extra=extra):
                    self.expect_one_line([*self.RUN, *extra, "-o", out], word)
                    with open(out, "rb") as f:
                        self.assertEqual(f.read(), b"an earlier result\n")


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
    WORMNET = args[1]
    unittest.main(argv=[sys.argv[0], "-v", *args[2:]])


if __name__ == "__main__":
    main()
