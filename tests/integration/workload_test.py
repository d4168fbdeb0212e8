#!/usr/bin/env python3
"""Closed-loop workloads (docs/workloads.md) from the command line, checked against facts
worked out independently of the simulator: completion times of idle-network exchanges from
hop counts, router pipeline delays and serialization; message counts of each motif from its
definition; the dependency order of every message; a replayed trace equal to its motif (the
shipped one too); a checkpoint restart on another rank count equal to an uninterrupted run.

usage: workload_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR [unittest arguments]
"""
import math
import os
import resource
import signal
import subprocess
import sys
import unittest

import h5py
import numpy as np

WORMNET = MPIEXEC = OUT = None
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
NEVER = 2**64 - 1  # a message's time in /workload/messages when it did not happen


def run(name, *args, ranks=1, code=0):
    """Runs `wormnet run ARGS -o OUT/name.h5` on `ranks` ranks; returns the file's path."""
    path = os.path.join(OUT, name + ".h5")
    if os.path.exists(path):
        os.remove(path)
    cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET] if ranks > 1 else [WORMNET]
    r = subprocess.run([*cmd, "run", *args, "-q", "-o", path], env=ENV, capture_output=True,
                       text=True, timeout=300, check=False)
    if r.returncode != code:
        raise AssertionError(f"exit {r.returncode}: {r.stdout}\n{r.stderr}")
    return path


def workload(path):
    with h5py.File(path, "r") as f:
        w = f["workload"]
        out = {k: v for k, v in w.attrs.items()}
        for g in ("messages", "iterations"):
            for k, v in w[g].items():
                out[g + "/" + k] = v[()]
        return out


def point(path):
    """Point 0's channel counts and summary row."""
    with h5py.File(path, "r") as f:
        g = f["points/000"]
        out = {"channel_flits": g["channel_flits"][()],
               "window_cycles": int(g.attrs["window_cycles"])}
        for k in f["summary"]:
            out[k] = f["summary"][k][0]
        return out


def read_trace(path):
    """(source, destination, flits, after, iteration, deps) per message, by the format's
    definition (not the simulator's reader)."""
    rows = []
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    assert lines[0] == "id,source,destination,flits,after,iteration,depends"
    for k, line in enumerate(lines[1:]):
        i, s, d, fl, after, it, deps = line.split(",")
        assert int(i) == k
        rows.append((int(s), int(d), int(fl), int(after), int(it),
                     [int(x) for x in deps.split()]))
    return rows


def zero_load(hops, flits, rc=1, va=1, sa=1, st=1, link=1):
    """One message alone: every router on the path (hops + 1) costs routing, VC allocation,
    switch allocation and switch cycles, every link `link` cycles, and the body follows the
    head a flit per cycle (buffers deep enough not to throttle)."""
    return (hops + 1) * (rc + va + sa + st) + hops * link + flits - 1


