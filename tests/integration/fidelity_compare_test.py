#!/usr/bin/env python3
"""runs/fidelity/compare.py without BookSim: a stand-in binary prints BookSim's output format
(per-sample blocks with decoy figures, then the overall statistics, or the abort of an
unstable run) for a hand-made network that saturates at a known load, and the real wormnet
runs the small mesh row. Checked against hand-worked facts:

- what the script parses from BookSim's output (the overall figures, not the per-sample ones;
  an aborted run as unstable) and the configuration it hands BookSim (cycles, latency_thres =
  3x the zero-load latency);
- its bisection: the stand-in fails at 0.14 by aborting, at 0.12 by latency (above the limit,
  no abort), at 0.115 by throughput (accepted < 95 %), and sustains 0.11, so 4 steps over
  [0.10, 0.18] must end at 0.1100-0.1150;
- the verdicts against the 3 % / 5 % tolerances on the published figures of docs/fidelity.md
  (-2.3 % zero-load within, +6.6 % saturation outside) and at the rounding boundary;
- with --seeds, the mean over the seeds decides: at 0.11 seed 1 alone is stable (latency 200)
  but seeds 1 and 2 are not (200 and 320: mean 260 > 255), so 4 steps end at 0.1050-0.1100,
  and BookSim's abort is off (an aborted run has no figures to pool);
- bad arguments: one line on stderr, exit code 2.

usage: fidelity_compare_test.py --wormnet BIN --out DIR [unittest args]
"""
import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "runs", "fidelity", "compare.py")
WORMNET = OUT = None

# The stand-in BookSim. Zero-load latency 85.0; per-sample blocks carry decoy figures (999,
# 0.5) that a parser reading the wrong block would report.
FAKE_BOOKSIM = r'''#!/usr/bin/env python3
import re, sys
cfg = dict(re.findall(r"^(\w+) = (.*);$", open(sys.argv[1]).read(), re.M))
rate = float(cfg["injection_rate"])
print("BEGIN Configuration File: " + sys.argv[1])
print("END Configuration File: " + sys.argv[1])
print("Class 0:\nPacket latency average = 999\n\tminimum = 10\n\tmaximum = 999")
print("Accepted flit rate average= 0.5\n\tminimum = 0.4 (at node 3)")
if rate > 0.13:
    print("Average latency for class 0 exceeded %s cycles. Aborting simulation." % cfg["latency_thres"])
    print("Too many sample periods needed to converge\nSimulation unstable, ending ...")
    sys.exit(255)
latency, accepted = 120.0, rate
if rate < 0.01:
    latency = 85.0
elif 0.105 < rate <= 0.112:
    latency = 200.0 if int(cfg["seed"]) % 2 else 320.0  # the mean of seeds 1, 2: 260 > 255
elif rate > 0.118:
    latency = 300.0          # above 3 x 85 = 255, but this run does not abort
elif rate > 0.112:
    accepted = 0.9 * rate    # below 95 % of the offered load
print("Draining remaining packets ...\nTime taken is 13327 cycles")
print("====== Overall Traffic Statistics ======\n====== Traffic class 0 ======")
print("Packet latency average = %g (1 samples)\n\tminimum = 10 (1 samples)" % latency)
print("Accepted flit rate average = %g (1 samples)" % accepted)
print("Total run time 0.01")
sys.exit(255)
'''


