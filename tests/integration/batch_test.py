#!/usr/bin/env python3
"""Batch-job operation, end to end: checkpoint and restart (same and different rank counts,
run and sweep) give results bit-identical to an uninterrupted run; SIGTERM and --walltime stop
cleanly with a checkpoint and exit code 5; kill -9 leaves a results file that h5py opens with
every flushed window; checkpoints of another configuration or version, and foreign or truncated
files, are refused with one line and exit code 2.

usage: batch_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR [unittest args]
"""
import os
import shutil
import signal
import subprocess
import sys
import time
import unittest

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rank_determinism_test import contents, same  # noqa: E402

WORMNET = MPIEXEC = OUT = None
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

RUN = ["run", "-t", "torus:6x4", "-r", "dor-dateline", "--load", "0.3", "--length-min", "4",
       "--length-max", "40", "--buffer", "3", "--warmup", "300", "--measure", "3000",
       "--stats-window", "250"]
# BookSim's timing (terminal latencies, credit latency 3, self-traffic) and random half-ring
# ties drawn per packet: none of it may depend on the rank count or on a restart.
PRESET = ["run", "-t", "torus:6x4", "-r", "dor-booksim", "--preset", "booksim", "--vcs", "2",
          "--load", "0.3", "--length", "4", "--link-latency", "2", "--warmup", "300",
          "--measure", "3000", "--stats-window", "250"]
SWEEP = ["sweep", "-t", "honeycomb:3", "-r", "double-xy", "--loads", "0.05,0.1,0.4",
         "--length-min", "4", "--length-max", "20", "--warmup", "200", "--measure", "2000",
         "--drain-limit", "2000", "--after-saturation", "0", "--stats-window", "200"]


def wormnet(args, ranks=1, timeout=600):
    cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET, *args] if ranks > 1 else [WORMNET, *args]
    return subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=timeout)


def path(name):
    return os.path.join(OUT, name)


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

    def start(self, args, ranks=1):
        # A file left by an earlier ctest run would satisfy wait_for_windows() at once.
        out = args[args.index("-o") + 1]
        if os.path.exists(out):
            os.remove(out)
        cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET, *args] if ranks > 1 else [WORMNET, *args]
        return subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def wait_for_windows(self, out, rows, proc, limit=120):
        deadline = time.time() + limit
        while time.time() < deadline:
            self.assertIsNone(proc.poll(), "the run ended too early")
            try:
                with h5py.File(out, "r") as f:
                    ts = f["points/000/timeseries"]
                    if min(ts[c].shape[0] for c in ts.attrs["columns"]) >= rows:
                        return
            except (OSError, KeyError):
                pass
            time.sleep(0.2)
        self.fail("no windows were flushed")

    def test_sigterm_checkpoints_and_exits_5(self):
        out = path("sigterm.h5")
        ck = path("sigterm.ck")
        shutil.rmtree(ck, ignore_errors=True)
        p = self.start([*self.LONG, "-q", "-o", out, "--checkpoint-dir", ck])
        self.wait_for_windows(out, 3, p)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 5, err)
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["status"], "interrupted")
        self.assertTrue(os.path.exists(os.path.join(ck, "checkpoint.h5")))

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
        out = path("kill9.h5")
        p = self.start([*self.LONG, "-q", "-o", out])
        self.wait_for_windows(out, 4, p)
        p.kill()
        p.wait(timeout=60)
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["status"], "running")
            ts = f["points/000/timeseries"]
            rows = min(ts[c].shape[0] for c in ts.attrs["columns"])
            self.assertGreaterEqual(rows, 4)
            ends = ts["cycle_end"][:rows]
            self.assertTrue((ends[1:] - ends[:-1] == 500).all())


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
            f.attrs["wormnet_version"] = "0.0.1 (0123456789ab)"
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
        copy = path(name)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(self.ck, copy)
        with h5py.File(os.path.join(copy, "checkpoint.h5"), "a") as f:
            change(f)
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
            f.create_dataset("lists/packets/source", data=data, dtype="<u4")

        def wrong_type_attr(f):
            f.attrs["cycle"] = "soon"

        cases = {
            "missing_dataset.ck": (drop("routers/ivc_meta"), "damaged"),
            "missing_group.ck": (drop("counters"), "damaged"),
            "float_for_int.ck": (replace("routers/source_counter", [0.5] * 3), "damaged"),
            "short_rows.ck": (replace("routers/ivc_ready", [[1, 2]]), "--restart"),
            "list_lengths.ck": (resize_list, "damaged"),
            "router_out_of_range.ck": (far_router, "damaged"),
            "attribute_type.ck": (wrong_type_attr, "--restart"),
            "missing_attribute.ck": (lambda f: f.attrs.__delitem__("next_window"), "--restart"),
        }
        for name, (change, word) in cases.items():
            with self.subTest(case=name):
                copy = self.damaged_copy(name, change)
                self.one_line([*RUN, "--restart", copy], "--restart", word)
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

    def test_bad_batch_values(self):
        self.one_line([*RUN, "--checkpoint-every", "soon"], "--checkpoint-every", "soon")
        self.one_line([*RUN, "--checkpoint-every", "-5"], "--checkpoint-every")
        self.one_line([*RUN, "--walltime", "25h"], "--walltime", "25h")
        self.one_line([*RUN, "--walltime", "00:61:00"], "--walltime")


def main():
    global WORMNET, MPIEXEC, OUT
    args = sys.argv[1:]
    WORMNET = args[args.index("--wormnet") + 1]
    MPIEXEC = args[args.index("--mpiexec") + 1]
    OUT = args[args.index("--out") + 1]
    os.makedirs(OUT, exist_ok=True)
    rest = [a for i, a in enumerate(args) if a not in ("--wormnet", "--mpiexec", "--out")
            and (i == 0 or args[i - 1] not in ("--wormnet", "--mpiexec", "--out"))]
    unittest.main(argv=[sys.argv[0], "-v", *rest])


if __name__ == "__main__":
    main()
