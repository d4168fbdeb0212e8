#!/usr/bin/env python3
"""Randomized differential testing of wormnet's promises, on configurations drawn from the
whole option space (option_space.py):

  ranks    one rank and K ranks (2..6, oversubscribed) write bit-identical results files;
  restart  a run stopped at a random cycle (--stop-at-cycle) on a random rank count and
           restarted on another (once, or stopped again and restarted twice in a row) ends in
           the file of the uninterrupted run;
  merge    a sweep split into one-point sweeps (one per load, on random rank counts, from a
           --config file) and merged by runs/merge_points.py, as runs/slurm's job array does,
           equals the single sweep;
  verdict  a run reports a deadlock only for a routing that the verifier finds cyclic, with
           a cycle of waiting channels that really is one (each waits for the next), and the
           exit code agrees with the file's status;
  walk     the skewed walk (test-only --walk-block-routers / --walk-skew: blocks of 64 to 256
           routers in lagging layers on a small network) writes the level walk's file, also
           when stopped and restarted;
  topology a honeycomb torus's file holds the network of its published definition
           (honeycomb_tori.py: node set, links, degree 3, counts, BFS diameter);
  versus   (with --versus B) binary B writes the same 1-rank file as the binary under test,
           the git revision aside, and so does its walk over the walk check's blocks: a
           refactoring's safety net, and two builds' (with and without cache hints);
  changed-input  a run that reads a routing table or a trace, stopped, then its file changed
           (another table kind for the same torus, one trace message edited): the restart
           is refused (exit 2, one line naming the option, the file and the change) and
           leaves the checkpoint and the results file as they were.

Files are compared dataset by dataset and attribute by attribute; only what describes the
execution rather than the model is left out (see contents(), below).

A configuration is a pure function of its seed. A failure prints the seed, the check and the
exact command lines, then shrinks the configuration (smaller network, fewer options, fewer
ranks and restarts) to a small one that still fails and prints its command lines too
(and writes both to OUT/failures/SEED.txt).

usage:
  harness.py --wormnet BIN [--mpiexec MPIEXEC] --out DIR --seeds 1,2,3 | --seeds 1-40
  harness.py --wormnet BIN --out DIR --ci             # the fixed seeds CI runs
  harness.py --wormnet BIN --out DIR --soak 2000 [--jobs 2] [--base-seed S]
  harness.py --wormnet NEW --versus OLD --out DIR --seeds 1-100   # two builds, same files
  harness.py --wormnet NEW --versus OLD --out DIR --golden --jobs 2  # the golden set
  harness.py --wormnet A --versus B --out DIR --seeds 1,2 --only walk,versus  # some checks
  harness.py --show SEED                              # the configuration of a seed
  harness.py --golden-coverage                        # what the golden seeds cover
  harness.py --pick-golden 3000                       # re-pick the golden seeds

Runs as root need OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (set here).
Needs h5py and numpy (Debian's /usr/bin/python3).
"""
import argparse
import collections
import concurrent.futures
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import golden  # noqa: E402
import honeycomb_tori  # noqa: E402
import option_space as space  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integration"))
import rank_determinism_test as determinism  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
MERGE = os.path.join(REPO, "runs", "merge_points.py")

# Seeds of the CI run (tests/CMakeLists.txt: differential.ci), about 3 minutes on 2 cores:
# the first 15, the golden set's two
# that deadlock (minimal-adaptive on H_3; stojmenovic on H_3 under halo2d), and a greedy
# cover, among networks of 12 to 100 nodes, of what issue 36 added to the option space:
# every motif and mapping, a trace, a grid, iterations, workloads under bubble flow control
# and with messages above --length-max, Duato over every escape routing with every
# selection, thin honeycomb tori, more than 3 dateline levels (the skewed walk: seeds 8, 14).
# Re-pick them when the generators change (--show SEED, golden.features).
CI_SEEDS = [*range(1, 16), 125, 176, 704, 2784, 1039, 2988, 175, 205, 937, 2507,
            2786, 1075, 1995, 100, 292]
MAX_RANKS = 6


# --- running wormnet ----------------------------------------------------------------------

class Result:
    def __init__(self, cmd, rc, out, err, seconds):
        self.cmd, self.rc, self.out, self.err, self.seconds = cmd, rc, out, err, seconds

    def line(self):
        return " ".join(self.cmd)


