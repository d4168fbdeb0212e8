#!/usr/bin/env python3
"""The SLURM job scripts of runs/slurm, run for real on this machine through the dry-run
stand-ins for sbatch and srun (runs/slurm/dry-run: jobs run synchronously, job steps under
mpiexec):

- run_checkpointed.sbatch: a run interrupted (--stop-at-cycle on the first submission, or
  --walltime on every one) resubmits itself, continues from its checkpoint and ends with a
  results file identical to an uninterrupted run's; a bad configuration is not resubmitted;
- submit_sweep.sh (job array + merge): the merged file equals, dataset by dataset, one
  `wormnet sweep` of the same loads, including the sweep's stop after saturation; array tasks
  interrupted and resubmitted still end in that file; runs/merge_points.py refuses missing,
  unfinished and foreign point files and leaves the target alone;
- tables.sbatch: one `wormnet tables` job step per algorithm with the documented options.

Compared like the rank-determinism test: every dataset and attribute but the execution fields
(ranks, partition, git revision, wall-clock times).

usage: slurm_dry_run_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR [unittest args]
"""
import glob
import os
import re
import shutil
import stat
import subprocess
import sys
import unittest

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from rank_determinism_test import contents, same  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(REPO, "runs", "slurm")
WORMNET = MPIEXEC = OUT = None

RUN_TOML = """topology = "torus:6x4"
routing = "dor-dateline"
load = 0.3
length-min = 4
length-max = 40
buffer = 3
warmup = 300
measure = 6000
stats-window = 250
"""
# The run a --walltime cuts: its length in cycles is set from this machine's speed measured
# just before (see test_walltime_until_done), so that it takes WALLTIME_RUN_SECONDS of
# simulation whether the machine is quiet or loaded.
LONG_RUN_TOML = """topology = "torus:8x8"
routing = "dor-dateline"
load = 0.2
length = 8
warmup = 1000
measure = {measure}
stats-window = 50000
"""
WALLTIME = "00:00:01"
WALLTIME_RUN_SECONDS = 5.0  # 5 walltimes: cut on a machine up to ~4x faster than measured
PROBE_CYCLES = 100000
SWEEP_TOML = """topology = "honeycomb:3"
routing = "double-xy"
length-min = 4
length-max = 20
warmup = 200
measure = 2000
drain-limit = 2000
after-saturation = 1
stats-window = 200
"""
LOADS = ["0.05", "0.1", "0.4", "0.5"]


def root_env():
    return dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


class DryRun(unittest.TestCase):
    def setUp(self):
        self.dir = os.path.join(OUT, self.id().split(".", 1)[1])
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)

    def file(self, name, text=None):
        p = os.path.join(self.dir, name)
        if text is not None:
            with open(p, "w") as f:
                f.write(text)
        return p

    def env(self, **settings):
        e = root_env()
        e.update(PATH=os.path.join(SCRIPTS, "dry-run") + os.pathsep + e["PATH"],
                 WORMNET=WORMNET, MPIEXEC=MPIEXEC, WORMNET_SCRIPTS=SCRIPTS,
                 RESULTS=self.file("results"), DRY_RUN_STATE=self.file("state"),
                 DRY_RUN_NTASKS="2", PYTHON=sys.executable)
        for k in ("SUBMISSION", "SLURM_JOB_ID", "SLURM_ARRAY_TASK_ID", "LAUNCH"):
            e.pop(k, None)
        e.update({k: str(v) for k, v in settings.items()})
        return e

    def submit(self, command, **settings):
        r = subprocess.run(command, cwd=self.dir, env=self.env(**settings), capture_output=True,
                           text=True, timeout=850)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r

    def jobs(self):
        """The dry-run scheduler's log: (job id, array task, exit code, script) per job."""
        with open(self.file("state/jobs")) as f:
            return [tuple(line.split(" ", 3)) for line in f.read().splitlines()]

    def logs(self):
        text = ""
        for p in sorted(glob.glob(os.path.join(self.dir, "slurm-*.out"))):
            with open(p) as f:
                text += f.read()
        return text

    def wormnet(self, *args, ranks=1, code=0):
        cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET, *args]
        r = subprocess.run(cmd, env=root_env(), capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, code, r.stdout + r.stderr)
        return r

    def assert_identical(self, a, b):
        ca, cb = contents(a), contents(b)
        self.assertEqual(sorted(ca), sorted(cb))
        self.assertEqual([k for k in ca if not same(ca[k], cb[k])], [])


