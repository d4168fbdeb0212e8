#!/usr/bin/python3
"""Saturated points (issue 39, item 4) and the progress line (item 5):

- EarlyStop: `--stop-backlog B` / `--stop-latency L` stop a saturated point at the first
  statistics window after the warm-up whose sources hold more than B flits per node (whose
  ejected packets took more than L cycles on average). Checked against the raw time series (the
  stopping window is the first to cross the bound), the point is flagged saturated with the
  reason and `stopped_early` = 1, it ends far before the drain limit would have ended it,
  `--after-saturation 0` ends the sweep there, the points before it are bit-identical to a
  sweep without the early stop, and the file is the same on 2 ranks and after a restart;
- Progress: the drain's progress line counts the labelled packets left (their total is the
  point's labelled packets, and what is left never grows); `--progress auto` draws a live bar
  on a terminal (a pseudo-terminal here) but writes lines when an MPI launcher stands between
  (mpiexec -n 2 into a file: no carriage return), `--progress lines|none` do what they say.

usage: saturation_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR [EarlyStop|Progress]
"""
import argparse
import os
import pty
import re
import shutil
import subprocess
import sys
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rank_determinism_test as determinism  # noqa: E402

WORMNET = MPIEXEC = OUT = None
NODES = 96  # honeycomb:4
WARMUP, MEASURE, WINDOW, DRAIN = 500, 2000, 100, 20000
SWEEP = ["sweep", "-q", "-t", "honeycomb:4", "-r", "double-xy", "--loads", "0.02,0.05,0.09,0.12",
         "--warmup", str(WARMUP), "--measure", str(MEASURE), "--stats-window", str(WINDOW),
         "--drain-limit", str(DRAIN), "--after-saturation", "0"]