class Runner:
    """Runs wormnet (under mpiexec for more than one rank) and records every command line."""

    def __init__(self, wormnet, mpiexec, timeout):
        self.wormnet = wormnet
        self.mpiexec = mpiexec
        self.timeout = timeout
        self.env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                        OMPI_MCA_rmaps_base_oversubscribe="1")
        self.log = []

    def command(self, args, ranks):
        if ranks > 1:
            return [self.mpiexec, "-n", str(ranks), "--oversubscribe", self.wormnet, *args]
        return [self.wormnet, *args]

    # Open MPI's start-up can fail before wormnet runs a line of its own: seen once in a soak
    # of 16 seeds with two jobs launching at once (4 Dec 2026), a singleton run whose stderr
    # held only Open MPI's "Local abort before MPI_INIT completed", while the same command
    # passed by hand. Such a run is tried once more; the log keeps both attempts.
    STARTUP_FAILURE = "before MPI_INIT completed"

    def run(self, args, ranks=1, program=None):
        r = self.run_once(args, ranks, program)
        if r.rc not in (0, "timeout") and self.STARTUP_FAILURE in r.err:
            r = self.run_once(args, ranks, program)
        return r

    def run_once(self, args, ranks=1, program=None):
        cmd = program if program else self.command(args, ranks)
        start = time.time()
        # A session of its own: a run that hangs is killed with every rank it started.
        p = subprocess.Popen(cmd, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
        try:
            out, err = p.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            err += f"\n(killed after {self.timeout} s: a hang)"
            r = Result(cmd, "timeout", out, err, time.time() - start)
            self.log.append(r)
            return r
        r = Result(cmd, p.returncode, out, err, time.time() - start)
        self.log.append(r)
        return r

    def verify(self, args):
        return self.run(["verify", *args])


class Skip(Exception):
    """A check that cannot run on this configuration (not a finding)."""


class Failure(Exception):
    def __init__(self, check, message):
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = message


# --- comparing results files --------------------------------------------------------------

# What may differ between two files of the same model, and only that: the root attribute
# `ranks` (how many ranks ran it), anything named wall_seconds (wall-clock time) and the group
# /partition (which rank owned which router); the determinism test's reader leaves them out.
RUN_ATTRS = {"ranks", "wall_seconds"}


def contents(path, execution_attrs=RUN_ATTRS):
    """Every attribute and dataset of a results file but what describes the execution, as
    {name: value}; the git revision is compared too unless left out (one binary wrote both)."""
    return determinism.contents(path, execution_attrs=execution_attrs)


same = determinism.same


def differences(a_path, b_path, execution_attrs=RUN_ATTRS):
    a, b = contents(a_path, execution_attrs), contents(b_path, execution_attrs)
    out = [f"only in one file: {k}" for k in sorted(set(a) ^ set(b))]
    out += [f"differs: {k}" for k in sorted(set(a) & set(b)) if not same(a[k], b[k])]
    return out


def expect_same(check, reference, other, what):
    d = differences(reference, other)
    if d:
        raise Failure(check, f"{what} differs from the 1-rank run in {len(d)} objects: " +
                      "; ".join(d[:8]) + (" ..." if len(d) > 8 else ""))


def status(path):
    with h5py.File(path, "r") as f:
        return f.attrs["status"]


# --- one configuration --------------------------------------------------------------------

class Case:
    """A configuration, its check plan (rank counts, stop cycles, drawn from the seed too) and
    a working directory."""

    def __init__(self, seed, cfg, plan, work, runner, tables):
        self.seed, self.cfg, self.plan, self.work, self.runner = seed, cfg, plan, work, runner
        self.tables = tables  # TableCache
        self.table_file = None
        self.trace_file = None  # --workload trace: the drawn trace, written by prepare()
        self.outcome = None  # the reference run's: complete, saturated or deadlock
        self.skipped = []
        self.versus = None  # --versus: a second binary that must write the same files

    def path(self, name):
        return os.path.join(self.work, name)

    def args(self, out, extra=()):
        return [self.cfg["_command"], *space.options(self.cfg, self.table_file, self.trace_file),
                "-q", "-o", out, *extra]

    def run(self, out, ranks, extra=(), expect=(0, 4)):
        r = self.runner.run(self.args(out, extra), ranks)
        self.judge(r, expect)
        return r

    def judge(self, r, expect):
        # wormnet's own lines (MPI adds pages of its own around an abort).
        said = [x for x in r.err.splitlines() if x.startswith("wormnet")] or \
            r.err.strip().splitlines()[-3:]
        said = " | ".join(said)[:600]
        if r.rc == "timeout":
            raise Failure("hang", f"no end within {self.runner.timeout} s: {r.line()}")
        if r.rc == 2 and "METIS left a rank without nodes" in r.err:
            raise Skip("METIS cannot split this network over that many ranks")
        if r.rc == 2 and 2 not in expect:
            raise Failure("refused", f"wormnet refused a configuration the option space "
                          f"considers valid: {said}")
        if r.rc not in expect:
            raise Failure("exit", f"exit {r.rc} (expected {' or '.join(map(str, expect))}) "
                          f"from {r.line()}: {said}")

    def prepare(self):
        os.makedirs(self.work, exist_ok=True)
        if self.cfg["routing"] == "table":
            self.table_file = self.tables.get(self.cfg["topology"], self.cfg["_table_algorithm"],
                                              self.runner, space.fault_args(self.cfg))
        if "_trace" in self.cfg:
            self.trace_file = self.path("trace.csv")
            with open(self.trace_file, "w") as f:
                f.write(space.trace_text(self.cfg))


def plan_for(seed, cfg):
    """Rank counts and stops of the checks: a pure function of the seed."""
    rng = random.Random(seed * 7919 + 17)
    most = max(1, min(MAX_RANKS, space.nodes(cfg)))
    ranks = lambda low=1: rng.randint(min(low, most), most)  # noqa: E731
    return {
        "ranks": ranks(2),
        "checkpoint_every": rng.choice([None, None, None, rng.randint(30, 400)]),
        "stops": rng.choice([1, 1, 2]),
        "stop_fractions": sorted(rng.random() for _ in range(2)),
        "restart_ranks": [ranks(), ranks(), ranks()],
        "restart_alone": rng.random() < 0.3,
        "point_ranks": [ranks() for _ in range(4)],
        "point_stop": rng.random() < 0.3,
        # The skewed walk: blocks of `walk_block` routers, catch-ups every `walk_skew` cycles,
        # on `walk_ranks` ranks, stopped and restarted half the time (check_walk).
        "walk": rng.random() < 0.5,
        "walk_block": rng.choice([64, 64, 128, 256]),
        "walk_skew": rng.choice([1, 2, 3, 4, 4, 8]),
        "walk_ranks": rng.choice([1, 1, 2]),
        "walk_stop": rng.random() < 0.5,
    }


def walk_plan(plan, cfg):
    """(routers per block, skew, ranks) of the walk check, or None when no rank of the
    network would hold two blocks (the walk would be the level one)."""
    if not plan["walk"]:
        return None
    n = space.nodes(cfg)
    for block in (plan["walk_block"], 64):
        for k in (plan["walk_ranks"], 1):
            if n // k > block:
                return block, plan["walk_skew"], k
    return None


def cycles_of(path):
    with h5py.File(path, "r") as f:
        return [int(c) for c in f["summary/cycles"][()]]


def check_reference(case):
    ref = case.path("reference.h5")
    r = case.run(ref, 1)
    st = status(ref)
    # exit 4 exactly for a deadlock, 7 exactly for a workload the drain limit left unfinished
    if (r.rc == 4) != (st == "deadlock") or (r.rc == 7) != (st == "incomplete") or \
            st not in ("complete", "deadlock", "incomplete"):
        raise Failure("exit", f"exit {r.rc} with status '{st}' in the file: {r.line()}")
    return ref


def check_ranks(case, ref):
    k = case.plan["ranks"]
    if k < 2:
        return
    extra = []
    if case.plan["checkpoint_every"]:
        extra = ["--checkpoint-every", str(case.plan["checkpoint_every"]),
                 "--checkpoint-dir", case.path("periodic.ck")]
    out = case.path(f"ranks{k}.h5")
    case.run(out, k, extra)
    expect_same("ranks", ref, out, f"the {k}-rank run")


def check_restart(case, ref):
    total = max(cycles_of(ref))
    if total < 2:
        return
    stops = [max(1, int(f * total)) for f in case.plan["stop_fractions"][:case.plan["stops"]]]
    ck = case.path("restart.ck")
    out = case.path("restart.h5")
    shutil.rmtree(ck, ignore_errors=True)
    ranks = case.plan["restart_ranks"]
    r = case.run(out, ranks[0], ["--stop-at-cycle", str(stops[0]), "--checkpoint-dir", ck],
                 expect=(0, 4, 5))
    step = 1
    while r.rc == 5:
        more = ["--stop-at-cycle", str(stops[step])] if step < len(stops) else []
        if case.plan["restart_alone"] and not more:
            # The configuration comes from the checkpoint alone.
            args = [case.cfg["_command"], "--restart", ck, "-q"]
            r = case.runner.run(args, ranks[step])
            case.judge(r, (0, 4))
        else:
            r = case.run(out, ranks[step], ["--restart", ck, "--checkpoint-dir", ck, *more],
                         expect=(0, 4, 5))
        step += 1
        if step > 3:
            raise Failure("restart", "still interrupted after three restarts")
    expect_same("restart", ref, out,
                f"the run stopped at cycle {stops} and restarted on {ranks[:step]} ranks")


def check_merge(case, ref):
    if case.cfg["_command"] != "sweep":
        return
    loads = case.cfg["_loads"]
    config = case.path("sweep.toml")
    with open(config, "w") as f:
        f.write(space.toml(case.cfg, case.table_file))
    points = []
    for i, load in enumerate(loads):
        point = case.path(f"point_{i:04d}.h5")
        ck = case.path(f"point_{i:04d}.ck")
        shutil.rmtree(ck, ignore_errors=True)
        ranks = case.plan["point_ranks"][i % len(case.plan["point_ranks"])]
        args = ["sweep", "--config", config, "--loads", str(load), "-q", "-o", point,
                "--checkpoint-dir", ck]
        stop = ["--stop-at-cycle", str(max(1, max(cycles_of(ref)) // 2))]
        r = case.runner.run(args + (stop if case.plan["point_stop"] else []), ranks)
        case.judge(r, (0, 4, 5))
        if r.rc == 5:  # resubmitted, as run_checkpointed does
            r = case.runner.run(["sweep", "--restart", ck, "--checkpoint-dir", ck, "-q"], ranks)
            case.judge(r, (0, 4))
        points.append(point)
    merged = case.path("merged.h5")
    r = case.runner.run([], program=[sys.executable, MERGE, "-o", merged, *points])
    if r.rc != 0:
        raise Failure("merge", f"merge_points.py exit {r.rc}: {r.err.strip()}")
    expect_same("merge", ref, merged, "the merged one-point sweeps")


def check_walk(case, ref):
    """The skewed walk (blocks in lagging layers, rank_model.hpp) on a small network: the
    level walk's file; when the plan says so, stopped halfway and restarted (the checkpoint
    of a skewed walk) on another rank count with another skew."""
    walk = walk_plan(case.plan, case.cfg)
    if walk is None:
        return
    block, skew, k = walk
    options = ["--walk-block-routers", str(block), "--walk-skew", str(skew)]
    out = case.path("walk.h5")
    total = max(cycles_of(ref))
    if not case.plan["walk_stop"] or total < 2:
        case.run(out, k, options)
        expect_same("walk", ref, out, f"the skewed walk (blocks of {block}, skew {skew}) on "
                    f"{k} rank{'s' if k > 1 else ''}")
        return
    ck = case.path("walk.ck")
    shutil.rmtree(ck, ignore_errors=True)
    r = case.run(out, k, [*options, "--stop-at-cycle", str(max(1, total // 2)),
                          "--checkpoint-dir", ck], expect=(0, 4, 5))
    if r.rc == 5:  # continued on the other rank count (1 or 2), with another skew
        case.run(out, 2 if k == 1 else 1, ["--walk-block-routers", str(block), "--walk-skew",
                                           str(1 + skew % 8), "--restart", ck,
                                           "--checkpoint-dir", ck])
    expect_same("walk", ref, out, f"the skewed walk (blocks of {block}, skew {skew}) on {k} "
                f"rank{'s' if k > 1 else ''}, stopped at cycle {max(1, total // 2)} and "
                f"restarted")


def check_topology(case, ref):
    """A honeycomb torus's /topology against its published definition (honeycomb_tori.py)."""
    if not space.honeycomb_torus(case.cfg):
        return
    with h5py.File(ref, "r") as f:
        problems = honeycomb_tori.check_file(case.cfg["topology"], f["topology"])
    if problems:
        raise Failure("topology", f"{case.cfg['topology']} is not the published network: " +
                      "; ".join(problems))


def hops(channels):
    """(from, to) routers of each reported wait: 'A DIR -> B' or 'injection at A'."""
    out = []
    for c in channels:
        c = c.decode() if isinstance(c, bytes) else c
        if c.startswith("injection at "):
            out.append((None, c[len("injection at "):]))
        else:
            left, to = c.split(" -> ")
            out.append((left.rsplit(" ", 1)[0], to))
    return out


def check_verdict(case, ref, verdicts):
    with h5py.File(ref, "r") as f:
        reports = [(name, f[f"points/{name}/deadlock"]) for name in f["points"]
                   if "deadlock" in f[f"points/{name}"]]
        reports = [(n, list(g.attrs["channels"])) for n, g in reports]
    if not reports:
        return
    key = (case.cfg["topology"], case.cfg["routing"], space.bubble(case.cfg),
           case.cfg.get("_table_algorithm"))
    if key not in verdicts:
        args = ["-t", case.cfg["topology"], "-r", case.cfg["routing"]]
        if case.cfg.get("flow-control") == "bubble":
            args += ["--flow-control", "bubble"]
        if case.table_file:
            args += ["--tables", case.table_file]
        r = case.runner.verify(args)
        if r.rc not in (0, 1):
            raise Failure("verdict", f"wormnet verify exit {r.rc}: {r.err.strip()}")
        verdicts[key] = r.rc
    for name, channels in reports:
        if verdicts[key] == 0:
            raise Failure("verdict", f"point {name}: a deadlock reported for a routing the "
                          f"verifier proves deadlock-free")
        h = hops(channels)
        if not h:
            raise Failure("verdict", f"point {name}: a deadlock reported with no cycle")
        for i, (_, to) in enumerate(h):
            nxt_from, nxt_to = h[(i + 1) % len(h)]
            # A VC waits for a VC downstream (the next hop leaves this router) or for the
            # owner of an output VC in the same router (same router reached).
            if nxt_from != to and nxt_to != to:
                raise Failure("verdict", f"point {name}: the reported cycle is broken between "
                              f"'{channels[i]}' and '{channels[(i + 1) % len(h)]}'")


def check_versus(case, ref):
    """With --versus B: binary B on one rank writes the same file as the binary under test
    (the git revision aside), e.g. before and after a refactoring that must change nothing;
    where the walk check runs, B also walks the same blocks on one rank (the blocked walk
    and its cache hints: two builds that differ there, such as one without hints, run it)."""
    if not case.versus:
        return
    versus_run(case, ref, "versus.h5", [])
    walk = walk_plan(case.plan, case.cfg)
    if walk is not None:
        block, skew, _ = walk
        versus_run(case, ref, "versus_walk.h5",
                   ["--walk-block-routers", str(block), "--walk-skew", str(skew)])


def versus_run(case, ref, name, extra):
    """Binary B's run with `extra` options writes ref's file."""
    out = case.path(name)
    r = case.runner.run(case.args(out, extra), program=[case.versus, *case.args(out, extra)])
    case.judge(r, (0, 4))
    # "inputs" (the digests of the table or trace both binaries read) is left out too: it
    # describes the same files in both, and a binary before issue 36 does not write it; so is
    # /routing/pattern (a traffic pattern's own ideal), which a binary before issue 39 lacks.
    d = [x for x in differences(ref, out, RUN_ATTRS | {"git_sha", "inputs"})
         if "routing/pattern" not in x]
    if d:
        raise Failure("versus", f"{case.versus}{' ' + ' '.join(extra) if extra else ''} writes "
                      f"another file in {len(d)} objects: " + "; ".join(d[:8]) +
                      (" ..." if len(d) > 8 else ""))


def changed_trace(path):
    """Edits one message of the trace at `path`: its last message is one flit shorter (two
    flits long if it had one), a trace as valid as before with other contents."""
    with open(path) as f:
        lines = f.read().splitlines()
    rows = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    last = rows[-1]  # rows[0] is the header
    fields = lines[last].split(",")
    flits = int(fields[3])
    fields[3] = str(flits - 1 if flits > 1 else 2)
    lines[last] = ",".join(fields)
    with open(path + ".new", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".new", path)


def check_changed_input(case, ref):
    """A run that reads a routing table (--tables) or a trace (--trace), stopped, whose file
    then changes (another table kind for the same torus; one message of the trace edited): its
    restart is refused, exit 2, one line naming the option, the file and the change, and the
    checkpoint and the results file are left as they were (issue 36: it crashed, or ended
    with other results)."""
    base = case.args(None)[:-2]  # without "-o" and its (here empty) file
    inputs = [(o, base[i + 1]) for i, o in enumerate(base[:-1]) if o in ("--tables", "--trace")]
    total = max(cycles_of(ref))
    if not inputs or total < 2:
        return
    option, original = inputs[0]
    copy = case.path("changed_input_file" + os.path.splitext(original)[1])
    shutil.copyfile(original, copy)
    args = [copy if i > 0 and base[i - 1] == option else a for i, a in enumerate(base)]
    ck, out = case.path("changed_input.ck"), case.path("changed_input.h5")
    shutil.rmtree(ck, ignore_errors=True)
    ranks = case.plan["restart_ranks"]
    r = case.runner.run([*args, "-o", out, "--stop-at-cycle", str(max(1, total // 2)),
                         "--checkpoint-dir", ck], ranks[0])
    case.judge(r, (0, 4, 5))
    if r.rc != 5:
        return  # finished before the stop: nothing to restart
    if option == "--tables":
        others = [a for a in space.TABLE_ALGORITHMS if a != case.cfg["_table_algorithm"]]
        other = case.tables.get(case.cfg["topology"], others[case.seed % len(others)],
                                case.runner, space.fault_args(case.cfg))
        shutil.copyfile(other, copy + ".new")
        os.replace(copy + ".new", copy)
    else:
        changed_trace(copy)
    kept = {}
    for p in (out, os.path.join(ck, "checkpoint.h5")):
        with open(p, "rb") as f:
            kept[p] = f.read()
    r = case.runner.run([*args, "-o", out, "--restart", ck], ranks[1])
    if r.rc == "timeout":
        raise Failure("hang", f"no end within {case.runner.timeout} s: {r.line()}")
    said = [x for x in r.err.splitlines() if x.startswith("wormnet")]
    if r.rc != 2 or len(said) != 1 or not all(
            w in said[0] for w in (option, copy, "contents changed since the checkpoint")):
        raise Failure("changed-input", f"the restart after {option} {copy} changed ended with "
                      f"exit {r.rc} (expected 2 and one line naming {option}, the file and "
                      f"the change): {' | '.join(r.err.strip().splitlines()[-3:])[:600]}")
    for p, data in kept.items():
        with open(p, "rb") as f:
            if f.read() != data:
                raise Failure("changed-input", f"the refused restart changed {p}")


CHECKS = [("topology", check_topology), ("ranks", check_ranks), ("restart", check_restart),
          ("merge", check_merge), ("walk", check_walk), ("versus", check_versus),
          ("changed-input", check_changed_input)]


def run_case(case, verdicts, only=None):
    """Runs the checks of `case` (all of them, or only those named in `only`, a name or a set
    of names, after the reference run); raises Failure at the first broken promise."""
    case.prepare()
    ref = check_reference(case)
    with h5py.File(ref, "r") as f:
        case.outcome = str(f.attrs["status"])
        if case.outcome == "complete" and f["summary/saturated"][()].any():
            case.outcome = "saturated"
    only = {only} if isinstance(only, str) else set(only or ())
    every = not only & ({"verdict"} | {name for name, _ in CHECKS})
    if every or "verdict" in only:
        check_verdict(case, ref, verdicts)
    for name, check in CHECKS:
        if every or name in only:
            try:
                check(case, ref)
            except Skip as why:
                case.skipped.append(f"{name}: {why}")


class TableCache:
    """Routing tables made by `wormnet tables`, one per topology and algorithm."""

    def __init__(self, directory):
        self.dir = directory
        self.lock = threading.Lock()

    def get(self, topology, algorithm, runner, faults=()):
        """`faults`: the fault options of a table made around them (space.fault_args)."""
        tag = "_".join(a.lstrip("-") for a in faults)
        path = os.path.join(self.dir, f"{topology.replace(':', '_')}_{algorithm}"
                                      f"{'_' + tag if tag else ''}.h5")
        with self.lock:
            if not os.path.exists(path):
                os.makedirs(self.dir, exist_ok=True)
                r = runner.run(["tables", "-t", topology, "-a", algorithm, *faults, "-q", "-o",
                                path])
                if r.rc != 0:
                    raise Failure("tables", f"wormnet tables exit {r.rc}: {r.err.strip()}")
        return path


# --- shrinking and reporting ----------------------------------------------------------------

def fit_plan(plan, cfg):
    """The plan with every rank count cut to the network's node count (a shrunk topology may
    have fewer nodes than the ranks drawn for the original one)."""
    most = max(1, min(MAX_RANKS, space.nodes(cfg)))
    return dict(plan, ranks=min(plan["ranks"], most),
                restart_ranks=[min(k, most) for k in plan["restart_ranks"]],
                point_ranks=[min(k, most) for k in plan["point_ranks"]])


def plan_simplifications(plan):
    out = []
    if plan["ranks"] > 2:
        out.append(("2 ranks", dict(plan, ranks=2)))
    if plan["checkpoint_every"]:
        out.append(("no periodic checkpoints", dict(plan, checkpoint_every=None)))
    if plan["stops"] > 1:
        out.append(("one stop", dict(plan, stops=1)))
    if plan["restart_alone"]:
        out.append(("restart with the options", dict(plan, restart_alone=False)))
    for i, k in enumerate(plan["restart_ranks"]):
        if k > 2:
            rr = list(plan["restart_ranks"])
            rr[i] = 2
            out.append((f"restart {i} on 2 ranks", dict(plan, restart_ranks=rr)))
    if plan["point_stop"]:
        out.append(("points not stopped", dict(plan, point_stop=False)))
    return out


def shrink(seed, cfg, plan, failure, args, budget_seconds):
    """Greedy: the first simpler configuration or plan that still fails the same check
    replaces the current one, until none does (or the time budget is spent)."""
    deadline = time.time() + budget_seconds
    tables = TableCache(os.path.join(args.out, "tables"))
    steps = []
    last_runner = None
    improved = True
    while improved and time.time() < deadline:
        improved = False
        options = [(w, c, fit_plan(plan, c)) for w, c in space.simplifications(cfg)]
        options += [(w, cfg, p) for w, p in plan_simplifications(plan)]
        for what, c, p in options:
            if time.time() >= deadline:
                break
            work = os.path.join(args.out, f"shrink_{seed}")
            shutil.rmtree(work, ignore_errors=True)
            runner = Runner(args.wormnet, args.mpiexec, args.timeout)
            case = Case(seed, c, p, work, runner, tables)
            case.versus = args.versus
            try:
                run_case(case, {}, only=failure.check)
            except Failure as f:
                if f.check == failure.check:
                    cfg, plan, failure = c, p, f
                    steps.append(what)
                    last_runner = runner
                    improved = True
                    break
            except Exception:  # noqa: BLE001 (an unreadable file is no reproduction)
                pass
    return cfg, plan, failure, steps, last_runner


def report(seed, cfg, failure, runner, shrunk, args):
    lines = [f"FAILED seed {seed}: {failure}",
             f"  configuration: {space.describe(cfg)}"]
    lines.append("  commands (in order):")
    lines += [f"    {r.line()}    # exit {r.rc}" for r in runner.log]
    if shrunk:
        scfg, _, sfailure, steps, srunner = shrunk
        lines.append(f"  shrunk ({', '.join(steps) if steps else 'nothing simpler fails'}): "
                     f"{sfailure}")
        lines.append(f"  small configuration: {space.describe(scfg)}")
        if srunner:
            lines += [f"    {r.line()}    # exit {r.rc}" for r in srunner.log]
    versus = f" --versus {args.versus}" if args.versus else ""
    lines.append(f"  reproduce: {sys.argv[0]} --wormnet {args.wormnet}{versus} --out DIR --seeds {seed}")
    text = "\n".join(lines)
    os.makedirs(os.path.join(args.out, "failures"), exist_ok=True)
    with open(os.path.join(args.out, "failures", f"{seed}.txt"), "w") as f:
        f.write(text + "\n")
    return text


def one(seed, args, tables, verdicts):
    """Draws and checks the configuration of `seed`: (seed, None | report text, seconds,
    facts about what ran)."""
    start = time.time()
    cfg = space.draw(seed)
    plan = plan_for(seed, cfg)
    work = os.path.join(args.out, f"seed_{seed}")
    shutil.rmtree(work, ignore_errors=True)
    runner = Runner(args.wormnet, args.mpiexec, args.timeout)
    case = Case(seed, cfg, plan, work, runner, tables)
    case.versus = args.versus
    try:
        run_case(case, verdicts, args.only)
    except Failure as failure:
        shrunk = None
        if args.shrink_seconds > 0:
            shrunk = shrink(seed, cfg, plan, failure, args, args.shrink_seconds)
        return seed, report(seed, cfg, failure, runner, shrunk, args), time.time() - start, None
    except Exception as e:  # noqa: BLE001 (a harness error is reported like a failure)
        return seed, report(seed, cfg, Failure("harness", repr(e)), runner, None, args), \
            time.time() - start, None
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    ranks = sorted({int(r.cmd[2]) if r.cmd[0] == args.mpiexec else 1 for r in runner.log
                    if r.cmd[0] in (args.mpiexec, args.wormnet)})
    facts = {"command": cfg["_command"], "kind": space.topology_kind(cfg),
             "routing": cfg["routing"], "outcome": case.outcome, "ranks": ranks,
             "workload": cfg.get("workload", "none"),
             "walk": any("--walk-block-routers" in r.cmd for r in runner.log),
             "runs": len(runner.log), "skipped": case.skipped,
             "restarted": any("--restart" in r.cmd for r in runner.log)}
    return seed, None, time.time() - start, facts


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            seeds += range(int(a), int(b) + 1)
        elif part:
            seeds.append(int(part))
    return seeds


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--wormnet", help="the wormnet binary under test")
    p.add_argument("--mpiexec", default=shutil.which("mpiexec") or "mpiexec")
    p.add_argument("--versus", metavar="BIN",
                   help="a second wormnet binary whose 1-rank files must equal the first's")
    p.add_argument("--out", default="differential.out", help="working directory")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--seeds", help="seeds to check: 1,5,9 or 1-40")
    g.add_argument("--ci", action="store_true", help="the CI seeds (CI_SEEDS)")
    g.add_argument("--golden", action="store_true",
                   help="the golden set (golden.GOLDEN_SEEDS; needs --versus OLD)")
    g.add_argument("--golden-coverage", action="store_true",
                   help="print what the golden seeds cover and what they miss")
    g.add_argument("--pick-golden", type=int, metavar="N",
                   help="pick golden seeds among 1..N that cover golden.REQUIRED")
    g.add_argument("--soak", type=int, metavar="N", help="N fresh configurations")
    g.add_argument("--show", type=int, metavar="SEED", help="print the configuration of SEED")
    p.add_argument("--base-seed", type=int, help="first seed of a soak (default: from the clock)")
    p.add_argument("--jobs", type=int, default=1, help="configurations checked at once")
    p.add_argument("--timeout", type=float, default=300, help="seconds per wormnet command")
    p.add_argument("--shrink-seconds", type=float, default=600,
                   help="time allowed to shrink a failing configuration (0: do not shrink)")
    p.add_argument("--keep", action="store_true", help="keep the files of passing seeds")
    p.add_argument("--only", type=lambda x: set(x.split(",")), metavar="CHECK,...",
                   help="only these checks after the reference run (their names in CHECKS, "
                        "or verdict); every check by default")
    args = p.parse_args()

    if args.show is not None:
        cfg = space.draw(args.show)
        print(space.describe(cfg))
        print(plan_for(args.show, cfg))
        return 0
    if args.golden_coverage or args.pick_golden:
        return golden_report(args)
    if not args.wormnet:
        p.error("--wormnet is required")
    args.wormnet = os.path.abspath(args.wormnet)
    if args.versus:
        args.versus = os.path.abspath(args.versus)
    if args.ci:
        seeds = CI_SEEDS
    elif args.golden:
        if not args.versus:
            p.error("--golden compares with a second binary: give --versus OLD")
        _, missing = golden.coverage(golden.GOLDEN_SEEDS, plan_for, walk_plan)
        if missing:
            print(f"the golden seeds no longer cover: {', '.join(sorted(missing))} (the option "
                  f"space changed?); re-pick them with --pick-golden", file=sys.stderr)
            return 2
        seeds = golden.GOLDEN_SEEDS
    elif args.soak:
        base = args.base_seed if args.base_seed is not None else int(time.time()) % 1_000_000 * 1000
        seeds = list(range(base, base + args.soak))
        print(f"soak: {args.soak} configurations, seeds {seeds[0]}-{seeds[-1]}", flush=True)
    elif args.seeds:
        seeds = parse_seeds(args.seeds)
    else:
        p.error("give --seeds, --ci, --soak or --show")
    os.makedirs(args.out, exist_ok=True)
    shutil.rmtree(os.path.join(args.out, "tables"), ignore_errors=True)  # made by this binary
    shutil.rmtree(os.path.join(args.out, "failures"), ignore_errors=True)
    tables = TableCache(os.path.join(args.out, "tables"))
    verdicts = {}
    failures = []
    passed = []
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(one, s, args, tables, verdicts) for s in seeds]
        for fut in concurrent.futures.as_completed(futures):
            seed, failure, seconds, facts = fut.result()
            if failure:
                failures.append(seed)
                print(failure, flush=True)
            else:
                passed.append(facts)
                cfg = space.draw(seed)
                print(f"ok   seed {seed} ({seconds:.1f} s, {facts['outcome']}, ranks "
                      f"{','.join(map(str, facts['ranks']))}) {cfg['_command']} "
                      f"{cfg['topology']} {cfg['routing']}"
                      f"{'  skipped ' + '; '.join(facts['skipped']) if facts['skipped'] else ''}",
                      flush=True)
    print(summary(passed), flush=True)
    lost = golden.OUTCOMES - {p["outcome"] for p in passed} if args.golden else set()
    if lost:
        failures.append("outcomes")
        print(f"golden set: no reference run ended {' or '.join(sorted(lost))} (the option "
              f"space or the model changed?); re-pick the seeds", flush=True)
    print(f"{len(seeds)} configurations, {len(failures)} failed"
          f"{' (' + ','.join(map(str, failures)) + ')' if failures else ''}, "
          f"{time.time() - start:.0f} s", flush=True)
    return 1 if failures else 0


def golden_report(args):
    """--golden-coverage and --pick-golden: the golden set's coverage (no wormnet runs)."""
    if args.pick_golden:
        seeds, missing = golden.pick(args.pick_golden, plan_for, keep=golden.DEADLOCK_SEEDS,
                                      walk_plan=walk_plan)
        print(f"GOLDEN_SEEDS = {sorted(seeds)}")
    else:
        seeds = golden.GOLDEN_SEEDS
        _, missing = golden.coverage(seeds, plan_for, walk_plan)
    for s in sorted(seeds):
        cfg = space.draw(s)
        f = sorted(golden.features(cfg, plan_for(s, cfg), walk_plan) & golden.REQUIRED)
        print(f"  {s}: {'; '.join(f)}")
    print(f"{len(seeds)} seeds; not covered: {', '.join(sorted(missing)) or 'nothing'}")
    return 1 if missing else 0


def summary(passed):
    """What the passing configurations covered."""
    if not passed:
        return "nothing passed"
    count = lambda key: ", ".join(f"{k} {v}" for k, v in sorted(  # noqa: E731
        collections.Counter(p[key] for p in passed).items()))
    ranks = collections.Counter(k for p in passed for k in p["ranks"])
    return "\n".join([
        f"covered: {len(passed)} configurations passed, {sum(p['runs'] for p in passed)} "
        f"wormnet commands",
        f"  commands: {count('command')}",
        f"  topologies: {count('kind')}",
        f"  routings: {count('routing')}",
        f"  workloads: {count('workload')}",
        f"  outcomes: {count('outcome')}",
        f"  rank counts used: {', '.join(f'{k} ({v})' for k, v in sorted(ranks.items()))}",
        f"  restarted: {sum(p['restarted'] for p in passed)}; skewed walk: "
        f"{sum(p['walk'] for p in passed)}; checks skipped: "
        f"{sum(bool(p['skipped']) for p in passed)}"])


if __name__ == "__main__":
    sys.exit(main())