class Resubmission(DryRun):
    def check_resubmitted_run(self, toml, **settings):
        config = self.file("run.toml", toml)
        reference = self.file("reference.h5")
        self.wormnet("run", "--config", config, "-q", "-o", reference)
        self.submit(["sbatch", os.path.join(SCRIPTS, "run_checkpointed.sbatch")], CONFIG=config,
                    NAME="big", **settings)
        jobs = self.jobs()
        logs = self.logs()
        self.assertGreaterEqual(len(jobs), 2, logs)
        self.assertTrue(all(j[2] == "0" for j in jobs), f"{jobs}\n{logs}")
        self.assertEqual(logs.count("interrupted with a checkpoint; resubmitting"), len(jobs) - 1)
        self.assertEqual(logs.count("continuing from"), len(jobs) - 1)
        self.assertIn("big: finished (complete)", logs)
        self.assertTrue(os.path.exists(self.file("results/big.done")))
        result = self.file("results/big.h5")
        with h5py.File(result, "r") as f:
            self.assertEqual(f.attrs["status"], "complete")
        self.assert_identical(reference, result)
        # Submitting again once done does nothing (the run is not started over).
        before = os.stat(result).st_mtime_ns
        self.submit(["sbatch", os.path.join(SCRIPTS, "run_checkpointed.sbatch")], CONFIG=config,
                    NAME="big", **settings)
        self.assertIn("already complete", self.logs())
        self.assertEqual(os.stat(result).st_mtime_ns, before)
        return jobs

    def test_stop_at_cycle_then_restart(self):
        jobs = self.check_resubmitted_run(RUN_TOML, EXTRA_ARGS="--stop-at-cycle 2000")
        self.assertEqual(len(jobs), 2)

    def test_decided_from_the_files_not_the_launchers_code(self):
        # mpiexec sent SIGTERM returns 1 although its ranks stopped cleanly with 5: a launcher
        # that does so must not keep the run from being continued, and one that reports 0 for
        # a run that failed must not mark it done.
        launcher = self.file("mangling-launcher", "#!/bin/sh\nsrun \"$@\"\n"
                             "rc=$?\n[ $rc -eq 5 ] && exit 1\nexit $rc\n")
        os.chmod(launcher, 0o755)
        jobs = self.check_resubmitted_run(RUN_TOML, EXTRA_ARGS="--stop-at-cycle 2000",
                                          LAUNCH=launcher)
        self.assertEqual(len(jobs), 2)
        self.assertIn("launcher exit 1, results status: interrupted", self.logs())

    def test_a_launcher_reporting_success_for_a_bad_run(self):
        config = self.file("bad.toml", 'topology = "torus:6x4"\nrouting = "dor-dateline"\n'
                                       "load = 7\n")
        launcher = self.file("lying-launcher", "#!/bin/sh\nsrun \"$@\"\nexit 0\n")
        os.chmod(launcher, 0o755)
        self.submit(["sbatch", os.path.join(SCRIPTS, "run_checkpointed.sbatch")], CONFIG=config,
                    NAME="bad", LAUNCH=launcher)
        self.assertEqual([j[2] for j in self.jobs()], ["1"])
        self.assertIn("results status: none", self.logs())
        self.assertFalse(os.path.exists(self.file("results/bad.done")))

    def test_walltime_until_done(self):
        # A --walltime cut is wall-clock time, so no fixed run length is both cut on a fast
        # machine and finished within a fixed number of submissions on a loaded one (2e6 cycles
        # in 2-second pieces failed after 40 submissions at load 10-15 on 2 cores). The run is
        # sized from the speed measured now, at the same rank count as the job steps: about
        # WALLTIME_RUN_SECONDS of simulation, i.e. ~6 one-second pieces at any speed; the
        # bound allows the machine to slow down tenfold between the probe and the job.
        probe = self.file("probe.h5")
        self.wormnet("run", "--config",
                     self.file("probe.toml", LONG_RUN_TOML.format(measure=PROBE_CYCLES)), "-q",
                     "-o", probe, ranks=2)
        with h5py.File(probe, "r") as f:
            seconds = max(float(f["summary/wall_seconds"][0]), 1e-3)
        cycles = int(min(5e7, max(PROBE_CYCLES, PROBE_CYCLES * WALLTIME_RUN_SECONDS / seconds)))
        jobs = self.check_resubmitted_run(LONG_RUN_TOML.format(measure=cycles),
                                          WALLTIME=WALLTIME, MAX_SUBMISSIONS=60)
        # Every piece but the last stopped at the walltime with a checkpoint, and each went on
        # from where the one before stopped: strictly increasing cycles.
        stops = [int(c) for c in re.findall(r"stopped +at cycle (\d+)", self.logs())]
        starts = [int(c) for c in re.findall(r"restart +from .* cycle (\d+)", self.logs())]
        self.assertEqual(len(stops), len(jobs) - 1)
        self.assertEqual(starts, stops, self.logs())
        self.assertEqual(stops, sorted(set(stops)))

    def test_bad_configuration_is_not_resubmitted(self):
        config = self.file("bad.toml", 'topology = "torus:6x4"\nrouting = "dor-dateline"\n'
                                       "load = 7\n")
        self.submit(["sbatch", os.path.join(SCRIPTS, "run_checkpointed.sbatch")], CONFIG=config,
                    NAME="bad")
        jobs = self.jobs()
        self.assertEqual([j[2] for j in jobs], ["2"])
        logs = self.logs()
        self.assertIn("wormnet: error: --load", logs)
        self.assertIn("not resubmitting", logs)
        self.assertFalse(os.path.exists(self.file("results/bad.done")))

    def test_an_unfinished_workload_is_not_marked_done(self):
        # A workload the drain limit ends before its last message (issued no earlier than
        # cycle 500, the run may last 300 cycles) leaves status "incomplete" and exit code 7:
        # not done (no marker), not resubmitted (a restart would end the same way), also when
        # the launcher reports success.
        trace = self.file("late.csv", "id,source,destination,flits,after,iteration,depends\n"
                                      "0,0,1,4,0,0,\n1,1,0,4,500,0,0\n")
        config = self.file("late.toml", 'topology = "mesh:4x4"\nrouting = "xy"\n'
                                        f'workload = "trace"\ntrace = "{trace}"\n'
                                        "drain-limit = 300\n")
        launcher = self.file("lying-launcher", "#!/bin/sh\nsrun \"$@\"\nexit 0\n")
        os.chmod(launcher, 0o755)
        for k, (name, settings) in enumerate((("late", {}), ("lied", {"LAUNCH": launcher}))):
            with self.subTest(launcher=settings.get("LAUNCH", "srun")):
                self.submit(["sbatch", os.path.join(SCRIPTS, "run_checkpointed.sbatch")],
                            CONFIG=config, NAME=name, **settings)
                self.assertEqual([j[2] for j in self.jobs()], ["7"] * (k + 1), self.logs())
                logs = self.logs()
                self.assertIn(f"{name}: launcher exit", logs)
                self.assertIn("results status: incomplete", logs)
                self.assertIn(f"{name}: the workload did not finish", logs)
                self.assertIn("not resubmitting", logs)
                self.assertFalse(os.path.exists(self.file(f"results/{name}.done")))
                with h5py.File(self.file(f"results/{name}.h5"), "r") as f:
                    self.assertEqual(f.attrs["status"], "incomplete")
                    self.assertEqual(f["workload"].attrs["complete"], 0)

    def test_resubmissions_are_bounded(self):
        config = self.file("run.toml", RUN_TOML)
        self.submit(["sbatch", os.path.join(SCRIPTS, "run_checkpointed.sbatch")], CONFIG=config,
                    NAME="loop", MAX_SUBMISSIONS=1, EXTRA_ARGS="--stop-at-cycle 300")
        self.assertEqual([j[2] for j in self.jobs()], ["5"])
        self.assertIn("not resubmitting", self.logs())
        self.assertTrue(os.path.exists(self.file("results/loop.checkpoint/checkpoint.h5")))


