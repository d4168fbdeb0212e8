#!/usr/bin/env python3
"""Batch-job operation, end to end: checkpoint and restart (same and different rank counts,
run and sweep) give results bit-identical to an uninterrupted run; SIGTERM and --walltime stop
cleanly with a checkpoint and exit code 5; kill -9 leaves a results file that h5py opens with
every flushed window; checkpoints of another configuration or version, and foreign or truncated
files, are refused with one line and exit code 2.

usage: batch_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR [unittest args]
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import unittest

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rank_determinism_test import contents, same  # noqa: E402
import wormnet_seal  # noqa: E402

WORMNET = MPIEXEC = OUT = SHIM = None
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

RUN = ["run", "-t", "torus:6x4", "-r", "dor-dateline", "--load", "0.3", "--length-min", "4",
       "--length-max", "40", "--buffer", "3", "--warmup", "300", "--measure", "3000",
       "--stats-window", "250"]
# BookSim's timing (terminal latencies, credit latency 3, self-traffic) and random half-ring
# ties drawn per packet: none of it may depend on the rank count or on a restart.
PRESET = ["run", "-t", "torus:6x4", "-r", "dor-booksim", "--preset", "booksim", "--vcs", "2",
          "--load", "0.3", "--length", "4", "--link-latency", "2", "--warmup", "300",
          "--measure", "3000", "--stats-window", "250"]
HONEYCOMB = ["run", "-t", "honeycomb:4", "-r", "double-xy", "--load", "0.05", "--warmup", "200",
             "--measure", "2000", "--stats-window", "250"]
# Where packets wait (--congestion totals) under Duato's routing: escape and adaptive VCs.
CONGESTION = ["run", "-t", "torus:6x4", "-r", "duato", "--load", "0.35", "--length", "6",
              "--buffer", "3", "--warmup", "300", "--measure", "3000", "--stats-window", "250",
              "--congestion", "totals"]
# The channel view over time (--congestion series): windows of 100 cycles, so that the
# measurement window [300, 3300) is made of whole statistics windows.
SERIES = [*CONGESTION[:-4], "--stats-window", "100", "--congestion", "series"]
SWEEP = ["sweep", "-t", "honeycomb:3", "-r", "double-xy", "--loads", "0.05,0.1,0.4",
         "--length-min", "4", "--length-max", "20", "--warmup", "200", "--measure", "2000",
         "--drain-limit", "2000", "--after-saturation", "0", "--stats-window", "200"]


def wormnet(args, ranks=1, timeout=600):
    cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET, *args] if ranks > 1 else [WORMNET, *args]
    return subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=timeout)


def path(name):
    return os.path.join(OUT, name)


class ExchangeVolume(unittest.TestCase):
    """The run's exchange line (issue 42, weak scaling by volume): a rank sends one message
    per neighbour rank and window, each at least the 24 bytes of its three counts and on the
    wire at least the smallest size class (128 bytes). torus:8x8 over 2 ranks is cut across
    X into two halves: one neighbour; over 4 ranks into 2 x 2 boxes: one neighbour across X
    and one across Y (the torus's wrap-around joins the same two ranks)."""

    LINE = re.compile(r"^exchange +per rank and window ([0-9.]+) messages, ([0-9.]+) bytes of "
                      r"flits and credits \(([0-9.]+) sent\); the busiest rank ([0-9.]+) bytes "
                      r"per window$", re.M)
    ARGS = ["run", "-t", "torus:8x8", "-r", "dor-dateline", "--load", "0.05", "--warmup", "100",
            "--measure", "400"]

    def test_one_message_per_neighbour_and_window(self):
        for ranks, peers in ((2, 1), (4, 2)):
            p = wormnet(self.ARGS, ranks=ranks)
            self.assertEqual(p.returncode, 0, p.stderr)
            m = self.LINE.search(p.stdout)
            self.assertIsNotNone(m, p.stdout)
            messages, payload, sent, busiest = (float(m[k]) for k in range(1, 5))
            self.assertEqual(messages, peers)
            self.assertGreater(payload, 24.0 * peers)  # counts, and some flits crossed
            self.assertGreaterEqual(sent, 128.0 * peers)
            self.assertGreater(sent, payload)
            self.assertGreaterEqual(busiest, sent - 0.1)

    def test_one_rank_exchanges_nothing(self):
        p = wormnet(self.ARGS)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("exchange ", p.stdout)


class Identical(unittest.TestCase):
    def check_same(self, a, b):
        ca, cb = contents(a), contents(b)
        self.assertEqual(sorted(ca), sorted(cb))
        differ = [k for k in ca if not same(ca[k], cb[k])]
        self.assertEqual(differ, [])
        with h5py.File(b, "r") as f:
            self.assertEqual(f.attrs["status"], "complete")


class CheckpointRestart(Identical):
    """Stop at a checkpoint, restart, compare with the uninterrupted run."""

    @classmethod
    def setUpClass(cls):
        r = wormnet([*RUN, "-q", "-o", path("full.h5")])
        assert r.returncode == 0, r.stderr
        r = wormnet([*SWEEP, "-q", "-o", path("sweep_full.h5")])
        assert r.returncode == 0, r.stderr
        r = wormnet([*HONEYCOMB, "-q", "-o", path("honeycomb_full.h5")])
        assert r.returncode == 0, r.stderr

    def stop_and_restart(self, before, after, stop_at, name, base=RUN, full="full.h5"):
        ck = path(name + ".ck")
        shutil.rmtree(ck, ignore_errors=True)
        out = path(name + ".h5")
        r = wormnet([*base, "-q", "-o", out, "--stop-at-cycle", str(stop_at), "--checkpoint-dir", ck],
                    ranks=before)
        self.assertEqual(r.returncode, 5, r.stderr)
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["status"], "interrupted")
        self.assertTrue(os.path.exists(os.path.join(ck, "checkpoint.h5")))
        r = wormnet([*base, "-q", "-o", out, "--restart", ck], ranks=after)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(path(full), out)

    def test_one_to_one(self):
        self.stop_and_restart(1, 1, 1700, "r11")

    def test_two_to_two(self):
        self.stop_and_restart(2, 2, 1700, "r22")

    def test_two_to_one(self):
        self.stop_and_restart(2, 1, 900, "r21")

    def test_one_to_three(self):
        self.stop_and_restart(1, 3, 2400, "r13")

    def test_booksim_preset_restarts_on_another_rank_count(self):
        r = wormnet([*PRESET, "-q", "-o", path("preset_full.h5")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.stop_and_restart(2, 1, 1300, "preset21", base=PRESET, full="preset_full.h5")
        # The preset is echoed with every value it set, so a restart alone reproduces it.
        ck = path("preset_alone.ck")
        shutil.rmtree(ck, ignore_errors=True)
        out = path("preset_alone.h5")
        r = wormnet([*PRESET, "-q", "-o", out, "--stop-at-cycle", "800", "--checkpoint-dir", ck],
                    ranks=3)
        self.assertEqual(r.returncode, 5, r.stderr)
        r = wormnet(["run", "--restart", ck, "-q"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(path("preset_full.h5"), out)
        with h5py.File(out, "r") as f:
            config = f.attrs["config"]
        config = config.decode() if isinstance(config, bytes) else config
        for line in ('credit-latency = 3', 'injection-latency = 2', 'ejection-latency = 1',
                     'ring-tie = "random"', 'self-traffic = true', 'process = "bernoulli"',
                     'preset = "booksim"'):
            self.assertIn(line, config.splitlines())
    def test_congestion_counts_restart_on_another_rank_count(self):
        # The counts of where packets wait are part of the checkpoint (layout 5): a run
        # stopped inside its measurement window and restarted on another rank count writes
        # the uninterrupted run's file, /points/000/congestion included.
        r = wormnet([*CONGESTION, "-q", "-o", path("congestion_full.h5")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.stop_and_restart(2, 3, 1700, "cg23", base=CONGESTION, full="congestion_full.h5")
        self.stop_and_restart(3, 1, 900, "cg31", base=CONGESTION, full="congestion_full.h5")
        with h5py.File(path("congestion_full.h5"), "r") as f:
            p = f["points/000"]
            g = p["congestion"]
            flits = p["channel_flits"][:]
            # Facts the counts must keep whatever they are: the VCs' flits sum to the
            # channel's, escape + adaptive too; the blocked time is the three waits' sum.
            self.assertTrue(np.array_equal(g["vc_flits"][:].sum(axis=1), flits))
            self.assertTrue(np.array_equal(g["escape_flits"][:] + g["adaptive_flits"][:], flits))
            waits = g["vc_wait"][:] + g["credit_wait"][:] + g["switch_wait"][:]
            self.assertTrue(np.array_equal(g["blocked"][:], waits.sum(axis=1)))
            self.assertEqual(g.attrs["escape_vcs"], 0b011)
            self.assertGreater(g["escape_flits"][:].sum(), 0)
            self.assertGreater(g["adaptive_flits"][:].sum(), 0)
            self.assertGreater(g["credit_wait"][:].sum(), 0)
            self.assertGreater(g["switch_wait"][:].sum(), 0)
            self.assertGreater(g["vc_wait"][:].sum(), 0)
            # A VC waits at most once per cycle of the window.
            window = int(g.attrs["window_cycles"])
            self.assertLessEqual(int(waits.max()), window)

    def test_channel_series_restarts_on_another_rank_count(self):
        # The flits of the window under way and each input VC's blocked time at the last
        # window's end are part of the checkpoint (layout 7) and the windows before it are
        # kept in the file: a run stopped mid-window (1750, 850) and restarted on another rank
        # count writes the uninterrupted run's file, blocked-time series included.
        r = wormnet([*SERIES, "-q", "-o", path("series_full.h5")], ranks=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.stop_and_restart(1, 3, 1750, "cs13", base=SERIES, full="series_full.h5")
        self.stop_and_restart(3, 2, 850, "cs32", base=SERIES, full="series_full.h5")
        with h5py.File(path("series_full.h5"), "r") as f:
            p = f["points/000"]
            g = p["channel_series"]
            flits = g["flits"][:]
            ends = g["cycle_end"][:]
            # One column per row of the time series, at the same window ends.
            self.assertTrue(np.array_equal(ends, p["timeseries/cycle_end"][:]))
            self.assertEqual(flits.shape, (f["topology"].attrs["channels"], len(ends)))
            # Each window's flits over the channels are the flit hops the time series counts
            # (another counter, RankCounters', at every crossing).
            self.assertTrue(np.array_equal(flits.sum(axis=0), p["timeseries/flit_hops"][:]))
            # Over the windows of the measurement window, each channel's flits are the
            # channel_flits of the measurement (and the VCs' flits of the totals).
            measuring = (ends > 300) & (ends <= 3300)
            self.assertEqual(int(measuring.sum()), 30)
            self.assertTrue(np.array_equal(flits[:, measuring].sum(axis=1), p["channel_flits"][:]))
            self.assertTrue(np.array_equal(flits[:, measuring].sum(axis=1),
                                           p["congestion/vc_flits"][:].sum(axis=1)))
            # The warm-up and the drain carried flits too, which the totals leave out.
            self.assertGreater(int(flits[:, ~measuring].sum()), 0)
            self.assertNotIn("channel_series_windows", p)
            # The blocked cycles per window, summed over the windows, are each channel's
            # waits over the measurement (none counted outside it).
            blocked = g["blocked"][:]
            waits = sum(p["congestion"][k][:].sum(axis=1)
                        for k in ("vc_wait", "credit_wait", "switch_wait"))
            self.assertEqual(blocked.shape, flits.shape)
            self.assertGreater(int(waits.sum()), 0)
            self.assertTrue(np.array_equal(blocked[:, measuring].sum(axis=1), waits))
            self.assertEqual(int(blocked[:, ~measuring].sum()), 0)
            self.assertNotIn("channel_series_blocked_windows", p)

    def test_honeycomb_restarts_on_three_and_four_ranks(self):
        # Issue 11: stripes of H_4 over 3 or 4 ranks cut packets that leave a rank and come
        # back to it; the restart once gave them one record per rank and aborted.
        for before, after in ((1, 3), (3, 4), (4, 3)):
            with self.subTest(before=before, after=after):
                self.stop_and_restart(before, after, 1000, f"hc{before}{after}", base=HONEYCOMB,
                                      full="honeycomb_full.h5")

    def test_restart_alone_takes_the_configuration_from_the_checkpoint(self):
        ck = path("alone.ck")
        shutil.rmtree(ck, ignore_errors=True)
        out = path("alone.h5")
        r = wormnet([*RUN, "-q", "-o", out, "--stop-at-cycle", "1000", "--checkpoint-dir", ck])
        self.assertEqual(r.returncode, 5, r.stderr)
        r = wormnet(["run", "--restart", ck, "-q"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(path("full.h5"), out)

    def test_sweep_restarts_inside_its_second_point(self):
        # Points: 0.05 (about 2,900 cycles with the drain), then 0.1: stop inside the second.
        self.stop_and_restart(2, 1, 4000, "sweep", base=SWEEP, full="sweep_full.h5")

    def test_duato_on_a_honeycomb_torus_two_to_one(self):
        # Adaptive routing with escape VCs and least-occupied selection read more model state
        # (credits of every output VC) than the deterministic routings: restart on another
        # rank count must still give the same file.
        duato = ["run", "-t", "honeycomb-torus:3", "-r", "duato", "--selection", "least-occupied",
                 "--load", "0.4", "--length-min", "4", "--length-max", "30", "--buffer", "3",
                 "--warmup", "300", "--measure", "2000", "--stats-window", "250"]
        r = wormnet([*duato, "-q", "-o", path("duato_full.h5")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.stop_and_restart(2, 1, 1300, "duato21", base=duato, full="duato_full.h5")

    def test_every_sweep_point_checkpoints_at_its_multiples(self):
        """--checkpoint-every N counts each point's own cycles (a point starts at cycle 0):
        the next multiple once carried over from the point before, so a shorter later point
        wrote no checkpoint by cycles at all."""
        ck = path("sweep_every.ck")
        shutil.rmtree(ck, ignore_errors=True)
        r = wormnet(["sweep", "-t", "torus:4x4", "-r", "dor-dateline", "--loads", "0.05,0.1",
                     "--warmup", "200", "--measure", "1000", "--checkpoint-every", "256",
                     "--checkpoint-dir", ck, "--progress", "lines", "-o", path("sweep_every.h5")])
        self.assertEqual(r.returncode, 0, r.stderr)
        per_point = [[int(c) for c in re.findall(r"^checkpoint .* at cycle (\d+) ", part, re.M)]
                     for part in re.split(r"^point \d+.*$", r.stdout, flags=re.M)[:2]]
        # Each point runs 1,200 cycles and a short drain: checks every 128 cycles reach
        # 256, 512, 768 and 1024 in each.
        self.assertEqual(per_point, [[256, 512, 768, 1024]] * 2, r.stdout)

    def test_periodic_checkpoints_do_not_change_results(self):
        out = path("periodic.h5")
        ck = path("periodic.ck")
        shutil.rmtree(ck, ignore_errors=True)
        r = wormnet([*RUN, "-q", "-o", out, "--checkpoint-every", "500", "--checkpoint-dir", ck], ranks=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(path("full.h5"), out)
        self.assertTrue(os.path.exists(os.path.join(ck, "checkpoint.h5")))
        self.assertFalse(os.path.exists(os.path.join(ck, "checkpoint.h5.tmp")))


class Signals(Identical):
    LONG = ["run", "-t", "honeycomb:12", "-r", "double-xy", "--load", "0.05", "--warmup", "1000",
            "--measure", "4000000", "--stats-window", "500"]

    def start(self, args, ranks=1, keep_target=False):
        # A file left by an earlier ctest run would satisfy wait_for_windows() at once
        # (keep_target: the target is a sentinel the test wrote before the start).
        out = args[args.index("-o") + 1]
        for stale in ((out + ".partial", out + ".lock") if keep_target else
                      (out, out + ".partial", out + ".lock")):
            if os.path.exists(stale):
                os.remove(stale)
        cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET, *args] if ranks > 1 else [WORMNET, *args]
        return subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def wait_for_windows(self, out, rows, proc, limit=120):
        """Waits until the running job has flushed `rows` windows to its partial file (the
        results go to OUT.partial until the run ends)."""
        deadline = time.time() + limit
        while time.time() < deadline:
            self.assertIsNone(proc.poll(), "the run ended too early")
            try:
                with h5py.File(out + ".partial", "r") as f:
                    ts = f["points/000/timeseries"]
                    if min(ts[c].shape[0] for c in ts.attrs["columns"]) >= rows:
                        return
            except (OSError, KeyError):
                pass
            time.sleep(0.2)
        self.fail("no windows were flushed")

    def signal_checkpoints(self, sig, name):
        """A running job sent `sig`: a checkpoint, exit 5, results status "interrupted"."""
        out = path(f"{name}.h5")
        ck = path(f"{name}.ck")
        shutil.rmtree(ck, ignore_errors=True)
        p = self.start([*self.LONG, "-q", "-o", out, "--checkpoint-dir", ck])
        self.wait_for_windows(out, 3, p)
        p.send_signal(sig)
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 5, err)
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["status"], "interrupted")
        self.assertTrue(os.path.exists(os.path.join(ck, "checkpoint.h5")))

    def test_sigterm_checkpoints_and_exits_5(self):
        self.signal_checkpoints(signal.SIGTERM, "sigterm")

    def test_sigint_checkpoints_like_sigterm(self):
        # Ctrl-C on an interactive run: a checkpoint and exit 5, as for the batch system's
        # SIGTERM (it killed the run without a checkpoint once).
        self.signal_checkpoints(signal.SIGINT, "sigint")

    def test_signal_during_setup_exits_cleanly(self):
        # A signal before the first cycle (here during the load analysis of H_20, about a
        # second): exit 5, one line saying there is nothing to restart from, no results file
        # (an earlier one stays), no lock, partial file or checkpoint left. It killed the
        # process with 143 once.
        out = path("setup.h5")
        for stale in (out + ".partial", out + ".lock"):
            if os.path.exists(stale):
                os.remove(stale)
        shutil.rmtree(out + ".checkpoint", ignore_errors=True)
        with open(out, "wb") as f:
            f.write(b"an earlier result\n")
        p = subprocess.Popen([WORMNET, "run", "-t", "honeycomb:20", "-r", "double-xy", "--warmup",
                              "10", "--measure", "100", "-q", "-o", out], env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.wait_for_handler(p, signal.SIGTERM)
        p.send_signal(signal.SIGTERM)
        out_text, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 5, err)
        self.assertEqual(out_text, "")
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertIn("during setup", lines[0])
        self.assertIn("nothing to restart from", lines[0])
        with open(out, "rb") as f:
            self.assertEqual(f.read(), b"an earlier result\n")
        for left in (out + ".partial", out + ".lock", out + ".checkpoint"):
            self.assertFalse(os.path.exists(left), left)

    def big_trace(self):
        """A trace of 1,500,000 messages on mesh:2x2 (about 0.3 s of reading, seconds on a
        loaded machine) whose last line is bad (a destination outside the network): read to
        the end, it is refused with exit 2. Made once per test run."""
        name = path("big_trace.csv")
        if not os.path.exists(name):
            lines = ["id,source,destination,flits,after,iteration,depends"]
            lines += [f"{i},{i % 4},{(i + 1) % 4},1,0,0," for i in range(1_500_000)]
            lines.append("1500000,0,9,1,0,0,")
            with open(name + ".tmp", "w") as f:
                f.write("\n".join(lines) + "\n")
            os.replace(name + ".tmp", name)
        return name

    def read_trace_until(self, ranks, sig=None):
        """Runs a workload of big_trace(); once its output is claimed (the trace is read
        next), sends `sig` (None: lets it read to the end). (exit code, stderr, seconds from
        the claim to the end); no results file, partial file or lock is left either way."""
        out = path(f"reading{ranks}.h5")
        shutil.rmtree(out + ".checkpoint", ignore_errors=True)
        p = self.start(["run", "-t", "mesh:2x2", "-r", "xy", "--workload", "trace", "--trace",
                        self.big_trace(), "-q", "-o", out], ranks=ranks)
        deadline = time.time() + 60
        while not os.path.exists(out + ".lock") and time.time() < deadline:
            self.assertIsNone(p.poll(), "the run ended before it claimed its output")
            time.sleep(0.002)
        self.assertTrue(os.path.exists(out + ".lock"), "the output was never claimed")
        claimed = time.time()
        if sig is not None:
            p.send_signal(sig)
        out_text, err = p.communicate(timeout=120)
        seconds = time.time() - claimed
        self.assertEqual(out_text, "")
        for left in (out, out + ".partial", out + ".lock", out + ".checkpoint"):
            self.assertFalse(os.path.exists(left), left)
        return p.returncode, err, seconds

    def signal_while_reading_a_trace(self, ranks, sig):
        # A signal while the trace is read (after the outputs were claimed): exit 5, the
        # setup's line, nothing left behind; on 2 ranks too (every rank reads the trace: they
        # agree on the signal before anything else collective). With one rank it ends well
        # before the reading would have: the reader looks at the signal's flag between reads
        # (std::getline read on to the end of the file, or for ever on /dev/zero).
        code, err, full = self.read_trace_until(ranks)
        self.assertEqual(code, 2, err)
        self.assertIn("line 1500002", err)
        code, err, stopped = self.read_trace_until(ranks, sig)
        self.assertEqual(code, 5, err)
        self.assertIn("during setup", err)
        self.assertIn("nothing to restart from", err)
        if ranks == 1:
            self.assertLess(stopped, full / 2, f"{stopped:.2f} s after the signal, "
                            f"{full:.2f} s to read the whole trace")

    def test_sigterm_while_reading_a_trace(self):
        self.signal_while_reading_a_trace(1, signal.SIGTERM)

    def test_sigint_while_reading_a_trace(self):
        self.signal_while_reading_a_trace(1, signal.SIGINT)

    def test_sigusr1_while_reading_a_trace_on_two_ranks(self):
        # mpiexec forwards SIGUSR1 to the ranks.
        self.signal_while_reading_a_trace(2, signal.SIGUSR1)

    def wait_for_handler(self, proc, sig, limit=60):
        """Waits until `proc` has installed its handler for `sig` (/proc/PID/status SigCgt),
        which wormnet does as its setup starts."""
        bit = 1 << (int(sig) - 1)
        deadline = time.time() + limit
        while time.time() < deadline:
            self.assertIsNone(proc.poll(), "the run ended before its handler was seen")
            with open(f"/proc/{proc.pid}/status") as f:
                for line in f:
                    if line.startswith("SigCgt:") and int(line.split()[1], 16) & bit:
                        return
            time.sleep(0.005)
        self.fail("no signal handler installed")

    def test_sigusr1_on_two_ranks(self):
        out = path("sigusr1.h5")
        ck = path("sigusr1.ck")
        shutil.rmtree(ck, ignore_errors=True)
        p = self.start([*self.LONG, "-q", "-o", out, "--checkpoint-dir", ck], ranks=2)
        self.wait_for_windows(out, 3, p)
        # mpiexec forwards SIGUSR1 to the ranks.
        p.send_signal(signal.SIGUSR1)
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 5, err)
        self.assertTrue(os.path.exists(os.path.join(ck, "checkpoint.h5")))

    def test_walltime_stops_before_the_limit(self):
        out = path("walltime.h5")
        ck = path("walltime.ck")
        shutil.rmtree(ck, ignore_errors=True)
        start = time.time()
        r = wormnet([*self.LONG, "-q", "-o", out, "--checkpoint-dir", ck, "--walltime", "00:00:04"])
        elapsed = time.time() - start
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertLess(elapsed, 4 + 3.0)  # process start-up and MPI come on top of the limit
        self.assertTrue(os.path.exists(os.path.join(ck, "checkpoint.h5")))

    def test_kill_9_keeps_every_flushed_window(self):
        # An earlier result at the target stays; the killed run's windows are in its partial
        # file, readable, with status "running". A plain re-run refuses to replace that file
        # (one line saying how to continue or discard it, exit 2, the file untouched); once it
        # is removed, the next run takes the dead run's lock over. The earlier result is there
        # before the run starts, so a run that replaced the target as it started would fail.
        out = path("kill9.h5")
        sentinel(out)
        p = self.start([*self.LONG, "-q", "-o", out], keep_target=True)
        self.wait_for_windows(out, 4, p)
        p.kill()
        p.wait(timeout=60)
        unchanged(self, out)
        self.assertTrue(os.path.exists(out + ".lock"))
        with h5py.File(out + ".partial", "r") as f:
            self.assertEqual(f.attrs["status"], "running")
            ts = f["points/000/timeseries"]
            rows = min(ts[c].shape[0] for c in ts.attrs["columns"])
            self.assertGreaterEqual(rows, 4)
            ends = ts["cycle_end"][:rows]
            self.assertTrue((ends[1:] - ends[:-1] == 500).all())
        with open(out + ".partial", "rb") as f:
            killed = f.read()
        again = ["run", "-t", "honeycomb:2", "-r", "double-xy", "--warmup", "50", "--measure",
                 "300", "-q", "-o", out]
        r = wormnet(again)
        one_error_line(self, r, 2, "--output", out + ".partial", "--restart", "remove it")
        with open(out + ".partial", "rb") as f:
            self.assertEqual(f.read(), killed, "the killed run's partial file was changed")
        unchanged(self, out)
        os.remove(out + ".partial")
        r = wormnet(again)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse(os.path.exists(out + ".lock"))
        self.assertFalse(os.path.exists(out + ".partial"))
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["status"], "complete")


class Refusals(unittest.TestCase):
    """A checkpoint that cannot continue this run: one line, exit code 2."""

    @classmethod
    def setUpClass(cls):
        cls.ck = path("refuse.ck")
        shutil.rmtree(cls.ck, ignore_errors=True)
        r = wormnet([*RUN, "-q", "--stop-at-cycle", "600", "--checkpoint-dir", cls.ck])
        assert r.returncode == 5, r.stderr

    def one_line(self, args, *words):
        r = wormnet(args)
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        for w in words:
            self.assertIn(w, lines[0])

    def test_another_configuration(self):
        args = list(RUN)
        args[args.index("--load") + 1] = "0.2"
        self.one_line([*args, "--restart", self.ck], "--restart", "another configuration", "load")

    def test_another_version(self):
        copy = path("version.ck")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ck, copy)
        with h5py.File(os.path.join(copy, "checkpoint.h5"), "a") as f:
            f.attrs["wormnet_version"] = np.bytes_("0.0.1 (0123456789ab)")
        wormnet_seal.reseal(os.path.join(copy, "checkpoint.h5"))
        self.one_line([*RUN, "--restart", copy], "--restart", "0.0.1")

    def test_missing_foreign_and_truncated(self):
        self.one_line([*RUN, "--restart", path("no-such.ck")], "--restart")
        foreign = path("foreign.ck")
        os.makedirs(foreign, exist_ok=True)
        with h5py.File(os.path.join(foreign, "checkpoint.h5"), "w") as f:
            f["x"] = [1, 2, 3]
        self.one_line([*RUN, "--restart", foreign], "--restart", "not a wormnet checkpoint")
        truncated = path("truncated.ck")
        os.makedirs(truncated, exist_ok=True)
        with open(os.path.join(self.ck, "checkpoint.h5"), "rb") as f:
            data = f.read()
        with open(os.path.join(truncated, "checkpoint.h5"), "wb") as f:
            f.write(data[: len(data) // 3])
        self.one_line([*RUN, "--restart", truncated], "--restart")
        garbage = path("garbage.ck")
        os.makedirs(garbage, exist_ok=True)
        with open(os.path.join(garbage, "checkpoint.h5"), "wb") as f:
            f.write(os.urandom(4096))
        self.one_line([*RUN, "--restart", garbage], "--restart")

    def damaged_copy(self, name, change):
        """A copy of the checkpoint changed by `change(h5py file)` and sealed again, so that
        the loader's checks of the content (not the seal) see the change."""
        copy = path(name)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ck, copy)
        with h5py.File(os.path.join(copy, "checkpoint.h5"), "a") as f:
            change(f)
        wormnet_seal.reseal(os.path.join(copy, "checkpoint.h5"))
        return copy

    def test_damaged_checkpoints(self):
        # Structurally valid HDF5 whose content is not what the loader expects: a missing
        # dataset, another type or size, lists of unequal length, ids outside the network.
        # Each is refused with one line (not an internal error), and the results file of the
        # run stays as it was.
        def drop(name):
            return lambda f: f.__delitem__(name)

        def replace(name, data):
            def change(f):
                del f[name]
                f[name] = data
            return change

        def resize_list(f):
            col = f["lists/packets/created"]
            data = col[()]
            del f["lists/packets/created"]
            f["lists/packets/created"] = data[: max(0, len(data) - 1)] if len(data) else [1]

        def far_router(f):
            col = f["lists/packets/source"]
            data = col[()]
            if len(data) == 0:
                data = [0]
            data[0] = 10**6
            del f["lists/packets/source"]
            wormnet_seal.redigest(
                f.create_dataset("lists/packets/source", data=data, dtype="<u4"))

        def wrong_type_attr(f):
            f.attrs["cycle"] = "soon"

        def set_first(name, value, dtype):
            # The first value of a column or a row set to one the model cannot hold (the
            # load 0.3 run stopped at cycle 600 has queued messages: checked below).
            def change(f):
                data = f[name][()]
                assert data.size > 0, name + " is empty: the case would test nothing"
                data.flat[0] = value
                del f[name]
                wormnet_seal.redigest(f.create_dataset(name, data=data, dtype=dtype))
            return change

        cases = {
            "missing_dataset.ck": (drop("routers/ivc_meta"), "damaged"),
            "missing_group.ck": (drop("counters"), "damaged"),
            "float_for_int.ck": (replace("routers/source_counter", [0.5] * 3), "damaged"),
            "short_rows.ck": (replace("routers/ivc_ready", [[1, 2]]), "--restart"),
            "list_lengths.ck": (resize_list, "damaged"),
            "router_out_of_range.ck": (far_router, "damaged", "out of range"),
            "attribute_type.ck": (wrong_type_attr, "--restart"),
            "missing_attribute.ck": (lambda f: f.attrs.__delitem__("next_window"), "--restart"),
            # A node's message count past 2^32 - 1 (packet ids keep 32 bits of it), a queued
            # message of 0 flits or of more than --length-max allows (65535), and one whose
            # number is past 2^32 - 1: refused when read, not an internal error at restore.
            "message_count.ck": (set_first("routers/source_sequence", 2**32, "<u8"),
                                 "damaged", "message count"),
            "message_length_0.ck": (set_first("lists/messages/length", 0, "<u4"),
                                    "damaged", "queued message"),
            "message_length_big.ck": (set_first("lists/messages/length", 70000, "<u4"),
                                      "damaged", "queued message"),
            "message_number.ck": (set_first("lists/messages/sequence", 2**32, "<u8"),
                                  "damaged", "queued message"),
        }
        for name, (change, *words) in cases.items():
            with self.subTest(case=name):
                copy = self.damaged_copy(name, change)
                self.one_line([*RUN, "--restart", copy], "--restart", *words)
        # A results file given as a checkpoint, and a checkpoint directory that is a file.
        results = path("results_as.ck")
        shutil.rmtree(results, ignore_errors=True)
        os.makedirs(results)
        r = wormnet([*RUN, "-q", "-o", os.path.join(results, "checkpoint.h5")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.one_line([*RUN, "--restart", results], "--restart", "not a wormnet checkpoint")
        self.one_line([*RUN, "--restart", os.path.join(self.ck, "checkpoint.h5")], "--restart")
        empty = path("empty.ck")
        os.makedirs(empty, exist_ok=True)
        open(os.path.join(empty, "checkpoint.h5"), "wb").close()
        self.one_line([*RUN, "--restart", empty], "--restart")

    def test_flipped_bytes_are_refused(self):
        # The checksums of version 2: a flipped byte in a dataset's data, or an attribute
        # changed without its digest, is refused as damaged (it was accepted once and gave
        # silently different results).
        def flip_in(dataset):
            def change(copy):
                with h5py.File(os.path.join(copy, "checkpoint.h5"), "r") as f:
                    d = f[dataset]
                    offset = d.id.get_offset()
                    size = d.id.get_storage_size()
                self.assertIsNotNone(offset, dataset)
                self.assertGreater(size, 0, dataset)
                with open(os.path.join(copy, "checkpoint.h5"), "r+b") as f:
                    f.seek(offset + size // 2)
                    byte = f.read(1)
                    f.seek(offset + size // 2)
                    f.write(bytes([byte[0] ^ 0x10]))
            return change

        def attribute(name, value):
            def change(copy):
                with h5py.File(os.path.join(copy, "checkpoint.h5"), "a") as f:
                    f.attrs[name] = value
            return change

        with h5py.File(os.path.join(self.ck, "checkpoint.h5"), "r") as f:
            cycle = int(f.attrs["cycle"])
        cases = {
            "flip_ivc_meta": flip_in("routers/ivc_meta"),
            "flip_source_next_time": flip_in("routers/source_next_time"),
            "flip_window": flip_in("counters/window"),
            "flip_histogram": flip_in("counters/latency_total"),
            "cycle_changed": attribute("cycle", np.uint64(cycle + 1)),
            "rate_changed": attribute("rate", 0.25),
        }
        for name, change in cases.items():
            for sealed_again in (False, True):
                with self.subTest(case=name, sealed_again=sealed_again):
                    copy = path("flipped_" + name + ".ck")
                    shutil.rmtree(copy, ignore_errors=True)
                    shutil.copytree(self.ck, copy)
                    change(copy)
                    if not sealed_again:
                        # The whole-file seal, checked before HDF5 reads anything.
                        self.one_line([*RUN, "--restart", copy], "--restart", "damaged")
                        continue
                    # Past the seal (made again over the change): the digests of the data
                    # and attributes, that do not depend on the rank count, name what fails.
                    wormnet_seal.reseal(os.path.join(copy, "checkpoint.h5"))
                    self.one_line([*RUN, "--restart", copy], "--restart", "damaged",
                                  "fail")

    def test_checkpoint_of_another_router_count_is_refused(self):
        # A checkpoint whose attributes were edited consistently (digest recomputed, sealed
        # again) to hold one router more than the network: its stored ids would be checked
        # against 25 routers while the network has 24 (torus:6x4). Refused by the count.
        # The attributes' digest text mirrors attributes_text() in src/io/checkpoint_file.cpp
        # (layout order of src/io/checkpoint_layout.hpp).
        order = ["wormnet_version", "config", "inputs", "command", "output", "point", "rate",
                 "left_after_saturation", "cycle", "window_start", "next_window", "next_check",
                 "flit_hops", "series_rows", "summary_rows", "ports", "vcs", "depth", "nodes"]

        def text(f):
            out = b""
            for name in order:
                v = f.attrs[name]
                if isinstance(v, (bytes, np.bytes_)):
                    value = bytes(v)
                elif isinstance(v, (float, np.floating)):
                    value = float(v).hex().encode()  # C's %a for a normal double
                else:
                    value = str(int(v)).encode()
                out += name.encode() + b"[%d]=" % len(value) + value + b"\n"
            return out

        def more_routers(f):
            self.assertEqual(f.attrs["attributes_digest"],
                             wormnet_seal.digest_bytes(0, text(f)))  # the mirror is exact
            f.attrs["nodes"] = np.uint64(25)
            f.attrs["attributes_digest"] = np.uint64(wormnet_seal.digest_bytes(0, text(f)))

        copy = self.damaged_copy("more_routers.ck", more_routers)
        self.one_line([*RUN, "--restart", copy], "--restart", "25 routers", "this network 24")

    def test_checkpoint_of_the_previous_layout_is_refused(self):
        # Layout version 7 added each input VC's blocked time at the last window's end
        # (--congestion series); a version-6 checkpoint holds none, so a restart could not
        # continue the blocked-time series: refused by version.
        copy = self.damaged_copy("layout6.ck", lambda f: f.attrs.__setitem__(
            "checkpoint_version", np.int64(6)))
        self.one_line([*RUN, "--restart", copy], "--restart", "layout version 6", "reads 7")

    def test_restart_of_a_finished_run_is_refused(self):
        # A periodic checkpoint of a run that then finished: the complete results file is not
        # reopened (and left as it is).
        out = path("finished.h5")
        ck = path("finished.ck")
        shutil.rmtree(ck, ignore_errors=True)
        r = wormnet([*RUN, "-q", "-o", out, "--checkpoint-every", "1000", "--checkpoint-dir", ck])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, "rb") as f:
            before = f.read()
        self.one_line([*RUN, "-q", "-o", out, "--restart", ck], "--output", "finished")
        with open(out, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertFalse(os.path.exists(out + ".partial"))

    def test_sweep_restart_of_a_run_checkpoint_names_the_command(self):
        self.one_line(["sweep", "--restart", self.ck], "--restart", "'wormnet run'",
                      "'wormnet sweep'")
        self.one_line([*SWEEP, "--restart", self.ck], "--restart", "'wormnet run'")

    def test_bad_batch_values(self):
        self.one_line([*RUN, "--checkpoint-every", "soon"], "--checkpoint-every", "soon")
        self.one_line([*RUN, "--checkpoint-every", "-5"], "--checkpoint-every")
        self.one_line([*RUN, "--walltime", "25h"], "--walltime", "25h")
        self.one_line([*RUN, "--walltime", "00:61:00"], "--walltime")


class ChangedInputs(Identical):
    """Issue 36: a restart checks the contents of the files its configuration names, not only
    their paths. A routing table replaced by another valid table of the same torus (the
    restart crashed: exit 139) is refused in one line naming --tables, the file and the
    change, before anything is written; the same contents under a new modification time (or
    a copy of the same bytes) continue bit-identically, on another rank count too. The
    digests the checkpoint and the results file record are SHA-256 of the file's bytes, as
    Python's hashlib computes them."""

    # The command (a table with bubble flow control on torus:4x4x2).
    TABLE = ["run", "-t", "torus:4x4x2", "-r", "table", "--flow-control", "bubble", "--length",
             "8", "--buffer", "16", "--load", "0.3", "--warmup", "200", "--measure", "2000"]

    @classmethod
    def setUpClass(cls):
        cls.made = {}
        for algorithm in ("bfs", "genetic"):
            p = path(f"inputs_{algorithm}.h5")
            r = wormnet(["tables", "-t", "torus:4x4x2", "-a", algorithm, "-q", "-o", p])
            assert r.returncode == 0, r.stderr
            with open(p, "rb") as f:
                cls.made[algorithm] = f.read()
        assert cls.made["bfs"] != cls.made["genetic"]

    def put(self, target, algorithm):
        """Writes the table made by `algorithm` at `target` (a new file: another inode and
        modification time, whatever was there)."""
        tmp = target + ".new"
        with open(tmp, "wb") as f:
            f.write(self.made[algorithm])
        os.replace(tmp, target)

    def files_of(self, *paths):
        """Bytes of every file at or under `paths` (a directory's files), for 'unchanged'."""
        out = {}
        for p in paths:
            if os.path.isdir(p):
                for name in sorted(os.listdir(p)):
                    with open(os.path.join(p, name), "rb") as f:
                        out[os.path.join(p, name)] = f.read()
            elif os.path.exists(p):
                with open(p, "rb") as f:
                    out[p] = f.read()
        return out

    def recorded(self, h5, key):
        """The entry `key` of the TOML text in the root attribute `inputs`."""
        import tomllib
        with h5py.File(h5, "r") as f:
            text = f.attrs["inputs"]
        text = text.decode() if isinstance(text, bytes) else text
        return tomllib.loads(text)[key]

    def stop(self, tb, name, ranks=1, stop_at=500):
        ck, out = path(name + ".ck"), path(name + ".h5")
        shutil.rmtree(ck, ignore_errors=True)
        for stale in (out, out + ".partial"):
            if os.path.exists(stale):
                os.remove(stale)
        r = wormnet([*self.TABLE, "--tables", tb, "-q", "-o", out, "--stop-at-cycle",
                     str(stop_at), "--checkpoint-dir", ck], ranks=ranks)
        self.assertEqual(r.returncode, 5, r.stderr)
        return ck, out

    def test_another_table_of_the_same_torus_is_refused(self):
        import hashlib
        tb = path("changed_tb.h5")
        self.put(tb, "bfs")
        ck, out = self.stop(tb, "changed_table")
        bfs = hashlib.sha256(self.made["bfs"]).hexdigest()
        self.put(tb, "genetic")
        before = self.files_of(ck, out, out + ".partial")
        for extra in ([], ["-o", out]):  # the configuration from the options or with -o
            r = wormnet([*self.TABLE, "--tables", tb, "-q", "--restart", ck, *extra])
            line = one_error_line(self, r, 2, "--tables", tb, "contents changed since the "
                                  "checkpoint", bfs[:12],
                                  hashlib.sha256(self.made["genetic"]).hexdigest()[:12])
            self.assertEqual(self.files_of(ck, out, out + ".partial"), before, line)
            self.assertFalse(os.path.exists(out + ".lock"))
        # The configuration alone, from the checkpoint: the same refusal.
        r = wormnet(["run", "--restart", ck, "-q"])
        one_error_line(self, r, 2, "--tables", tb, "contents changed since the checkpoint")
        self.assertEqual(self.files_of(ck, out, out + ".partial"), before)
        # What the checkpoint and the results file record: the table's path, size and
        # SHA-256, in TOML.
        for h5 in (out, os.path.join(ck, "checkpoint.h5")):
            entry = self.recorded(h5, "tables")
            self.assertEqual((entry["path"], entry["sha256"], entry["bytes"]),
                             (tb, bfs, len(self.made["bfs"])), h5)

    def test_results_file_of_another_table_is_not_continued(self):
        # Run A (BFS table) and then run B (genetic table, same path and options) stop with
        # the same results file, B's replacing A's. A's checkpoint, with the BFS table back,
        # passes the table check, but the results file holds B's run: refused, left as is.
        tb = path("results_tb.h5")
        self.put(tb, "bfs")
        ck_a, out = self.stop(tb, "results_of_b")
        self.put(tb, "genetic")
        ck_b = path("results_of_b_second.ck")
        shutil.rmtree(ck_b, ignore_errors=True)
        r = wormnet([*self.TABLE, "--tables", tb, "-q", "-o", out, "--stop-at-cycle", "500",
                     "--checkpoint-dir", ck_b])
        self.assertEqual(r.returncode, 5, r.stderr)
        self.put(tb, "bfs")
        before = self.files_of(ck_a, out)
        r = wormnet([*self.TABLE, "--tables", tb, "-q", "-o", out, "--restart", ck_a])
        one_error_line(self, r, 2, "--output", out, "other input files")
        self.assertEqual(self.files_of(ck_a, out), before)
        self.assertFalse(os.path.exists(out + ".partial"))

    def test_table_replaced_while_the_run_reads_it_is_refused(self):
        # The digest is taken before the table is loaded; a table replaced in between would be
        # loaded under the other's digest. The run is stopped (SIGSTOP) as soon as it holds
        # its output's lock, which it takes after the digest and before loading the table
        # (the table's proof alone takes a few tenths of a second on torus:8x8x8), the file
        # is replaced by another table of the same torus, and the run continues: refused.
        made = {}
        for algorithm in ("bfs", "sssp"):
            p = path(f"reading_{algorithm}.h5")
            r = wormnet(["tables", "-t", "torus:8x8x8", "-a", algorithm, "-q", "-o", p])
            self.assertEqual(r.returncode, 0, r.stderr)
            made[algorithm] = p
        tb, out = path("reading_tb.h5"), path("reading.h5")
        shutil.copyfile(made["bfs"], tb)
        for stale in (out, out + ".partial", out + ".lock"):
            if os.path.exists(stale):
                os.remove(stale)
        p = subprocess.Popen([WORMNET, "run", "-t", "torus:8x8x8", "-r", "table", "--tables", tb,
                              "--flow-control", "bubble", "--length", "4", "--buffer", "8",
                              "--load", "0.1", "--warmup", "100", "--measure", "300", "-q",
                              "-o", out], env=ENV, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 120
        while not os.path.exists(out + ".lock"):
            self.assertIsNone(p.poll(), "the run ended before it took its output's lock")
            self.assertLess(time.time(), deadline)
            time.sleep(0.001)
        p.send_signal(signal.SIGSTOP)
        shutil.copyfile(made["sssp"], tb + ".new")
        os.replace(tb + ".new", tb)
        p.send_signal(signal.SIGCONT)
        _, err = p.communicate(timeout=300)
        self.assertEqual(p.returncode, 2, err)
        lines = [line for line in err.splitlines() if line.startswith("wormnet: ")]
        self.assertEqual(len(lines), 1, err)
        for word in ("--tables", tb, "written or replaced while the run read it"):
            self.assertIn(word, lines[0])
        self.assertFalse(os.path.exists(out))
        self.assertFalse(os.path.exists(out + ".lock"))

    def test_same_contents_continue_bit_identically_on_another_rank_count(self):
        tb = path("same_tb.h5")
        self.put(tb, "bfs")
        full = path("same_full.h5")
        r = wormnet([*self.TABLE, "--tables", tb, "-q", "-o", full])
        self.assertEqual(r.returncode, 0, r.stderr)
        # A new modification time only, then a copy of the same bytes (another inode): the
        # contents are what counts.
        ck, out = self.stop(tb, "same_touched", ranks=2)
        later = time.time() + 3600
        os.utime(tb, (later, later))
        r = wormnet([*self.TABLE, "--tables", tb, "-q", "-o", out, "--restart", ck])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(full, out)
        ck, out = self.stop(tb, "same_copied", stop_at=1200)
        self.put(tb, "bfs")
        r = wormnet([*self.TABLE, "--tables", tb, "-q", "-o", out, "--restart", ck], ranks=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(full, out)


def status(out):
    """What `wormnet status` says about the output `out`."""
    r = subprocess.run([WORMNET, "status", out], env=ENV, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def one_error_line(test, r, code, *words):
    """The run ended with `code` and one wormnet error line holding `words` (an MPI launcher
    may add its own lines around it when several ranks ran: only the wormnet line counts)."""
    test.assertEqual(r.returncode, code, r.stderr)
    lines = [line for line in r.stderr.splitlines() if line.startswith("wormnet: ")]
    test.assertEqual(len(lines), 1, r.stderr)
    for w in words:
        test.assertIn(w, lines[0])
    for trace in ("Segmentation", "internal error", "terminate called", "Traceback"):
        test.assertNotIn(trace, r.stderr)
    return lines[0]


SENTINEL = b"an earlier result\n"


def sentinel(out):
    for stale in (out + ".partial", out + ".lock"):
        if os.path.exists(stale):
            os.remove(stale)
    with open(out, "wb") as f:
        f.write(SENTINEL)


def unchanged(test, out):
    with open(out, "rb") as f:
        test.assertEqual(f.read(), SENTINEL, f"{out} was replaced")


class Files(Identical):
    """The life of a results file: an earlier file at -o stays until the run ends, the run
    writes OUT.partial meanwhile, a second run on the same file is refused, a killed run's
    partial file is what a restart continues."""

    MEDIUM = ["run", "-t", "torus:6x4", "-r", "dor-dateline", "--load", "0.3", "--length-min",
              "4", "--length-max", "40", "--buffer", "3", "--warmup", "300", "--measure",
              "60000", "--stats-window", "250"]

    def start(self, args):
        return subprocess.Popen([WORMNET, *args], env=ENV, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def wait_for(self, proc, predicate, what, limit=120):
        deadline = time.time() + limit
        while time.time() < deadline:
            self.assertIsNone(proc.poll(), f"the run ended before {what}")
            if predicate():
                return
            time.sleep(0.05)
        self.fail(f"never {what}")

    def test_earlier_result_stays_and_second_run_is_refused(self):
        out = path("files_long.h5")
        ck = path("files_long.ck")
        shutil.rmtree(ck, ignore_errors=True)
        sentinel(out)
        p = self.start([*Signals.LONG, "-q", "-o", out, "--checkpoint-dir", ck])
        self.wait_for(p, lambda: os.path.exists(out + ".partial"), "its partial file appeared")
        unchanged(self, out)
        self.assertEqual(status(out), "running")
        # A second run on the same output, and a table on it: refused naming the holder.
        r = wormnet(["run", "-t", "honeycomb:2", "-r", "double-xy", "--warmup", "10",
                     "--measure", "200", "-q", "-o", out])
        one_error_line(self, r, 2, "--output", "another run", str(p.pid))
        r = wormnet(["tables", "-t", "torus:4x4", "-a", "bfs", "-q", "-o", out])
        one_error_line(self, r, 2, "--output", "another run")
        # The same checkpoint directory from another output: refused too.
        r = wormnet(["run", "-t", "honeycomb:2", "-r", "double-xy", "--warmup", "10",
                     "--measure", "200", "-q", "-o", path("other.h5"), "--checkpoint-dir", ck])
        one_error_line(self, r, 2, "--checkpoint-dir", "another run")
        unchanged(self, out)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 5, err)
        # Interrupted: the run has produced something, and its file now stands at -o.
        self.assertEqual(status(out), "interrupted")
        self.assertFalse(os.path.exists(out + ".partial"))
        self.assertFalse(os.path.exists(out + ".lock"))

    def test_restart_continues_a_killed_runs_partial_file(self):
        full = path("files_medium_full.h5")
        r = wormnet([*self.MEDIUM, "-q", "-o", full])
        self.assertEqual(r.returncode, 0, r.stderr)
        out = path("files_killed.h5")
        ck = path("files_killed.ck")
        shutil.rmtree(ck, ignore_errors=True)
        sentinel(out)
        p = self.start([*self.MEDIUM, "-q", "-o", out, "--checkpoint-every", "3000",
                        "--checkpoint-dir", ck])
        self.wait_for(p, lambda: os.path.exists(os.path.join(ck, "checkpoint.h5")),
                      "its first checkpoint")
        p.kill()
        p.wait(timeout=60)
        unchanged(self, out)
        self.assertEqual(status(out), "running")  # the partial file's
        # A run killed while it wrote a checkpoint leaves the checkpoint's partial file too:
        # never a checkpoint to continue from (the previous one stays), so the restart, as the
        # SLURM scripts resubmit it, writes over it rather than refuse.
        with open(os.path.join(ck, "checkpoint.h5.partial"), "wb") as f:
            f.write(b"half a checkpoint\n")
        r = wormnet(["run", "--restart", ck, "-q", "-o", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(full, out)
        self.assertFalse(os.path.exists(out + ".partial"))
        self.assertFalse(os.path.exists(out + ".lock"))

    def test_status_words(self):
        missing = path("files_missing.h5")
        for stale in (missing, missing + ".partial"):
            if os.path.exists(stale):
                os.remove(stale)
        self.assertEqual(status(missing), "missing")
        out = path("files_status.h5")
        ck = path("files_status.ck")
        shutil.rmtree(ck, ignore_errors=True)
        r = wormnet([*RUN, "-q", "-o", out, "--stop-at-cycle", "600", "--checkpoint-dir", ck])
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertEqual(status(out), "interrupted")
        r = wormnet([*RUN, "-q", "-o", out, "--restart", ck])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(status(out), "complete")


@unittest.skipIf(os.environ.get("ASAN_OPTIONS"), "the LD_PRELOAD shim cannot come before ASan")
class WriteErrors(Identical):
    """Writes the file system refuses (a full disk, a quota, an I/O error), made without root
    by an LD_PRELOAD shim that fails writes to one file after a byte budget, and on a small
    tmpfs where one can be mounted. Each ends with one line naming the file and the system's
    reason and exit code 6; an earlier file at the target and the previous checkpoint stay;
    the partial results file says "failed" where it can still be written."""

    def shim_env(self, pattern, after, errno_=28):
        if not SHIM:
            self.skipTest("no write-failure shim given (--shim)")
        return dict(ENV, LD_PRELOAD=SHIM, WORMNET_FAIL_WRITE_PATH=pattern,
                    WORMNET_FAIL_WRITE_AFTER=str(after), WORMNET_FAIL_WRITE_ERRNO=str(errno_))

    def failing(self, args, env, ranks=1, timeout=300):
        if ranks > 1:
            cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe"]
            for k in ("LD_PRELOAD", "WORMNET_FAIL_WRITE_PATH", "WORMNET_FAIL_WRITE_AFTER",
                      "WORMNET_FAIL_WRITE_ERRNO", "WORMNET_FAIL_FSYNC_PATH",
                      "WORMNET_FAIL_FSYNC_KIND", "WORMNET_SYNC_LOG", "WORMNET_SYNC_LOG_PATH"):
                if k in env:
                    cmd += ["-x", k]
            cmd += [WORMNET, *args]
        else:
            cmd = [WORMNET, *args]
        return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)

    def test_results_on_a_full_disk(self):
        out = path("we_results.h5")
        for after, reason in ((0, "No space left on device"), (20000, "No space left on device")):
            with self.subTest(after=after):
                sentinel(out)
                r = self.failing([*RUN, "-q", "-o", out],
                                 self.shim_env("we_results.h5.partial", after))
                one_error_line(self, r, 6, "we_results.h5.partial", reason)
                unchanged(self, out)
                self.assertFalse(os.path.exists(out + ".lock"))
                # Nothing written at all: no partial file left; else the partial file stays.
                self.assertEqual(os.path.exists(out + ".partial"), after > 0)

    def test_the_systems_reason_is_named(self):
        out = path("we_errno.h5")
        for errno_, reason in ((5, "Input/output error"), (122, "Disk quota exceeded"),
                               (27, "File too large")):
            with self.subTest(errno=errno_):
                sentinel(out)
                r = self.failing([*RUN, "-q", "-o", out],
                                 self.shim_env("we_errno.h5.partial", 20000, errno_))
                one_error_line(self, r, 6, "we_errno.h5.partial", reason)
                unchanged(self, out)

    def test_a_sweep_point_on_a_full_disk(self):
        out = path("we_sweep.h5")
        sentinel(out)
        r = self.failing([*SWEEP, "-q", "-o", out], self.shim_env("we_sweep.h5.partial", 150000))
        one_error_line(self, r, 6, "we_sweep.h5.partial", "No space left on device")
        unchanged(self, out)
        # The partial file stays (a flush that failed half way may leave it unreadable).
        self.assertTrue(os.path.exists(out + ".partial"))
        self.assertFalse(os.path.exists(out + ".lock"))

    def test_checkpoint_on_a_full_disk_keeps_the_previous_one(self):
        # The first checkpoint fits, the second does not: exit 6 naming the checkpoint's
        # partial file; the results file (still writable) says "failed"; the previous
        # checkpoint continues the run to the same results as an uninterrupted one.
        full = path("we_full.h5")
        r = wormnet([*RUN, "-q", "-o", full])
        self.assertEqual(r.returncode, 0, r.stderr)
        out = path("we_ck.h5")
        ck = path("we_ck.ck")
        shutil.rmtree(ck, ignore_errors=True)
        sentinel(out)
        r = wormnet([*RUN, "-q", "-o", path("we_probe.h5"), "--stop-at-cycle", "1000",
                     "--checkpoint-dir", path("we_probe.ck")])
        self.assertEqual(r.returncode, 5, r.stderr)
        size = os.path.getsize(os.path.join(path("we_probe.ck"), "checkpoint.h5"))
        r = self.failing([*RUN, "-q", "-o", out, "--checkpoint-every", "1000",
                          "--checkpoint-dir", ck],
                         self.shim_env("checkpoint.h5.partial", size + size // 2))
        one_error_line(self, r, 6, "checkpoint.h5.partial", "No space left on device",
                       "previous checkpoint")
        unchanged(self, out)
        self.assertEqual(status(out), "failed")
        self.assertTrue(os.path.exists(os.path.join(ck, "checkpoint.h5")))
        self.assertFalse(os.path.exists(os.path.join(ck, "checkpoint.h5.partial")))
        r = wormnet([*RUN, "-q", "-o", out, "--restart", ck])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.check_same(full, out)

    def test_a_table_on_a_full_disk(self):
        out = path("we_table.h5")
        for after in (0, 3000):
            with self.subTest(after=after):
                sentinel(out)
                r = self.failing(["tables", "-t", "torus:4x4", "-a", "bfs", "-q", "-o", out],
                                 self.shim_env("we_table.h5.partial", after))
                one_error_line(self, r, 6, "we_table.h5.partial", "No space left on device")
                unchanged(self, out)
                self.assertFalse(os.path.exists(out + ".partial"))
                self.assertFalse(os.path.exists(out + ".lock"))

    def test_two_ranks_end_without_hanging(self):
        # Several ranks write through MPI-IO, whose layer may print its own lines and report
        # no errno; the job still ends with code 6 and the wormnet line, and never hangs (a
        # rank whose write failed gives the others 20 s, then ends the job).
        out = path("we_ranks.h5")
        for after in (20000, 60000):
            with self.subTest(after=after):
                sentinel(out)
                r = self.failing([*RUN, "-q", "-o", out],
                                 self.shim_env("we_ranks.h5.partial", after), ranks=2,
                                 timeout=240)
                self.assertEqual(r.returncode, 6, r.stderr)
                self.assertIn("wormnet: error: cannot write", r.stderr)
                self.assertNotIn("Segmentation", r.stderr)
                unchanged(self, out)

    def sync_env(self, **settings):
        """The shim's fsync rules or log (tests/support/write_fail_shim.cpp)."""
        if not SHIM:
            self.skipTest("no write-failure shim given (--shim)")
        return dict(ENV, LD_PRELOAD=SHIM, **settings)

    WORKLOAD = ["run", "-t", "torus:4x4", "-r", "dor-dateline", "--workload", "halo2d",
                "--iterations", "40", "--message-size", "8"]

    def test_a_failed_fsync_keeps_the_earlier_file(self):
        # The file's own fsync before the rename fails (an I/O error the disk reports only
        # then): exit 6 naming the file and the reason; what stood at the target stays. A
        # table or trace holds nothing of use half made (its partial file goes); a results
        # file keeps its partial name.
        trace = path("we_sync.csv")
        for name, args, partial_stays in (
                ("we_sync_results.h5", [*RUN, "-q", "-o", path("we_sync_results.h5")], True),
                ("we_sync_table.h5", ["tables", "-t", "torus:4x4", "-a", "bfs", "-q", "-o",
                                      path("we_sync_table.h5")], False),
                ("we_sync.csv", [*self.WORKLOAD, "-q", "--write-trace", trace], False)):
            with self.subTest(name=name):
                out = path(name)
                sentinel(out)
                r = self.failing(args, self.sync_env(WORMNET_FAIL_FSYNC_PATH=name + ".partial",
                                                     WORMNET_FAIL_FSYNC_KIND="file"))
                one_error_line(self, r, 6, name, "Input/output error")
                unchanged(self, out)
                self.assertFalse(os.path.exists(out + ".lock"))
                self.assertEqual(os.path.exists(out + ".partial"), partial_stays)

    def test_a_failed_checkpoint_fsync_keeps_the_previous_checkpoint(self):
        ck = path("we_sync_ck.ck")
        out = path("we_sync_ck.h5")
        shutil.rmtree(ck, ignore_errors=True)
        sentinel(out)
        r = wormnet([*RUN, "-q", "-o", path("we_sync_ck_first.h5"), "--stop-at-cycle", "500",
                     "--checkpoint-dir", ck])
        self.assertEqual(r.returncode, 5, r.stderr)
        with open(os.path.join(ck, "checkpoint.h5"), "rb") as f:
            first = f.read()
        r = self.failing([*RUN, "-q", "-o", out, "--stop-at-cycle", "1000", "--checkpoint-dir",
                          ck], self.sync_env(WORMNET_FAIL_FSYNC_PATH="checkpoint.h5.partial"))
        one_error_line(self, r, 6, "checkpoint.h5", "Input/output error", "previous checkpoint")
        with open(os.path.join(ck, "checkpoint.h5"), "rb") as f:
            self.assertEqual(f.read(), first, "the previous checkpoint was replaced")
        self.assertFalse(os.path.exists(os.path.join(ck, "checkpoint.h5.partial")))
        unchanged(self, out)

    def test_a_failed_directory_fsync_is_an_output_error(self):
        # After the rename, the directory is synced so that the new name survives a crash of
        # the machine; when the file system refuses, the run says so (exit 6).
        d = path("we_syncdir")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        out = os.path.join(d, "r.h5")
        r = self.failing([*RUN, "-q", "-o", out],
                         self.sync_env(WORMNET_FAIL_FSYNC_PATH="we_syncdir",
                                       WORMNET_FAIL_FSYNC_KIND="dir"))
        one_error_line(self, r, 6, "we_syncdir", "Input/output error")

    def test_every_writer_syncs_before_the_rename_and_the_directory_after(self):
        # Results, checkpoint and trace of one run, on one rank and on two (MPI-IO): in the
        # order the system saw the calls, every process that wrote a partial file synced it
        # after its last write and before the rename over the target, and the directory was
        # synced after the rename.
        for ranks in (1, 2):
            with self.subTest(ranks=ranks):
                d = path(f"we_synclog{ranks}")
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(d)
                log = path(f"we_synclog{ranks}.log")
                if os.path.exists(log):
                    os.remove(log)
                out = os.path.join(d, "r.h5")
                ck = os.path.join(d, "ck")
                trace = os.path.join(d, "t.csv")
                r = self.failing([*self.WORKLOAD, "-q", "-o", out, "--write-trace", trace,
                                  "--stop-at-cycle", "100", "--checkpoint-dir", ck],
                                 self.sync_env(WORMNET_SYNC_LOG=log, WORMNET_SYNC_LOG_PATH=d),
                                 ranks=ranks)
                self.assertEqual(r.returncode, 5, r.stderr)
                with open(log) as f:
                    events = [line.split() for line in f]
                for target in (out, os.path.join(ck, "checkpoint.h5"), trace):
                    self.check_published(events, target)

    def check_published(self, events, target):
        partial = target + ".partial"
        renames = [i for i, e in enumerate(events) if e[1:] == ["rename", partial, target]]
        self.assertEqual(len(renames), 1, f"{target}: renames {renames}")
        at = renames[0]
        writers = {e[0] for e in events[:at] if e[1:] == ["write", partial]}
        self.assertTrue(writers, f"{target}: no writes seen")
        for pid in writers:
            last_write = max(i for i, e in enumerate(events[:at])
                             if e[0] == pid and e[1:] == ["write", partial])
            self.assertTrue(any(e[0] == pid and e[1:] == ["fsync", partial]
                                for e in events[last_write + 1:at]),
                            f"{target}: process {pid} did not sync after its last write")
        directory = os.path.dirname(target)
        self.assertTrue(any(e[0] == events[at][0] and e[1:] == ["fsync", directory]
                            for e in events[at + 1:]),
                        f"{target}: its directory was not synced after the rename")

    def tmpfs(self, name, size):
        """A small tmpfs mounted for this test (unmounted at its end), where the platform
        lets this process mount one (root with CAP_SYS_ADMIN); the test is skipped
        otherwise."""
        mnt = path(name)
        os.makedirs(mnt, exist_ok=True)
        m = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mnt],
                           capture_output=True, text=True)
        if m.returncode != 0:
            self.skipTest(f"cannot mount a tmpfs here: {m.stderr.strip() or m.returncode}")
        self.addCleanup(subprocess.run, ["umount", mnt], check=False)
        return mnt

    def test_results_on_a_real_full_tmpfs(self):
        # A results file (about 175 KiB) on a 128 KiB tmpfs.
        mnt = self.tmpfs("we_tmpfs_results", "128k")
        out = os.path.join(mnt, "r.h5")
        sentinel(out)
        r = wormnet(["run", "-t", "honeycomb:4", "-r", "double-xy", "--warmup", "100",
                     "--measure", "3000", "--stats-window", "100", "-q", "-o", out])
        one_error_line(self, r, 6, "r.h5.partial", "No space left on device")
        unchanged(self, out)
        self.assertFalse(os.path.exists(out + ".lock"))

    def test_outputs_on_a_read_only_file_system(self):
        # Root writes anywhere except on a read-only mount: refused before anything is
        # written, naming the directory (exit code 2, the path is the user's choice).
        mnt = self.tmpfs("we_tmpfs_ro", "64k")
        m = subprocess.run(["mount", "-o", "remount,ro", mnt], capture_output=True, text=True)
        if m.returncode != 0:
            self.skipTest(f"cannot remount read-only: {m.stderr.strip()}")
        for args in ([*RUN, "-q", "-o", os.path.join(mnt, "r.h5")],
                     [*RUN, "-q", "-o", path("we_ro_results.h5"), "--checkpoint-every", "500",
                      "--checkpoint-dir", os.path.join(mnt, "ck")],
                     ["tables", "-t", "torus:4x4", "-a", "bfs", "-q", "-o",
                      os.path.join(mnt, "t.h5")]):
            with self.subTest(args=args):
                r = wormnet(args)
                one_error_line(self, r, 2, mnt)
        self.assertEqual(os.listdir(mnt), [])

    def test_checkpoints_on_a_real_full_tmpfs(self):
        # Checkpoints of H_4 (about 215 KiB each) on a 320 KiB tmpfs: the first fits, the
        # second, written beside it, does not. The results file elsewhere says "failed".
        mnt = self.tmpfs("we_tmpfs_ck", "320k")
        res = path("we_tmpfs_results.h5")
        sentinel(res)
        ck = os.path.join(mnt, "ck")
        r = wormnet(["run", "-t", "honeycomb:4", "-r", "double-xy", "--warmup", "100",
                     "--measure", "6000", "-q", "-o", res, "--checkpoint-every", "500",
                     "--checkpoint-dir", ck])
        one_error_line(self, r, 6, "checkpoint.h5.partial", "No space left on device")
        unchanged(self, res)
        self.assertEqual(status(res), "failed")
        self.assertTrue(os.path.exists(os.path.join(ck, "checkpoint.h5")))
        self.assertFalse(os.path.exists(os.path.join(ck, "checkpoint.h5.partial")))


def main():
    global WORMNET, MPIEXEC, OUT
    args = sys.argv[1:]
    WORMNET = args[args.index("--wormnet") + 1]
    MPIEXEC = args[args.index("--mpiexec") + 1]
    OUT = args[args.index("--out") + 1]
    global SHIM
    SHIM = args[args.index("--shim") + 1] if "--shim" in args else None
    os.makedirs(OUT, exist_ok=True)
    named = ("--wormnet", "--mpiexec", "--out", "--shim")
    rest = [a for i, a in enumerate(args) if a not in named
            and (i == 0 or args[i - 1] not in named)]
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
