#!/usr/bin/env python3
"""Several processes per node, computation between messages and the NPB skeletons
(docs/workloads.md), checked against facts worked out here, independently of the simulator:
an exchange between two nodes with computation by hand; messages within a node that never
touch a channel; every skeleton's messages per iteration, pair by pair, from its definition
(docs/workloads.md, "NPB skeletons"); IS's unequal sizes from the keys' distribution; the
dependency order with computation; a trace replaying its skeleton; a restart.

usage: npb_workload_test.py --wormnet BIN --mpiexec MPIEXEC --out DIR [unittest arguments]
"""
import collections
import fractions
import math
import os
import shutil
import subprocess
import sys
import unittest

import h5py
import numpy as np

WORMNET = MPIEXEC = OUT = None
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
HEADER7 = "id,source,destination,flits,after,iteration,depends"
HEADER8 = HEADER7 + ",compute"


def run(name, *args, ranks=1, code=0):
    """`wormnet run ARGS -o OUT/name.h5` on `ranks` ranks; the file's path."""
    path = os.path.join(OUT, name + ".h5")
    for stale in (path, path + ".partial"):
        if os.path.exists(stale):
            os.remove(stale)
    cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET] if ranks > 1 else [WORMNET]
    r = subprocess.run([*cmd, "run", *args, "-q", "-o", path], env=ENV, capture_output=True,
                       text=True, timeout=300, check=False)
    if r.returncode != code:
        raise AssertionError(f"exit {r.returncode}: {r.stdout}\n{r.stderr}")
    return path


def workload(path):
    with h5py.File(path, "r") as f:
        w = f["workload"]
        out = dict(w.attrs.items())
        for g in ("messages", "iterations"):
            for k, v in w[g].items():
                out[g + "/" + k] = v[()]
        out["process_node"] = w["process_node"][()]
        out["channel_flits"] = f["points/000/channel_flits"][()]
        out["labelled"] = f["summary/labelled"][0]
        return out


def read_trace(path):
    """(source, destination, flits, after, iteration, deps, compute) per message, by the
    format's definition."""
    rows = []
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    eight = lines[0] == HEADER8
    assert eight or lines[0] == HEADER7, lines[0]
    for k, line in enumerate(lines[1:]):
        fields = line.split(",")
        assert int(fields[0]) == k
        s, d, fl, after, it = (int(x) for x in fields[1:6])
        rows.append((s, d, fl, after, it, [int(x) for x in fields[6].split()],
                     int(fields[7]) if eight else 0))
    return rows


def zero_load(hops, flits, rc=1, va=1, sa=1, st=1, link=1):
    """One message alone over `hops` hops (docs/workloads.md, tests of workload_test.py)."""
    return (hops + 1) * (rc + va + sa + st) + hops * link + flits - 1


# --- the skeletons' messages per iteration, from their definitions ---------------------------

def log2(p):
    assert p & (p - 1) == 0
    return p.bit_length() - 1