def run(args, expect=(0,), ranks=1, stdout=None):
    cmd = [WORMNET, *args]
    if ranks > 1:
        cmd = [MPIEXEC, "--oversubscribe", "-n", str(ranks), *cmd]
    r = subprocess.run(cmd, capture_output=stdout is None, stdout=stdout, text=True,
                       timeout=600)
    if r.returncode not in expect:
        raise AssertionError(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r


def path(name):
    return os.path.join(OUT, name)


def differences(a, b, ignore=()):
    ca = determinism.contents(a)
    cb = determinism.contents(b)
    keys = set(ca) | set(cb)
    return sorted(k for k in keys if not any(i in k for i in ignore) and
                  (k not in ca or k not in cb or not determinism.same(ca[k], cb[k])))


class EarlyStop(unittest.TestCase):
    def sweep(self, name, extra, ranks=1):
        out = path(name)
        for p in (out, out + ".partial", out + ".lock"):
            if os.path.exists(p):
                os.remove(p)
        run([*SWEEP, *extra, "-o", out], ranks=ranks)
        return out

    def check_stop(self, out, column, bound):
        """The point stopped at the first window after the warm-up whose `column` (per node
        for the backlog) crosses `bound`; returns (stop cycle, point index)."""
        with h5py.File(out, "r") as f:
            s = f["summary"]
            sat = s["saturated"][()]
            self.assertEqual(sat[-1], 1, "the last point is saturated")
            self.assertTrue(np.all(sat[:-1] == 0), "--after-saturation 0 ends the sweep there")
            k = int(s["point"][-1])
            g = f[f"points/{k:03d}"]
            reason = g.attrs["saturation_reason"]
            m = re.match(r"early stop at cycle (\d+): ", reason)
            self.assertIsNotNone(m, reason)
            stop = int(m.group(1))
            self.assertEqual(int(g.attrs["stopped_early"]), 1)
            self.assertEqual(int(g.attrs["cycles"]), stop, "the point ends at the stop")
            for j in range(k):
                self.assertEqual(int(f[f"points/{j:03d}"].attrs["stopped_early"]), 0)
            ts = g["timeseries"]
            end = ts["cycle_end"][()]
            value = ts[column][()].astype(float)
            if column == "flits_at_sources":
                value = value / NODES
            after = end > WARMUP
            self.assertEqual(int(end[-1]), stop, "the stop is at a statistics window's end")
            self.assertGreater(value[-1], bound, f"{column} at the stop")
            self.assertTrue(np.all(value[after][:-1] <= bound),
                            f"an earlier window after the warm-up crossed {bound}: "
                            f"{value[after][:-1].max()}")
            if stop < WARMUP + MEASURE:
                self.assertEqual(int(g.attrs["window_cycles"]), stop - WARMUP,
                                 "a stop inside the window measures up to it")
        return stop, k

    def test_backlog(self):
        plain = self.sweep("plain.h5", [])
        early = self.sweep("backlog.h5", ["--stop-backlog", "40"])
        stop, k = self.check_stop(early, "flits_at_sources", 40.0)
        with h5py.File(plain, "r") as f:
            s = f["summary"]
            self.assertEqual(int(s["point"][-1]), k, "the same point saturates without it")
            full = int(f[f"points/{k:03d}"].attrs["cycles"])
        self.assertLess(stop, full, "the early stop saves cycles")
        print(f"backlog: stopped at cycle {stop} instead of {full}")
        # Before the saturated point the early stop changed nothing.
        d = differences(plain, early, ignore=("stopped_early", f"points/{k:03d}", "summary",
                                              "/@config"))
        self.assertEqual(d, [])
        with h5py.File(plain, "r") as a, h5py.File(early, "r") as b:
            for c in a["summary"].attrs["columns"]:
                c = c.decode() if isinstance(c, bytes) else c
                if c != "wall_seconds":
                    np.testing.assert_array_equal(a["summary"][c][:k], b["summary"][c][:k])
            self.assertIn("stop-backlog = 40", b.attrs["config"])
            self.assertNotIn("stop-", a.attrs["config"])
        # The same on 2 ranks.
        two = self.sweep("backlog2.h5", ["--stop-backlog", "40"], ranks=2)
        self.assertEqual(differences(early, two), [])
        # And across a restart (stopped before the early stop, continued on 2 ranks).
        ck = path("backlog.ck")
        shutil.rmtree(ck, ignore_errors=True)
        out = path("backlog_restart.h5")
        for p in (out, out + ".partial"):
            if os.path.exists(p):
                os.remove(p)
        run([*SWEEP, "--stop-backlog", "40", "-o", out, "--stop-at-cycle", str(stop - 150),
             "--checkpoint-dir", ck], expect=(5,))
        run([*SWEEP, "--stop-backlog", "40", "-o", out, "--restart", ck], ranks=2)
        self.assertEqual(differences(early, out), [])

    def test_latency(self):
        early = self.sweep("latency.h5", ["--stop-latency", "400"])
        stop, _ = self.check_stop(early, "latency_mean", 400.0)
        print(f"latency: stopped at cycle {stop}")

    def test_refused_with_a_workload(self):
        r = run(["run", "-t", "torus:4x4", "-r", "dor-dateline", "--workload", "halo2d",
                 "--stop-latency", "100"], expect=(2,))
        self.assertEqual(len(r.stderr.splitlines()), 1)
        self.assertIn("--stop-latency", r.stderr)


def run_pty(args):
    """Runs wormnet with its stdout on a pseudo-terminal; returns the bytes it wrote."""
    master, slave = pty.openpty()
    p = subprocess.Popen([WORMNET, *args], stdout=slave, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    p.wait(timeout=600)
    p.stderr.close()
    os.close(master)
    return p.returncode, out


class Progress(unittest.TestCase):
    RUN = ["run", "-t", "honeycomb:20", "-r", "double-xy", "--load", "0.01", "--warmup", "200",
           "--measure", "6000", "--drain-limit", "500", "--progress-interval", "0.05"]

    def test_auto_on_a_terminal_is_a_bar(self):
        rc, out = run_pty(self.RUN)
        self.assertEqual(rc, 0)
        self.assertIn(b"\rpoint 0  cycle", out, "a live bar")
        self.assertNotIn(b"progress   point", out)

    def test_lines_and_none_on_a_terminal(self):
        rc, out = run_pty([*self.RUN, "--progress", "lines"])
        self.assertEqual(rc, 0)
        self.assertNotIn(b"\rpoint", out)
        self.assertIn(b"progress   point 0  cycle", out)
        rc, out = run_pty([*self.RUN, "--progress", "none"])
        self.assertEqual(rc, 0)
        self.assertNotIn(b"point 0  cycle", out)
        self.assertIn(b"accepted ", out, "the summary is still printed")

    def test_auto_under_mpiexec_is_lines(self):
        # Rank 0's stdout is Open MPI's pseudo-terminal even when mpiexec's goes to a file.
        log = path("mpiexec.log")
        with open(log, "w") as f:
            run(self.RUN, ranks=2, stdout=f)
        with open(log, "rb") as f:
            data = f.read()
        self.assertNotIn(b"\r", data, "no carriage return in the log")
        self.assertIn(b"progress   point 0  cycle", data)

    def test_the_drain_counts_the_labelled_packets_left(self):
        out = path("drain.h5")
        for p in (out, out + ".partial"):
            if os.path.exists(p):
                os.remove(p)
        r = run(["run", "-t", "honeycomb:24", "-r", "double-xy", "--load", "0.05", "--warmup",
                 "200", "--measure", "800", "--drain-limit", "12000", "--progress", "lines",
                 "--progress-interval", "0.02", "-o", out])
        lines = [x for x in r.stdout.splitlines() if x.startswith("progress") and " drain " in x]
        self.assertTrue(lines, r.stdout)
        with h5py.File(out, "r") as f:
            labelled = int(f["points/000"].attrs["labelled_packets"])
        left = []
        for x in lines:
            m = re.search(r"draining: (\d+) of (\d+) labelled packets left, eta (\S+) "
                          r"\(drain limit: cycle (\d+), (\S+)\)", x)
            self.assertIsNotNone(m, x)
            self.assertEqual(int(m.group(2)), labelled)
            self.assertEqual(int(m.group(4)), 200 + 800 + 12000)
            left.append(int(m.group(1)))
        self.assertEqual(left, sorted(left, reverse=True), "what is left never grows")
        self.assertNotIn("99.9%", r.stdout, "the drain is not shown as 99.9 %")


def main():
    global WORMNET, MPIEXEC, OUT
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--out", required=True)
    args, rest = ap.parse_known_args()
    WORMNET, MPIEXEC, OUT = args.wormnet, args.mpiexec, os.path.abspath(args.out)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