def load_compare():
    spec = importlib.util.spec_from_file_location("compare", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Verdicts(unittest.TestCase):
    def setUp(self):
        self.c = load_compare()

    def test_published_rows(self):
        # docs/fidelity.md: 10..200-flit mesh 195.2 vs 190.7, 0.1125-0.1150 vs 0.1200-0.1225;
        # 20-flit mesh 84.5 vs 85.4, 0.1350-0.1375 vs 0.1375-0.1400.
        row = self.c.verdict_row("var", {"zero": 195.2, "sat": (0.1125, 0.1150)},
                                 {"zero": 190.7, "sat": (0.1200, 0.1225)})
        self.assertEqual(row, "| var | wormnet vs BookSim | -2.3 % (within 3 %) | "
                              "+6.6 % (OUTSIDE 5 %) | | | | |")
        row = self.c.verdict_row("b4", {"zero": 84.5, "sat": (0.1350, 0.1375)},
                                 {"zero": 85.4, "sat": (0.1375, 0.1400)})
        self.assertIn("| +1.1 % (within 3 %) | +1.8 % (within 5 %) |", row)

    def test_boundaries_and_missing_figures(self):
        c = self.c
        self.assertEqual(c.verdict(c.deviation(100.0, 103.04), 3.0), "within")   # +3.0 %
        self.assertEqual(c.verdict(c.deviation(100.0, 103.06), 3.0), "OUTSIDE")  # +3.1 %
        self.assertEqual(c.verdict(c.deviation(0.2, 0.19), 5.0), "within")       # -5.0 %
        self.assertEqual(c.verdict(c.deviation(0.2, 0.1898), 5.0), "OUTSIDE")    # -5.1 %
        row = c.verdict_row("t", {"zero": 40.0, "sat": None}, {"zero": 50.0, "sat": None})
        self.assertIn("| +25.0 % (OUTSIDE 3 %) | - |", row)


class EndToEnd(unittest.TestCase):
    def setUp(self):
        self.dir = os.path.join(OUT, self.id().split(".", 1)[1])
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.fake = os.path.join(self.dir, "booksim")
        with open(self.fake, "w") as f:
            f.write(FAKE_BOOKSIM.replace("/usr/bin/env python3", sys.executable))
        os.chmod(self.fake, os.stat(self.fake).st_mode | stat.S_IXUSR)

    def compare(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                              timeout=300)

    def test_mesh_row(self):
        logs = os.path.join(self.dir, "logs")
        # --nice 0: niced children starve when the suite runs on a busy machine.
        r = self.compare("--booksim", self.fake, "--wormnet", WORMNET, "--only", "mesh-b4",
                         "--nice", "0",
                         "--steps", "4", "--warmup", "1000", "--measure", "2000",
                         "--sat-measure", "2000", "--out", logs)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = [line.split(" | ") for line in r.stdout.splitlines()
                if line.startswith("| mesh 16x16 xy, buffer 4, 20 flits |")]
        self.assertEqual([row[1] for row in rows], ["BookSim", "wormnet", "wormnet vs BookSim"],
                         r.stdout)
        booksim, wormnet, verdict = rows
        # BookSim's row: the overall figures and the bisection's bracket worked out above.
        self.assertEqual(booksim[2:5], ["85.0", "0.1100-0.1150", "0.1"])
        self.assertEqual(booksim[6], "13327")
        # wormnet's row: its zero-load latency on this mesh is 85.4 (docs/fidelity.md, within
        # ~1 cycle over 40,000 cycles); its saturation (~0.14) is far above the stand-in's.
        zero = float(wormnet[2])
        self.assertLess(abs(zero - 85.4), 1.5)
        lo, hi = (float(x) for x in wormnet[3].split("-"))
        self.assertAlmostEqual(hi - lo, 0.08 / 16)
        self.assertGreater(lo, 0.12)
        self.assertGreater(int(wormnet[6]), 3000)
        # The verdicts, recomputed from the printed figures.
        dz = 100 * (zero - 85.0) / 85.0
        ds = 100 * ((lo + hi) / 2 - 0.1125) / 0.1125
        self.assertEqual(verdict[2], f"{dz:+.1f} % (within 3 %)")  # |dz| < 2.3 given the above
        self.assertEqual(verdict[3], f"{ds:+.1f} % (OUTSIDE 5 %)")
        # What BookSim was given: the cycles asked for and the latency limit of the bisection.
        def cfg(tag):
            with open(os.path.join(logs, f"mesh-b4-{tag}.booksim.cfg")) as f:
                return dict(re.findall(r"^(\w+) = (.*);$", f.read(), re.M))
        self.assertEqual((cfg("zero")["warmup_periods"], cfg("zero")["max_samples"]), ("1", "41"))
        self.assertEqual(cfg("speed")["max_samples"], "3")
        self.assertEqual([float(cfg(f"sat{i}")["injection_rate"]) for i in range(4)],
                         [0.14, 0.12, 0.11, 0.115])
        self.assertEqual({float(cfg(f"sat{i}")["latency_thres"]) for i in range(4)}, {255.0})

    def test_seeds_are_pooled(self):
        c = load_compare()
        booksim = c.BookSim(self.fake, self.dir, nice=0)
        cfg = next(x for x in c.CONFIGS if x["name"] == "mesh-b4")
        self.assertEqual(c.saturation(booksim, cfg, 4, 1000, 2000, [1], 255.0), (0.11, 0.115))
        self.assertEqual(c.saturation(booksim, cfg, 4, 1000, 2000, [1, 2], 255.0),
                         (0.105, 0.11))
        with open(os.path.join(self.dir, "mesh-b4-sat2-s2.booksim.cfg")) as f:
            text = f.read()
        self.assertIn("seed = 2;", text)
        self.assertIn("latency_thres = -1.0;", text)
        zero = c.run_seeds(booksim, cfg, c.ZERO_LOAD, 1000, 2000, [1, 2, 3], "zero")
        self.assertEqual((zero["latency"], zero["unstable"]), (85.0, False))
        both = c.pooled([{"latency": 100.0, "accepted": 0.1, "unstable": False},
                         {"latency": 300.0, "accepted": 0.2, "unstable": True}])
        self.assertEqual((both["latency"], both["unstable"]), (200.0, True))
        self.assertAlmostEqual(both["accepted"], 0.15)

    def test_bad_arguments(self):
        for args, word in ((["--booksim", self.fake, "--only", "nope"], "--only 'nope'"),
                           (["--booksim", os.path.join(self.dir, "none")], "--booksim"),
                           (["--booksim", self.fake, "--measure", "1500"], "--measure 1500"),
                           (["--booksim", self.fake, "--steps", "0"], "--steps 0"),
                           (["--booksim", self.fake, "--seeds", "0"], "--seeds 0"),
                           (["--booksim", self.fake, "--nice", "20"], "--nice 20"),
                           (["--booksim", self.fake, "--only", "torus-dateline"],
                            "--booksim-dateline"),
                           (["--booksim", self.fake, "--no-such-option"], "--no-such-option")):
            r = self.compare("--wormnet", WORMNET, *args)
            self.assertEqual(r.returncode, 2, f"{args}: {r.stderr}")
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertIn(word, r.stderr)
            self.assertEqual(r.stdout, "")


def main():
    global WORMNET, OUT
    args = sys.argv[1:]
    opts = {}
    while args and args[0] in ("--wormnet", "--out"):
        opts[args[0]] = os.path.abspath(args[1])
        args = args[2:]
    if len(opts) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    WORMNET, OUT = opts["--wormnet"], opts["--out"]
    os.makedirs(OUT, exist_ok=True)
    unittest.main(argv=[sys.argv[0], "-v", *args])


if __name__ == "__main__":
    main()