class ArraySweep(DryRun):
    def reference(self, config):
        reference = self.file("reference.h5")
        self.wormnet("sweep", "--config", config, "--loads", ",".join(LOADS), "-q", "-o",
                     reference)
        with h5py.File(reference, "r") as f:
            points = f["summary/point"].shape[0]
            saturated = list(f["summary/saturated"][()])
        # The sweep stops one point after the first saturated one, before the last load:
        # the merge has to apply the same rule for the files to be equal.
        self.assertLess(points, len(LOADS))
        self.assertEqual(saturated.index(1), points - 2)
        return reference, points

    def merge_paths(self):
        return [self.file(f"results/sweep.points/point_{i:04d}.h5") for i in range(len(LOADS))]

    def check_sweep(self, **settings):
        config = self.file("sweep.toml", SWEEP_TOML)
        reference, points = self.reference(config)
        r = self.submit([os.path.join(SCRIPTS, "submit_sweep.sh")], CONFIG=config, NAME="sweep",
                        LOADS=" ".join(LOADS), **settings)
        self.assertIn("array job", r.stdout)
        merged = self.file("results/sweep.h5")
        self.assertTrue(os.path.exists(merged), self.logs())
        self.assert_identical(reference, merged)
        with h5py.File(merged, "r") as f:
            self.assertEqual(f.attrs["status"], "complete")
            self.assertEqual(list(f["summary/point"][()]), list(range(points)))
            self.assertEqual(f["points/001"].attrs["index"], 1)
        for i in range(points, len(LOADS)):
            self.assertIn(f"point {i} (load {LOADS[i]}", self.logs())
        # Every point file is a finished one-point sweep of its own load.
        for i, p in enumerate(self.merge_paths()):
            with h5py.File(p, "r") as f:
                self.assertEqual(f.attrs["status"], "complete")
                self.assertAlmostEqual(float(f["summary/offered_load"][0]), float(LOADS[i]))
        return reference, merged

    def test_array_and_merge_equal_one_sweep(self):
        self.check_sweep()
        jobs = self.jobs()
        self.assertEqual(sorted(j[1] for j in jobs if "sweep_array" in j[3]),
                         sorted(str(i) for i in range(len(LOADS))))
        self.assertTrue(all(j[2] == "0" for j in jobs), jobs)

    def test_interrupted_tasks_are_resubmitted_and_merged(self):
        self.check_sweep(EXTRA_ARGS="--stop-at-cycle 1000")
        jobs = self.jobs()
        array = [j for j in jobs if "sweep_array" in j[3]]
        # Each task once interrupted, once resubmitted.
        self.assertEqual(len(array), 2 * len(LOADS), jobs)
        self.assertEqual(self.logs().count("submitting the merge again"), len(LOADS))

    def python_without_h5py(self):
        """A folder holding a `python3` that cannot import h5py (no site-packages), as the
        python3 first on a cluster's PATH often is."""
        folder = self.file("nopy")
        os.makedirs(folder, exist_ok=True)
        shim = os.path.join(folder, "python3")
        with open(shim, "w") as f:
            f.write(f"#!/bin/sh\nexec {sys.executable} -S \"$@\"\n")
        os.chmod(shim, 0o755)
        return folder, shim

    def test_merge_finds_a_python_with_h5py(self):
        # python3 on PATH lacks h5py and PYTHON is not set: the merge used it and ended in a
        # traceback (issue 39); now /usr/bin/python3 (which has it) is found.
        folder, _ = self.python_without_h5py()
        path = os.pathsep.join([os.path.join(SCRIPTS, "dry-run"), folder, os.environ["PATH"]])
        if not os.path.exists("/usr/bin/python3"):
            self.skipTest("no /usr/bin/python3")
        self.check_sweep(PYTHON="", PATH=path)
        self.assertNotIn("Traceback", self.logs())

    def test_no_python_with_h5py_is_refused_before_submitting(self):
        _, shim = self.python_without_h5py()
        config = self.file("sweep.toml", SWEEP_TOML)
        r = subprocess.run([os.path.join(SCRIPTS, "submit_sweep.sh")], cwd=self.dir,
                           env=self.env(CONFIG=config, NAME="sweep", LOADS=" ".join(LOADS),
                                        PYTHON=shim),
                           capture_output=True, text=True, timeout=300)
        self.assertNotEqual(r.returncode, 0, "submit_sweep.sh exited 0 without a Python for "
                                             "the merge")
        said = r.stderr.strip().splitlines()
        self.assertEqual(len(said), 1, r.stderr)
        self.assertIn("no Python with h5py and numpy", said[0])
        self.assertIn(shim, said[0])
        self.assertFalse(os.path.exists(self.file("state/jobs")), "nothing was submitted")
        # The merge job alone: a failed job with that line, no traceback.
        self.submit(["sbatch", os.path.join(SCRIPTS, "sweep_merge.sbatch")], NAME="sweep",
                    LOADS=" ".join(LOADS), PYTHON=shim)
        jobs = self.jobs()
        self.assertEqual(len(jobs), 1)
        self.assertNotEqual(jobs[0][2], "0", jobs)
        self.assertIn("no Python with h5py and numpy", self.logs())
        self.assertNotIn("Traceback", self.logs())

    def test_merge_keeps_all_points_on_request(self):
        config = self.file("sweep.toml", SWEEP_TOML)
        reference, points = self.reference(config)
        self.submit([os.path.join(SCRIPTS, "submit_sweep.sh")], CONFIG=config, NAME="sweep",
                    LOADS=" ".join(LOADS))
        everything = self.file("all.h5")
        r = subprocess.run([sys.executable, os.path.join(REPO, "runs", "merge_points.py"),
                            "--all", "-o", everything, *self.merge_paths()],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(everything, "r") as f, h5py.File(reference, "r") as ref:
            self.assertEqual(f["summary/point"].shape[0], len(LOADS))
            self.assertIn(f"points/{len(LOADS) - 1:03d}", f)
            for c in ref["summary"].attrs["columns"]:
                if c != "wall_seconds":
                    self.assertTrue(same(f["summary"][c][:points], ref["summary"][c][()]), c)

    def test_merge_refusals_leave_the_target_alone(self):
        config = self.file("sweep.toml", SWEEP_TOML)
        points = self.file("p")
        os.makedirs(points)
        a, b = os.path.join(points, "a.h5"), os.path.join(points, "b.h5")
        self.wormnet("sweep", "--config", config, "--loads", "0.05", "-q", "-o", a)
        self.wormnet("sweep", "--config", config, "--loads", "0.1", "--seed", "9", "-q", "-o", b)
        run = os.path.join(points, "run.h5")
        self.wormnet("run", "--config", self.file("r.toml", RUN_TOML), "-q", "-o", run)
        two = os.path.join(points, "two.h5")
        self.wormnet("sweep", "--config", config, "--loads", "0.05,0.1", "-q", "-o", two)
        stopped = os.path.join(points, "stopped.h5")
        self.wormnet("sweep", "--config", config, "--loads", "0.1", "--stop-at-cycle", "500", "-q",
                     "-o", stopped, "--checkpoint-dir", os.path.join(points, "ck"), code=5)
        # The same configuration computed from another table or trace (issue 36: the
        # digests of the input files in the attribute 'inputs').
        other = os.path.join(points, "other_inputs.h5")
        shutil.copyfile(a, other)
        with h5py.File(other, "r+") as f:
            f.attrs["inputs"] = 'trace = { bytes = 1, sha256 = "' + "0" * 64 + '", path = "t" }\n'
        junk = os.path.join(points, "junk.h5")
        with open(junk, "wb") as f:
            f.write(b"not hdf5 at all\n" * 10)
        target = self.file("merged.h5", "an earlier merge\n")
        for inputs, word in (([a, os.path.join(points, "missing.h5")], "missing"),
                             ([a, b], "another configuration"),
                             ([a, other], "other input files"),
                             ([a, run], "not 'wormnet sweep'"),
                             ([a, two], "one-point"),
                             ([a, stopped], "interrupted"),
                             ([a, junk], "not an HDF5 file")):
            r = subprocess.run([sys.executable, os.path.join(REPO, "runs", "merge_points.py"),
                                "-o", target, *inputs], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, f"{inputs}: {r.stderr}")
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertIn(word, r.stderr)
            with open(target) as f:
                self.assertEqual(f.read(), "an earlier merge\n")
            self.assertEqual(glob.glob(target + ".*"), [])


class Tables(DryRun):
    def test_one_step_per_algorithm_with_the_documented_options(self):
        record = self.file("calls")
        # A stand-in wormnet: records each job step's command line, writes the -o file and
        # says "complete" when the job script asks for its status.
        stub = self.file("wormnet-stub", f"""#!/bin/sh
if [ "$1" = status ]; then echo complete; exit 0; fi
echo "$*" >> {record}
prev=
for a in "$@"; do [ "$prev" = -o ] && : > "$a"; prev=$a; done
""")
        os.chmod(stub, os.stat(stub).st_mode | stat.S_IXUSR)
        self.submit(["sbatch", "--array=0-2", os.path.join(SCRIPTS, "tables.sbatch")],
                    WORMNET=stub)
        with open(record) as f:
            calls = sorted(f.read().splitlines())
        out = self.file("results/tables")
        expected = sorted(f"tables --topology torus:4x4x2 --algorithm {a} -o {out}/torus_4x4x2_{a}.h5"
                          for a in ("bfs", "sssp", "genetic") for _ in range(2))  # 2 ranks each
        self.assertEqual(calls, expected)
        self.assertEqual([j[2] for j in self.jobs()], ["0", "0", "0"])

    def test_with_this_wormnet(self):
        # Against the real binary: a table when it has `wormnet tables`, otherwise the job
        # fails with wormnet's one-line error and its exit code, 2.
        has_tables = subprocess.run([WORMNET, "tables", "--help"], capture_output=True,
                                    env=root_env()).returncode == 0
        self.submit(["sbatch", "--array=0", os.path.join(SCRIPTS, "tables.sbatch")],
                    ALGORITHMS="bfs")
        jobs = self.jobs()
        if has_tables:
            self.assertEqual(jobs[0][2], "0", self.logs())
            with h5py.File(self.file("results/tables/torus_4x4x2_bfs.h5"), "r"):
                pass
        else:
            self.assertEqual(jobs[0][2], "2", self.logs())
            self.assertIn("unknown subcommand 'tables'", self.logs())


def main():
    global WORMNET, MPIEXEC, OUT
    args = sys.argv[1:]
    opts = {}
    while args and args[0] in ("--wormnet", "--mpiexec", "--out"):
        opts[args[0]] = os.path.abspath(args[1]) if args[0] != "--mpiexec" else args[1]
        args = args[2:]
    if len(opts) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    WORMNET, MPIEXEC, OUT = opts["--wormnet"], opts["--mpiexec"], opts["--out"]
    os.makedirs(OUT, exist_ok=True)
    unittest.main(argv=[sys.argv[0], "-v", *args])


if __name__ == "__main__":
    main()