def lu_grid(p):
    d = log2(p)
    return 1 << ((d + 1) // 2), 1 << (d // 2)


def lu_pairs(p, n):
    """SSOR: n - 2 planes down (to +x and +y), n - 2 planes up (to -x and -y), and the halo
    exchange (both ways across every grid edge)."""
    a, b = lu_grid(p)
    edges = [(q, q + 1) for q in range(p) if q % a + 1 < a] + \
            [(q, q + a) for q in range(p) if q // a + 1 < b]
    pairs = collections.Counter()
    for u, v in edges:
        pairs[(u, v)] += n - 2
        pairs[(v, u)] += n - 2
        pairs[(u, v)] += 1
        pairs[(v, u)] += 1
    return pairs


def mg_grid(p):
    d = log2(p)
    dx = d // 3
    dy = (d - dx) // 2
    return 1 << dx, 1 << dy, 1 << (d - dx - dy)


def mg_pairs(p, n):
    """3(lt - kb) + 2 halo exchanges (comm3) per V-cycle and residual, each to both periodic
    neighbours along every axis with two processes or more."""
    g = mg_grid(p)
    lt, kb = log2(n), log2(max(g))
    comm3 = 3 * (lt - kb) + 2
    pairs = collections.Counter()
    strides = (1, g[0], g[0] * g[1])
    for q in range(p):
        for axis in range(3):
            if g[axis] == 1:
                continue
            c = q // strides[axis] % g[axis]
            base = q - c * strides[axis]
            for step in (1, -1):
                pairs[(q, base + (c + step) % g[axis] * strides[axis])] += comm3
    return pairs


def rd_pairs(p, times):
    return collections.Counter({(q, q ^ (1 << k)): times for q in range(p)
                                for k in range(log2(p))})


def cg_pairs(p):
    """Per outer iteration 79 log2(npcols) exchanges with a partner in the row (col xor 2^k)
    and 26 transposes (to the transpose partner, when not itself)."""
    d = log2(p)
    cols, rows = 1 << ((d + 1) // 2), 1 << (d // 2)
    l2 = log2(cols)
    pairs = collections.Counter()
    for q in range(p):
        row, col = divmod(q, cols)
        for k in range(l2):
            # Matrix-vector products (26, up), dot products (2 + 25 x 2 + 1 + 1, down): each
            # exchange step uses every k once.
            pairs[(q, q ^ (1 << k))] += 26 + 53
        if cols == rows:
            partner = row + cols * col
        else:
            partner = 2 * ((q // 2 % rows) * rows + q // 2 // rows) + q % 2
        if partner != q:
            pairs[(q, partner)] += 26
    return pairs


def ft_pairs(p):
    pairs = collections.Counter({(q, r): 1 for q in range(p) for r in range(p) if q != r})
    for q in range(1, p):
        pairs[(q, q - (q & -q))] += 1  # the checksum's binomial tree to process 0
    return pairs


def is_bucket_keys(keys, buckets=1024):
    """Expected keys per bucket: a key is max_key (x1+x2+x3+x4)/4 with uniform x's, so the
    share of [b, b+1) / buckets is the Irwin-Hall (n = 4) distribution's difference there;
    counts floor(keys x F) apart."""
    def cdf(x):  # Irwin-Hall n = 4, x in [0, 4], exact
        return sum((-1) ** k * math.comb(4, k) * (x - k) ** 4
                   for k in range(0, math.floor(x) + 1)) / 24
    cumulative = [math.floor(keys * cdf(fractions.Fraction(4 * b, buckets)))
                  for b in range(buckets + 1)]
    return [cumulative[b + 1] - cumulative[b] for b in range(buckets)]


def is_owned(p, keys):
    """Keys of each process's buckets: buckets in order until the running total reaches
    (j + 1) keys / P (NPB's rule)."""
    owned, total, j = [0] * p, 0, 0
    for count in is_bucket_keys(keys):
        if j == p:
            break
        total += count
        owned[j] += count
        if total * p >= (j + 1) * keys:
            j += 1
    return owned


def is_pairs(p, keys):
    owned = is_owned(p, keys)
    pairs = rd_pairs(p, 1)
    for q in range(p):
        for r in range(p):
            if q != r:
                pairs[(q, r)] += 1 + (1 if owned[r] > 0 else 0)
    return pairs


def node_pairs(pairs, per_node):
    """(source node, destination node) counts under the linear mapping."""
    out = collections.Counter()
    for (q, r), c in pairs.items():
        out[(q // per_node, r // per_node)] += c
    return out


class ByHand(unittest.TestCase):
    def test_two_node_exchange_with_computation(self):
        # halo2d on mesh:2, one process per node: each iteration a process computes C cycles
        # after the other's message arrived, then sends its own; the directions share
        # nothing, so iteration k ends at (k + 1)(C + T), T the zero-load time over one hop.
        for c, extra in ((100, []), (37, ["--routing-delay", "2", "--link-latency", "3",
                                          "--credit-latency", "3"])):
            t = zero_load(1, 16) if not extra else zero_load(1, 16, rc=2, link=3)
            with self.subTest(compute=c):
                w = workload(run("compute_two_nodes", "-t", "mesh:2", "-r", "xy", "--buffer",
                                 "64", "--workload", "halo2d", "--grid", "2x1", "--iterations",
                                 "5", "--message-size", "16", "--compute-cycles", str(c),
                                 *extra))
                self.assertEqual(w["completion_cycles"], 5 * (c + t))
                self.assertEqual(list(w["iterations/cycles"]), [c + t] * 5)
                self.assertEqual(list(w["messages/issued"][::2]),
                                 [c + k * (c + t) for k in range(5)])
                self.assertEqual(w["path_compute_cycles"], 5 * c)
                self.assertEqual(w["path_network_cycles"], 5 * t)
                self.assertEqual(w["path_wait_cycles"] + w["path_queueing_cycles"] +
                                 w["path_local_cycles"], 0)
                self.assertEqual(w["compute_cycles"], 10 * c)

    def test_messages_within_a_node_never_touch_a_channel(self):
        # halo2d on a 4x1 grid, 2 processes per node of mesh:2 (linear: 0, 1 on node 0 and
        # 2, 3 on node 1): 0 <-> 1 and 2 <-> 3 stay within their node, 1 <-> 2 crosses the
        # link. Each channel carries 2 iterations x one 16-flit message; a message within a
        # node arrives L + 15 cycles after its issue, never queued.
        latency = 7
        w = workload(run("local_halo", "-t", "mesh:2", "-r", "xy", "--buffer", "64",
                         "--workload", "halo2d", "--grid", "4x1", "--processes-per-node", "2",
                         "--iterations", "2", "--message-size", "16", "--local-latency",
                         str(latency)))
        self.assertEqual(list(w["process_node"]), [0, 0, 1, 1])
        self.assertEqual(list(w["channel_flits"]), [32, 32])
        self.assertEqual((w["network_messages"], w["local_messages"], w["markers"]), (4, 8, 0))
        self.assertEqual(w["labelled"], 4)
        local = w["messages/source"] == w["messages/destination"]
        self.assertEqual(int(local.sum()), 8)
        issued, injected, delivered = (w["messages/" + k] for k in ("issued", "injected",
                                                                   "delivered"))
        self.assertTrue(np.array_equal(injected[local], issued[local]))
        self.assertTrue(np.all(delivered[local] - issued[local] == latency + 15))

    def test_a_trace_within_nodes_only(self):
        # Three messages that never leave their node on mesh:2 and a marker: 0 (node 0, 16
        # flits) issued at 10 (after), delivered 10 + L + 15; 1 (node 1, 4 flits) computes 5;
        # 2 marks node 0's step after 0 with 3 cycles of computation (issued = delivered);
        # 3 (node 0, 1 flit) after the marker. L = 4: 0 at 10 -> 29, 1 at 5 -> 12, 2 at 32,
        # 3 at 32 -> 36. No packet, no flit on a channel.
        trace = os.path.join(OUT, "within.csv")
        with open(trace, "w") as f:
            f.write(HEADER8 + "\n0,0,0,16,10,0,,0\n1,1,1,4,0,0,,5\n2,0,0,0,0,0,0,3\n"
                    "3,0,0,1,0,1,2,0\n")
        w = workload(run("within", "-t", "mesh:2", "-r", "xy", "--workload", "trace", "--trace",
                         trace))
        self.assertEqual(list(w["messages/issued"]), [10, 5, 32, 32])
        self.assertEqual(list(w["messages/delivered"]), [29, 12, 32, 36])
        self.assertEqual(w["completion_cycles"], 36)
        self.assertEqual(list(w["channel_flits"]), [0, 0])
        self.assertEqual(w["labelled"], 0)
        # The critical path 0 -> 2 -> 3: wait 10, local 19 + 0 + 4, compute 3.
        self.assertEqual((w["path_wait_cycles"], w["path_local_cycles"],
                          w["path_compute_cycles"]), (10, 23, 3))


class Skeletons(unittest.TestCase):
    """Every message of an iteration, as (source node, destination node) pairs, against the
    definition; with computation, the step markers; the dependency order."""

    def check(self, name, topo, per_node, expected, iterations=2, extra=(), markers=None,
              once=None):
        trace = os.path.join(OUT, name + ".csv")
        args = ["-t", topo, "-r", "dor-dateline" if topo.startswith("torus") else "xy",
                "--buffer", "4000", "--workload", name.split("_")[0], "--processes-per-node",
                str(per_node), "--iterations", str(iterations), "--drain-limit", "100000000",
                "--write-trace", trace, *extra]
        w = workload(run(name, *args))
        rows = read_trace(trace)
        self.assertEqual(w["complete"], 1)
        for it in range(iterations):
            got = collections.Counter((s, d) for s, d, fl, _, i, _, _ in rows
                                      if i == it and fl > 0)
            want = node_pairs(expected, per_node)
            if once and it == iterations - 1:
                want += node_pairs(once, per_node)
            self.assertEqual(got, want, f"iteration {it}")
        found = sum(1 for s, d, fl, *_ in rows if fl == 0)
        self.assertEqual(found, (markers or 0) * iterations)
        self.assertEqual(w["markers"], found)
        self.check_order(w, rows)
        self.assertEqual(w["path_wait_cycles"] + w["path_compute_cycles"] +
                         w["path_queueing_cycles"] + w["path_network_cycles"] +
                         w["path_local_cycles"], w["completion_cycles"])
        return w, rows

    def check_order(self, w, rows):
        issued, injected, delivered = (w["messages/" + k] for k in ("issued", "injected",
                                                                   "delivered"))
        for m, (s, d, fl, after, it, deps, compute) in enumerate(rows):
            ready = 0
            for p in deps:
                if rows[p][1] == s:  # received (or copied within the node): its delivery
                    ready = max(ready, delivered[p])
                else:  # sent to another node earlier: its issue
                    self.assertEqual(rows[p][0], s)
                    ready = max(ready, issued[p])
            self.assertGreaterEqual(issued[m], max(after, ready + compute))
            if s == d:
                self.assertEqual(injected[m], issued[m])
            else:
                self.assertGreaterEqual(delivered[m], injected[m] + fl)

    def test_lu(self):
        # 16 processes, 4 per node of torus:2x2: LU's 4x4 grid; class S (n = 12): 10 planes
        # each way and the halo. With computation: a marker per plane at the corner that
        # sends nothing in each sweep, and rhs's step of every process (2 x 10 + 16).
        self.assertEqual(lu_grid(16), (4, 4))
        self.check("npb-lu", "torus:2x2", 4, lu_pairs(16, 12), extra=["--npb-class", "S"])
        self.check("npb-lu_compute", "torus:2x2", 4, lu_pairs(16, 12), markers=2 * 10 + 16,
                   extra=["--npb-class", "S", "--compute-rate", "1"])
        # 8 processes on mesh:2x2: a 4x2 grid.
        self.check("npb-lu_8", "mesh:2x2", 2, lu_pairs(8, 12), extra=["--npb-class", "S"])

    def test_mg(self):
        # 8 processes (2x2x2: both neighbours of an axis are one process, two messages to
        # it) and 16 (2x2x4), class S (n = 32: 5 levels, down to a point per process).
        self.assertEqual(mg_grid(16), (2, 2, 4))
        for p, topo, k in ((8, "mesh:2x2", 2), (16, "torus:4x2", 2)):
            with self.subTest(processes=p):
                self.check(f"npb-mg_{p}", topo, k, mg_pairs(p, 32), once=rd_pairs(p, 2),
                           extra=["--npb-class", "S", "--compute-rate", "0.5"])

    def test_cg(self):
        # 16 processes (4x4, square: the transpose partner of (r, c) is (c, r), the diagonal
        # sends nothing) and 8 (2 rows x 4 columns).
        for p, topo, k in ((16, "torus:2x2", 4), (8, "torus:4x2", 1)):
            with self.subTest(processes=p):
                self.check(f"npb-cg_{p}", topo, k, cg_pairs(p), iterations=1,
                           extra=["--npb-class", "S", "--compute-rate", "2"])

    def test_ft(self):
        # All-to-all and the checksum's tree; with computation, every process's step before
        # the reduction leaves a marker.
        self.check("npb-ft", "torus:2x2", 2, ft_pairs(8), markers=8,
                   extra=["--npb-class", "S", "--compute-rate", "4"])

    def test_is(self):
        # The allreduce, the all-to-all of counts and the all-to-all of keys; the keys'
        # sizes: pair (i, j) carries ceil(4 keys_j / P) bytes in 16-byte flits, keys_j the
        # keys of j's buckets.
        for p, topo, k, cls, keys in ((16, "torus:2x2", 4, "S", 2 ** 16),
                                      (8, "mesh:2x2", 2, "W", 2 ** 20)):
            with self.subTest(processes=p):
                _, rows = self.check(f"npb-is_{p}", topo, k, is_pairs(p, keys), markers=p,
                                     extra=["--npb-class", cls, "--compute-rate", "1"])
                owned = is_owned(p, keys)
                self.assertGreater(max(owned), min(owned))  # unequal
                # The key messages are the last P - 1 sends of each process per iteration:
                # with one process per node their destinations are processes.
                sizes = collections.Counter()
                for s, d, fl, _, it, _, _ in rows:
                    if it == 0 and fl > 0:
                        sizes[fl] += 1
                for j in range(p):
                    want = max(1, math.ceil(math.ceil(4 * owned[j] / p) / 16))
                    self.assertGreaterEqual(sizes[want], p - 1, (j, want))

    def test_is_processes_past_the_last_bucket_get_no_keys(self):
        # 1024 processes (256 per node of mesh:2x2), class S: the first buckets hold too few
        # keys to reach a share of 1/1024 each, so process 0 takes several and the 1024
        # buckets run out before the last processes get one: those get no key message.
        owned = is_owned(1024, 2 ** 16)
        empty = sum(1 for x in owned if x == 0)
        self.assertGreater(empty, 200)
        trace = os.path.join(OUT, "is1024.csv")
        # The trace alone (no results file): the run stops at once, at the drain limit.
        r = subprocess.run([WORMNET, "run", "-t", "mesh:2x2", "-r", "xy", "--workload",
                            "npb-is", "--npb-class", "S", "--processes-per-node", "256",
                            "--write-trace", trace, "--drain-limit", "1", "-q"], env=ENV,
                           capture_output=True, text=True, timeout=300, check=False)
        self.assertEqual(r.returncode, 7, r.stderr)
        with open(trace) as f:
            messages = sum(1 for line in f if line[0].isdigit())
        os.remove(trace)
        self.assertEqual(messages, sum(is_pairs(1024, 2 ** 16).values()))
        self.assertEqual(messages, 10 * 1024 + 1023 * 1024 + 1023 * (1024 - empty))


class ReplayAndRestart(unittest.TestCase):
    COMMON = ["-t", "torus:4x2", "-r", "dor-dateline", "--buffer", "64", "--workload", "npb-cg",
              "--npb-class", "S", "--processes-per-node", "2", "--compute-rate", "8",
              "--mapping", "random", "--seed", "5", "--drain-limit", "10000000"]
    KEYS = ("completion_cycles", "messages/issued", "messages/injected", "messages/delivered",
            "iterations/end", "path_compute_cycles", "path_local_cycles", "path_network_cycles")

    def test_a_skeletons_trace_replays_it(self):
        trace = os.path.join(OUT, "cg_replay.csv")
        whole = workload(run("cg_motif", *self.COMMON, "--write-trace", trace))
        with open(trace) as f:
            self.assertEqual(f.readline().strip(), "# wormnet workload trace (docs/workloads.md)")
            self.assertEqual(f.readline().strip(), HEADER8)
        replay = workload(run("cg_replay", "-t", "torus:4x2", "-r", "dor-dateline", "--buffer",
                              "64", "--workload", "trace", "--trace", trace, "--drain-limit",
                              "10000000"))
        self.assertGreater(whole["local_messages"], 0)
        self.assertGreater(whole["path_compute_cycles"], 0)
        for key in self.KEYS:
            self.assertTrue(np.array_equal(whole[key], replay[key]), key)

    def test_stop_and_restart_on_another_rank_count(self):
        # Stopped on 2 ranks at a third and at two thirds of the run (messages within nodes
        # in flight, computations under way), continued on 1 and on 3.
        common = [*self.COMMON[:7], "npb-lu", *self.COMMON[8:]]
        whole = workload(run("lu_whole", *common))
        for part, ranks in ((3, 1), (1.5, 3)):
            with self.subTest(stop=part):
                ck = os.path.join(OUT, "lu_ck")
                shutil.rmtree(ck, ignore_errors=True)
                stop = str(int(whole["completion_cycles"] / part))
                path = run("lu_part", *common, "--stop-at-cycle", stop, "--checkpoint-dir", ck,
                           ranks=2, code=5)
                cmd = [MPIEXEC, "-n", str(ranks), "--oversubscribe", WORMNET] if ranks > 1 \
                    else [WORMNET]
                r = subprocess.run([*cmd, "run", *common, "-q", "-o", path, "--restart", ck],
                                   env=ENV, capture_output=True, text=True, timeout=300,
                                   check=False)
                self.assertEqual(r.returncode, 0, r.stderr)
                resumed = workload(path)
                for key in whole:
                    if key in ("process_node",) or key.startswith("messages/") or \
                            key.startswith("iterations/") or key.startswith("path_") or \
                            key.endswith("_cycles"):
                        self.assertTrue(np.array_equal(np.asarray(whole[key]),
                                                       np.asarray(resumed[key])), key)


def main():
    global WORMNET, MPIEXEC, OUT
    args = sys.argv[1:]
    WORMNET, MPIEXEC, OUT = args[1], args[3], args[5]
    os.makedirs(OUT, exist_ok=True)
    result = unittest.main(argv=[sys.argv[0], "-v", *args[6:]], exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