class IdleNetwork(unittest.TestCase):
    def test_halo_on_two_nodes_by_hand(self):
        # halo2d on mesh:2 with a 2x1 process grid: each process sends one 16-flit message to
        # the other per iteration, and its next one only when the other's has arrived. The
        # two directions share no channel, port or buffer, so each message takes the
        # zero-load time T over 1 hop and the next is issued the cycle it is delivered:
        # iteration k ends at (k + 1) T. Default pipeline: T = 2 x 4 + 1 + 15 = 24 cycles;
        # with --routing-delay 2 --link-latency 3: T = 2 x 5 + 3 + 15 = 28 cycles.
        for extra, t in (([], zero_load(1, 16)),
                         (["--routing-delay", "2", "--link-latency", "3", "--credit-latency",
                           "3"], zero_load(1, 16, rc=2, link=3))):
            with self.subTest(extra=extra):
                self.assertIn(t, (24, 28))
                path = run("halo_two_nodes", "-t", "mesh:2", "-r", "xy", "--buffer", "64",
                           "--workload", "halo2d", "--grid", "2x1", "--iterations", "5",
                           "--message-size", "16", *extra)
                w = workload(path)
                self.assertEqual(w["completion_cycles"], 5 * t)
                self.assertEqual(list(w["iterations/cycles"]), [t] * 5)
                self.assertEqual(list(w["iterations/end"]), [t * (k + 1) for k in range(5)])
                self.assertEqual(w["messages"], 10)
                # The critical path is the whole chain of one direction: 5 messages, all of
                # their time in the network, none waiting or queued.
                self.assertEqual(w["path_network_cycles"], 5 * t)
                self.assertEqual(w["path_queueing_cycles"] + w["path_wait_cycles"], 0)
                # The point's figures describe the whole workload (docs/workloads.md): each of
                # the two channels carries 5 messages of 16 flits in the 5 T cycles, every
                # message is labelled, and 2 x 80 flits enter and leave 2 nodes in 5 T cycles.
                p = point(path)
                self.assertEqual(list(p["channel_flits"]), [80, 80])
                self.assertEqual(p["window_cycles"], 5 * t)  # utilization: flits / window
                self.assertEqual(p["labelled"], 10)
                self.assertEqual(p["delivered"], 10)
                self.assertAlmostEqual(p["accepted"], 160 / (2 * 5 * t))
                self.assertAlmostEqual(p["offered_measured"], 160 / (2 * 5 * t))

    def test_ping_pong_trace_across_a_mesh(self):
        # Node 0 = (0,0) and node 15 = (3,3) of mesh:4x4 are 6 hops apart; four 8-flit
        # messages go back and forth, each waiting for the previous one's delivery, and the
        # first waits until cycle 10: completion = 10 + 4 T with T = 7 x 4 + 6 + 7 = 41.
        trace = os.path.join(OUT, "ping_pong.csv")
        with open(trace, "w") as f:
            f.write("# ping-pong\nid,source,destination,flits,after,iteration,depends\n"
                    "0,0,15,8,10,0,\n1,15,0,8,0,0,0\n2,0,15,8,0,1,1\n3,15,0,8,0,1,2\n")
        t = zero_load(6, 8)
        self.assertEqual(t, 41)
        w = workload(run("ping_pong", "-t", "mesh:4x4", "-r", "xy", "--buffer", "64",
                         "--workload", "trace", "--trace", trace))
        self.assertEqual(w["completion_cycles"], 10 + 4 * t)
        self.assertEqual(list(w["messages/issued"]), [10, 10 + t, 10 + 2 * t, 10 + 3 * t])
        self.assertEqual(w["path_wait_cycles"], 10)
        self.assertEqual(list(w["iterations/end"]), [10 + 2 * t, 10 + 4 * t])


class Motifs(unittest.TestCase):
    def check_order(self, w, rows):
        issued, injected, delivered = (w["messages/" + k] for k in ("issued", "injected",
                                                                   "delivered"))
        for m, (s, d, fl, after, it, deps) in enumerate(rows):
            self.assertLessEqual(issued[m], injected[m])
            # The tail is delivered at least hops + flits - 1 cycles after the head enters.
            self.assertGreaterEqual(delivered[m], injected[m] + fl)
            self.assertGreaterEqual(issued[m], after)
            for p in deps:
                if rows[p][1] == s:  # received by the source: waits for its delivery
                    self.assertGreaterEqual(issued[m], delivered[p])
                else:  # an earlier send of the same source: waits for its issue
                    self.assertEqual(rows[p][0], s)
                    self.assertGreaterEqual(issued[m], issued[p])

    def test_counts_and_dependency_order(self):
        # Message counts from each motif's definition (per iteration): halo on an A x B grid
        # 2(2AB - A - B); halo3d on 2x2x2: 8 processes x 3 neighbours; sweep2d on A x B:
        # (A-1)B + A(B-1); ring allreduce 2(P-1)P; recursive doubling on P = 24 (P2 = 16,
        # R = 8): 16 x 4 + 2 x 8; all-to-all P(P-1).
        cases = [
            ("halo2d", "torus:4x3", ["--grid", "4x3"], 2 * (2 * 12 - 4 - 3)),
            ("halo3d", "mesh:2x2x2", ["--mapping", "random"], 8 * 3),
            ("sweep2d", "mesh:3x4", ["--grid", "3x4", "--mapping", "topology"], 2 * 4 + 3 * 3),
            ("allreduce-ring", "honeycomb:2", [], 2 * 23 * 24),
            ("allreduce-rd", "honeycomb:2", ["--mapping", "topology"], 16 * 4 + 2 * 8),
            ("alltoall", "torus:3x3", [], 9 * 8),
        ]
        for motif, topo, extra, per_iteration in cases:
            with self.subTest(motif=motif):
                trace = os.path.join(OUT, motif + ".csv")
                routing = "double-xy" if topo.startswith("honeycomb") else (
                    "dor-dateline" if topo.startswith("torus") else "xy")
                w = workload(run(motif, "-t", topo, "-r", routing, "--workload", motif,
                                 "--iterations", "2", "--message-size", "4",
                                 "--write-trace", trace, *extra))
                rows = read_trace(trace)
                self.assertEqual(len(rows), 2 * per_iteration)
                self.assertEqual(w["messages"], 2 * per_iteration)
                self.assertEqual(w["complete"], 1)
                self.assertEqual(w["completion_cycles"], max(w["messages/delivered"]))
                self.assertEqual(list(w["iterations/messages"]), [per_iteration] * 2)
                self.check_order(w, rows)
                self.assertEqual(w["path_wait_cycles"] + w["path_queueing_cycles"] +
                                 w["path_network_cycles"], w["completion_cycles"])

    def test_recursive_doubling_partners(self):
        # On 8 processes (a power of two) with the linear mapping, step k pairs p with
        # p xor 2^k: the 24 messages of an iteration are exactly those pairs.
        trace = os.path.join(OUT, "rd8.csv")
        run("rd8", "-t", "mesh:4x2", "-r", "xy", "--workload", "allreduce-rd",
            "--write-trace", trace)
        pairs = sorted((s, d) for s, d, *_ in read_trace(trace))
        self.assertEqual(pairs, sorted((p, p ^ (1 << k)) for k in range(3) for p in range(8)))

    def test_topology_mapping_puts_grid_neighbours_next_to_each_other(self):
        # A 6x4 grid on torus:6x4: every halo message travels one hop (the mapping lands the
        # grid on the torus one to one); the random mapping does not.
        for mapping, one_hop in (("topology", True), ("random", False)):
            trace = os.path.join(OUT, "map.csv")
            path = run("map_" + mapping, "-t", "torus:6x4", "-r", "dor-dateline", "--workload",
                       "halo2d", "--grid", "6x4", "--mapping", mapping, "--write-trace", trace)
            with h5py.File(path, "r") as f:
                coords = f["topology/coords"][()]
            def hops(a, b):
                return sum(min(abs(x - y), n - abs(x - y))
                           for x, y, n in zip(coords[a], coords[b], (6, 4)))
            dist = [hops(s, d) for s, d, *_ in read_trace(trace)]
            self.assertEqual(all(h == 1 for h in dist), one_hop, mapping)


class Replay(unittest.TestCase):
    def test_replayed_trace_equals_its_motif(self):
        trace = os.path.join(OUT, "replay.csv")
        motif = workload(run("replay_motif", "-t", "torus:4x4", "-r", "dor-dateline",
                             "--workload", "halo2d", "--iterations", "3", "--message-size",
                             "8", "--write-trace", trace))
        replay = workload(run("replay_trace", "-t", "torus:4x4", "-r", "dor-dateline",
                              "--workload", "trace", "--trace", trace))
        shipped = workload(run("replay_shipped", "-t", "torus:4x4", "-r", "dor-dateline",
                               "--workload", "trace", "--trace",
                               os.path.join(SOURCE, "runs/workloads/halo2d_torus4x4.csv")))
        with open(trace) as a, open(os.path.join(SOURCE, "runs/workloads/halo2d_torus4x4.csv")) as b:
            self.assertEqual(a.read(), b.read(), "the shipped trace is this motif's")
        for other in (replay, shipped):
            for key in ("completion_cycles", "messages/issued", "messages/injected",
                        "messages/delivered", "iterations/end", "path_network_cycles"):
                self.assertTrue(np.array_equal(motif[key], other[key]), key)

    def test_a_failed_trace_write_keeps_the_old_file(self):
        # --write-trace over an existing file, in a process that may not write files larger
        # than 4 MiB (MPI's start-up needs less; the trace of 3 all-to-alls on 256 nodes is
        # about 7 MiB): the write fails, the run ends with exit code 6 (an output failed),
        # and the old file is still whole, with no partial file left beside it.
        trace = os.path.join(OUT, "kept.csv")
        old = "# an earlier trace\n"
        with open(trace, "w") as f:
            f.write(old)

        def small_files():
            resource.setrlimit(resource.RLIMIT_FSIZE, (4 << 20, 4 << 20))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a signal

        r = subprocess.run([WORMNET, "run", "-t", "mesh:16x16", "-r", "xy", "--workload",
                            "alltoall", "--iterations", "3", "--message-size", "2",
                            "--write-trace", trace, "-q", "-o", os.path.join(OUT, "kept.h5")],
                           env=ENV, capture_output=True, text=True, timeout=120, check=False,
                           preexec_fn=small_files)
        self.assertEqual(r.returncode, 6, r.stdout + r.stderr)
        self.assertIn(trace, r.stderr)
        with open(trace) as f:
            self.assertEqual(f.read(), old)
        self.assertEqual([n for n in os.listdir(OUT) if n.startswith("kept.csv")], ["kept.csv"])

def alltoall_trace(path, nodes, big, small):
    """An all-to-all on `nodes` nodes as a trace: step k = 1..nodes-1, node p sends to
    p + k (mod nodes), each send after the node's previous one; `big` flits when source +
    destination is odd, else `small`. Message 0 (0 -> 1) is a big one."""
    rows, last = [], {}
    for k in range(1, nodes):
        for s in range(nodes):
            d = (s + k) % nodes
            rows.append((s, d, big if (s + d) % 2 else small,
                         str(last[s]) if s in last else ""))
            last[s] = len(rows) - 1
    with open(path, "w") as f:
        f.write("id,source,destination,flits,after,iteration,depends\n")
        for i, (s, d, fl, dep) in enumerate(rows):
            f.write(f"{i},{s},{d},{fl},0,0,{dep}\n")
    return len(rows)


class BubbleFlowControl(unittest.TestCase):
    """Bubble flow control in the rings (angara relies on it, dor takes --flow-control
    bubble) with a workload. A packet enters a ring only when the buffer ahead keeps room for
    the longest packet behind it (its reserve), so a ring never fills; every packet can enter
    only if a buffer holds two of the longest. Both come from the workload's messages
    (--message-size, or the trace's longest message), not from --length-max, which a
    workload refuses (it was: issue 36 case 3)."""

    def refused(self, name, args, *words):
        path = os.path.join(OUT, name + ".h5")
        if os.path.exists(path):
            os.remove(path)
        r = subprocess.run([WORMNET, "run", *args, "-q", "-o", path], env=ENV,
                           capture_output=True, text=True, timeout=120, check=False)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)
        self.assertFalse(os.path.exists(path))
        self.assertFalse(os.path.exists(path + ".partial"))

    def complete(self, name, args, messages):
        w = workload(run(name, *args))
        self.assertEqual(w["complete"], 1)
        self.assertEqual(w["messages"], messages)
        self.assertTrue(all(d < NEVER for d in w["messages/delivered"]))

    def test_a_buffer_below_two_of_the_longest_messages_is_refused(self):
        # The two commands of issue 36 case 3: messages of 40 flits need buffers of 2 x 40 =
        # 80 (the first deadlocked, exit 4, under a routing `verify` proves deadlock-free),
        # messages of 32 flits 2 x 32 = 64 (the second delivered nothing and said exit 0).
        self.refused("bubble_angara_64", ["-t", "torus:4x4", "-r", "angara", "--buffer", "64",
                                          "--workload", "alltoall", "--iterations", "3",
                                          "--message-size", "40"],
                     "--buffer", "64", "--message-size", "40 flits", ">= 80")
        self.refused("bubble_dor_40", ["-t", "torus:4x4", "-r", "dor", "--flow-control",
                                       "bubble", "--buffer", "40", "--workload", "halo2d",
                                       "--message-size", "32"],
                     "--buffer", "40", "--message-size", "32 flits", ">= 64")

    def test_a_buffer_of_two_of_the_longest_messages_delivers_everything(self):
        # The same workloads with the buffers the rule asks for: all-to-all, P(P-1) = 240
        # messages per iteration; halo2d on the 4x4 grid, 2(2 x 16 - 4 - 4) = 48.
        self.complete("bubble_angara_80", ["-t", "torus:4x4", "-r", "angara", "--buffer", "80",
                                           "--workload", "alltoall", "--iterations", "3",
                                           "--message-size", "40"], 3 * 240)
        self.complete("bubble_dor_64", ["-t", "torus:4x4", "-r", "dor", "--flow-control",
                                        "bubble", "--buffer", "64", "--workload", "halo2d",
                                        "--message-size", "32"], 48)

    def test_a_trace_longer_than_the_default_length_max(self):
        # Messages of 40 and 20 flits (the longest above --length-max's default of 20): with
        # buffers of 80 = 2 x 40 every packet may enter a ring, and a reserve of 40 flits
        # behind it keeps the rings moving. With the reserve of 20 taken from --length-max
        # both routings deadlocked here (a 20-flit packet took the room a 40-flit one needed).
        trace = os.path.join(OUT, "mixed.csv")
        messages = alltoall_trace(trace, 16, 40, 20)
        for routing in (["angara"], ["dor", "--flow-control", "bubble"]):
            with self.subTest(routing=routing[0]):
                self.complete("bubble_trace_" + routing[0],
                              ["-t", "torus:4x4", "-r", *routing, "--buffer", "80",
                               "--workload", "trace", "--trace", trace], messages)
                self.refused("bubble_trace_small_" + routing[0],
                             ["-t", "torus:4x4", "-r", *routing, "--buffer", "79",
                              "--workload", "trace", "--trace", trace],
                             "--buffer", "79", "message 0 of --trace " + trace, "40 flits",
                             ">= 80")

    def test_short_messages_need_buffers_of_two_of_them_only(self):
        # 4-flit messages need 8-flit buffers, not 2 x --length-max = 40 (refused before).
        self.complete("bubble_short", ["-t", "torus:4x4", "-r", "angara", "--buffer", "8",
                                       "--workload", "halo2d", "--message-size", "4"], 48)
        trace = os.path.join(OUT, "short.csv")
        messages = alltoall_trace(trace, 16, 4, 2)
        self.complete("bubble_short_trace", ["-t", "torus:4x4", "-r", "dor", "--flow-control",
                                             "bubble", "--buffer", "8", "--workload", "trace",
                                             "--trace", trace], messages)


class Unfinished(unittest.TestCase):
    """A workload that the drain limit ends before every message is delivered is a result of
    its own: status "incomplete" and exit code 7 (it was "complete" and 0: issue 36 case 5),
    so that scripts do not take it for a finished workload."""

    def status(self, path):
        r = subprocess.run([WORMNET, "status", path], env=ENV, capture_output=True, text=True,
                           timeout=60, check=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.strip()

    def test_a_message_after_the_drain_limit(self):
        # Message 1 may not be issued before cycle 500; the run may last 300 cycles.
        trace = os.path.join(OUT, "late.csv")
        with open(trace, "w") as f:
            f.write("id,source,destination,flits,after,iteration,depends\n"
                    "0,0,1,4,0,0,\n1,1,0,4,500,0,0\n")
        path = run("late", "-t", "mesh:4x4", "-r", "xy", "--workload", "trace", "--trace",
                   trace, "--drain-limit", "300", code=7)
        self.assertFalse(os.path.exists(path + ".partial"))
        self.assertEqual(self.status(path), "incomplete")
        with h5py.File(path, "r") as f:
            self.assertEqual(f.attrs["status"], "incomplete")
            self.assertEqual(f["summary/saturated"][0], 1)
            self.assertEqual(f["summary/deadlock"][0], 0)
        w = workload(path)
        self.assertEqual(w["complete"], 0)
        # Message 0 alone, 1 hop: delivered at zero_load(1, 4) = 2 x 4 + 1 + 3 = 12; message 1
        # never issued.
        self.assertEqual(list(w["messages/delivered"]), [12, NEVER])
        self.assertEqual(list(w["messages/issued"]), [0, NEVER])

    def test_a_stop_for_a_checkpoint_is_not_unfinished(self):
        # --stop-at-cycle stops the same workload before the drain limit: "interrupted",
        # exit 5, which a restart continues (here to the drain limit: incomplete, 7).
        trace = os.path.join(OUT, "late2.csv")
        with open(trace, "w") as f:
            f.write("id,source,destination,flits,after,iteration,depends\n"
                    "0,0,1,4,0,0,\n1,1,0,4,500,0,0\n")
        ck = os.path.join(OUT, "late_ck")
        if os.path.exists(ck):
            import shutil
            shutil.rmtree(ck)
        common = ["-t", "mesh:4x4", "-r", "xy", "--workload", "trace", "--trace", trace,
                  "--drain-limit", "300"]
        path = run("late2", *common, "--stop-at-cycle", "100", "--checkpoint-dir", ck, code=5)
        self.assertEqual(self.status(path), "interrupted")
        r = subprocess.run([WORMNET, "run", *common, "-q", "-o", path, "--restart", ck],
                           env=ENV, capture_output=True, text=True, timeout=120, check=False)
        self.assertEqual(r.returncode, 7, r.stderr)
        self.assertEqual(self.status(path), "incomplete")
        # A finished run, like a complete one: its file is not reopened by another restart.
        r = subprocess.run([WORMNET, "run", *common, "-q", "-o", path, "--restart", ck],
                           env=ENV, capture_output=True, text=True, timeout=120, check=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("status incomplete", r.stderr)
        self.assertEqual(self.status(path), "incomplete")


class Restart(unittest.TestCase):
    def test_stop_and_restart_on_another_rank_count(self):
        common = ["-t", "honeycomb:3", "-r", "double-xy", "--workload", "allreduce-ring",
                  "--iterations", "2", "--message-size", "6", "--stats-window", "200"]
        whole = workload(run("restart_whole", *common))
        ck = os.path.join(OUT, "ck")
        if os.path.exists(ck):
            import shutil
            shutil.rmtree(ck)
        stop_at = str(int(whole["completion_cycles"]) // 2)
        run("restart_part", *common, "--stop-at-cycle", stop_at, "--checkpoint-dir", ck, ranks=2,
            code=5)
        path = os.path.join(OUT, "restart_part.h5")
        r = subprocess.run([WORMNET, "run", *common, "-q", "-o", path, "--restart", ck],
                           env=ENV, capture_output=True, text=True, timeout=300, check=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        resumed = workload(path)
        for key in whole:
            self.assertTrue(np.array_equal(np.asarray(whole[key]), np.asarray(resumed[key])), key)


class TraceRestart(unittest.TestCase):
    """Issue 36: a restart checks the trace's contents, not only its path. A ping-pong trace
    whose later messages were lengthened after the stop completed in 268 cycles where the
    run takes 164 (exit 0, status complete); an edited message in flight ended with an
    internal error (exit 3). Both are refused in one line naming --trace, the file and the
    change, and nothing is written; the same bytes under a new modification time continue
    bit-identically on another rank count."""

    HEADER = "id,source,destination,flits,after,iteration,depends\n"

    def pingpong(self, trace, flits):
        """Six messages between nodes 0 and 15 of mesh:4x4 (6 hops), each sent when the
        previous one has arrived; `flits` maps message ids to lengths other than 8."""
        lines = [self.HEADER]
        for i in range(6):
            src, dst = (0, 15) if i % 2 == 0 else (15, 0)
            deps = str(i - 1) if i else ""
            lines.append(f"{i},{src},{dst},{flits.get(i, 8)},0,{i // 2},{deps}\n")
        tmp = trace + ".new"
        with open(tmp, "w") as f:
            f.write("".join(lines))
        os.replace(tmp, trace)

    def common(self, trace):
        return ["-t", "mesh:4x4", "-r", "xy", "--workload", "trace", "--trace", trace]

    def wormnet(self, args, ranks=1):
        cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET] if ranks > 1 else [WORMNET]
        return subprocess.run([*cmd, "run", *args, "-q"], env=ENV, capture_output=True,
                              text=True, timeout=300, check=False)

    def stop(self, trace, name, ranks=1, stop_at=50):
        import shutil
        ck, out = os.path.join(OUT, name + ".ck"), os.path.join(OUT, name + ".h5")
        shutil.rmtree(ck, ignore_errors=True)
        for stale in (out, out + ".partial"):
            if os.path.exists(stale):
                os.remove(stale)
        r = self.wormnet([*self.common(trace), "-o", out, "--stop-at-cycle", str(stop_at),
                          "--checkpoint-dir", ck], ranks=ranks)
        self.assertEqual(r.returncode, 5, r.stderr)
        return ck, out

    def test_edited_trace_is_refused(self):
        import hashlib
        trace = os.path.join(OUT, "pingpong_edited.csv")
        # Message 0 takes (6 + 1) x 4 + 6 + 7 = 41 cycles: at cycle 50 message 1 is in flight.
        self.assertEqual(zero_load(6, 8), 41)
        for label, flits in (("two later messages of 60 flits", {4: 60, 5: 60}),
                             ("the message in flight of 12 flits", {1: 12})):
            with self.subTest(edit=label):
                self.pingpong(trace, {})
                with open(trace, "rb") as f:
                    was = hashlib.sha256(f.read()).hexdigest()
                ck, out = self.stop(trace, "pingpong_edited")
                self.pingpong(trace, flits)
                with open(out, "rb") as f:
                    results = f.read()
                with open(os.path.join(ck, "checkpoint.h5"), "rb") as f:
                    checkpoint = f.read()
                r = self.wormnet([*self.common(trace), "-o", out, "--restart", ck])
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                lines = r.stderr.splitlines()
                self.assertEqual(len(lines), 1, r.stderr)
                for word in ("--trace", trace, "contents changed since the checkpoint",
                             was[:12]):
                    self.assertIn(word, lines[0])
                with open(out, "rb") as f:
                    self.assertEqual(f.read(), results)
                with open(os.path.join(ck, "checkpoint.h5"), "rb") as f:
                    self.assertEqual(f.read(), checkpoint)
                self.assertEqual(sorted(os.listdir(ck)), ["checkpoint.h5"])
                self.assertFalse(os.path.exists(out + ".partial"))

    def test_trace_that_is_no_regular_file_is_refused(self):
        # A FIFO whose writer sends a valid trace: the trace reader reads it, but its contents
        # could not be recorded for a restart to check: refused, one line, no results file.
        import threading
        fifo = os.path.join(OUT, "pingpong.fifo")
        if os.path.exists(fifo):
            os.remove(fifo)
        os.mkfifo(fifo)
        text = self.HEADER + "0,0,15,8,0,0,\n"

        def writer():
            try:
                with open(fifo, "w") as f:  # blocks until the reader opens it
                    f.write(text)
            except OSError:
                pass

        t = threading.Thread(target=writer, daemon=True)
        t.start()
        out = os.path.join(OUT, "pingpong_fifo.h5")
        if os.path.exists(out):
            os.remove(out)
        r = self.wormnet([*self.common(fifo), "-o", out])
        if t.is_alive():  # the reader never opened it: let the writer go
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        t.join(timeout=10)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        for word in ("--trace", fifo, "a regular file", "a FIFO"):
            self.assertIn(word, lines[0])
        self.assertFalse(os.path.exists(out))
        self.assertFalse(os.path.exists(out + ".partial"))

    def test_same_trace_restarts_bit_identically(self):
        trace = os.path.join(OUT, "pingpong_same.csv")
        self.pingpong(trace, {})
        whole = os.path.join(OUT, "pingpong_whole.h5")
        r = self.wormnet([*self.common(trace), "-o", whole])
        self.assertEqual(r.returncode, 0, r.stderr)
        ck, out = self.stop(trace, "pingpong_same", ranks=2)
        self.pingpong(trace, {})  # the same bytes again: a new file, a new modification time
        later = os.stat(trace).st_mtime + 3600
        os.utime(trace, (later, later))
        r = self.wormnet([*self.common(trace), "-o", out, "--restart", ck])
        self.assertEqual(r.returncode, 0, r.stderr)
        a, b = workload(whole), workload(out)
        self.assertEqual(sorted(a), sorted(b))
        for key in a:
            self.assertTrue(np.array_equal(np.asarray(a[key]), np.asarray(b[key])), key)
        self.assertEqual(point(whole).keys(), point(out).keys())
        for key, value in point(whole).items():
            if key != "wall_seconds":
                self.assertTrue(np.array_equal(value, point(out)[key]), key)


def main():
    global WORMNET, MPIEXEC, OUT
    args = sys.argv[1:]
    WORMNET, MPIEXEC, OUT = args[1], args[3], args[5]
    os.makedirs(OUT, exist_ok=True)
    result = unittest.main(argv=[sys.argv[0], "-v", *args[6:]], exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
