#!/usr/bin/python3
"""runs/workloads/study.sh --quick (honeycomb:2, mesh:6x4, torus:6x4: 24 nodes; 1 iteration of
4-flit messages) and analysis/workloads.py on its files. Checks each run against facts worked
out here from the motif's definition (docs/workloads.md), the network's links and the router
pipeline alone, never from an earlier run:

- the messages: the motif rebuilt from its definition over the file's process-to-node
  mapping gives the file's messages, in order (sources, destinations, sizes);
- exact release: every message is issued at the cycle its last dependency was satisfied (a
  received message's delivery, an earlier send's issue; 0 for none), no later, no earlier;
- lower bounds per message: head injection >= issue, and >= the previous send's head
  injection + F (the node's injection channel moves a flit a cycle, a packet at a time);
  tail delivery >= head injection + T(d), where d is the hop distance (breadth-first search
  over the file's channel list) and T(h) = (h + 1)(rc + va + sa + st) + h link + F - 1 the
  zero-load latency of the router pipeline (the idle-network derivation of workload_test.py);
- lower bound on the completion: C0, the completion of the same dependency graph on a
  network without contention (each message issued when its dependencies are satisfied,
  injected as its node's injection channel allows, delivered T(d) later). C0 >= the closed
  forms below, which are checked as well;
- exact completion where the network has no contention: allreduce-ring on the mesh and the
  torus (all three routings). The ring's P edges p -> p+1 take X-then-Y paths (dimension
  order, the shorter way round, + on a tie: xy, dor-dateline-dest, and Duato's first choice,
  its first minimal port in port order, taken while its adaptive VC is free) that share no
  channel (checked here); a node sends and receives one message a step, at least T(1) =
  F + 8 > F + 2 cycles apart, so no message ever waits for another. Then every message takes
  exactly T(d) from issue to delivery, and the completion is the longest chain of 2(P-1)
  messages, 2 sum(L) - min(L_e + L_e+1) over adjacent ring edges (L_e = T(d_e)): the chain
  ending at edge p covers every edge once and all but the two after p again. Its critical
  path is that chain, all network time.

Closed-form lower bounds (default pipeline, T(1) = F + 8):
  halo2d         an interior process sends 4 messages through its one injection channel, F
                 flits a cycle, so the last head leaves >= 3F after the first: >= 4F + 8;
  sweep2d        the wavefront is a chain of A + B - 2 dependent messages: >= (A+B-2)(F+8);
  allreduce-ring 2(P-1) steps, each waits for a message of the step before: >= 2(P-1)(F+8);
  allreduce-rd   P2 = 16 of 24: a fold, log2(16) = 4 exchange steps and an unfold, each
                 waiting for the one before: >= 6(F+8);
  alltoall       every node receives (P-1) F flits through its ejection channel: >= (P-1) F.

Also: the printed table holds the files' completion times, the figure is a small PNG, bad
arguments are refused with exit code 2.

usage: workload_study_test.py --wormnet BIN --root SOURCE_DIR --out DIR
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

import h5py

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
P, A, B, F = 24, 6, 4, 4
ONE_HOP = F + 8
BOUND = {"halo2d": 4 * F + 8, "sweep2d": (A + B - 2) * ONE_HOP,
         "allreduce-ring": 2 * (P - 1) * ONE_HOP, "allreduce-rd": 6 * ONE_HOP,
         "alltoall": (P - 1) * F}
RUNS = {"ht": ["double-xy", "double-xy-vcs3", "duato"], "mesh": ["xy", "xy-vcs2", "duato"],
        "torus": ["dor-dateline-dest", "dor-dateline-dest-vcs3", "duato"]}
#: Runs whose completion is exact (no contention: see the module's text).
EXACT = {(net, routing, "allreduce-ring") for net in ("mesh", "torus") for routing in RUNS[net]}


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


# --- The motifs, from their definitions in docs/workloads.md (one iteration). -------------
# A message: (source process, destination process, receives it waits for, previous send).
# A process's sends keep program order: the first send of a step waits for the receives the
# step needs and for the process's previous send; each further send of the step waits for
# the send before it.

class Motif:
    def __init__(self, processes):
        self.messages = []  # (src, dst, [received message ids], previous send id or None)
        self.last_send = [None] * processes

    def step(self, p, to, waits):
        ids = []
        for k, q in enumerate(to):
            self.messages.append((p, q, list(waits) if k == 0 else [], self.last_send[p]))
            self.last_send[p] = len(self.messages) - 1
            ids.append(self.last_send[p])
        return ids


def build_motif(name, grid):
    n = 1
    for g in grid:
        n *= g
    m = Motif(n)
    if name == "halo2d":
        a, b = grid
        for p in range(n):
            x, y = p % a, p // a
            to = [q for q, ok in ((p - 1, x > 0), (p + 1, x < a - 1), (p - a, y > 0),
                                  (p + a, y < b - 1)) if ok]
            m.step(p, to, [])  # one iteration: nothing received before
    elif name == "sweep2d":
        a, b = grid
        received = collections.defaultdict(list)
        for p in range(n):  # row by row: (x-1, y) and (x, y-1) come first
            x, y = p % a, p // a
            to = [q for q, ok in ((p + 1, x < a - 1), (p + a, y < b - 1)) if ok]
            for q, i in zip(to, m.step(p, to, received[p])):
                received[q].append(i)
    elif name == "allreduce-ring":
        previous = [[] for _ in range(n)]
        for _ in range(2 * (n - 1)):
            received = [[] for _ in range(n)]
            for p in range(n):
                received[(p + 1) % n] += m.step(p, [(p + 1) % n], previous[p])
            previous = received
    elif name == "allreduce-rd":
        p2 = 1 << (n.bit_length() - 1)
        waits = [[] for _ in range(n)]
        for e in range(p2, n):  # the extra processes fold onto e - P2
            waits[e - p2] += m.step(e, [e - p2], [])
        k = 1
        while k < p2:
            received = [[] for _ in range(n)]
            for p in range(p2):
                received[p ^ k] += m.step(p, [p ^ k], waits[p])
            for p in range(p2):
                waits[p] = received[p]
            k <<= 1
        for p in range(n - p2):  # and get the result back
            m.step(p, [p + p2], waits[p])
    elif name == "alltoall":
        for p in range(n):
            m.step(p, [(p + k) % n for k in range(1, n)], [])
    else:
        raise ValueError(name)
    return m.messages


# --- The network, from the file. -----------------------------------------------------------

def distances(sources, dests, nodes):
    """Hop distances between all nodes, by breadth-first search over the channels."""
    out = [[] for _ in range(nodes)]
    for s, d in zip(sources, dests):
        out[s].append(d)
    dist = []
    for s in range(nodes):
        row = [-1] * nodes
        row[s] = 0
        queue = collections.deque([s])
        while queue:
            u = queue.popleft()
            for v in out[u]:
                if row[v] < 0:
                    row[v] = row[u] + 1
                    queue.append(v)
        dist.append(row)
    return dist


def xy_channels(coords, sizes, ring, s, d):
    """The channels (u, v) of the X-then-Y path from s to d: in each dimension the shorter way
    (round the ring on a torus), + on a tie."""
    at = list(coords[s])
    index = {tuple(c): i for i, c in enumerate(coords)}
    path = []
    for dim, k in enumerate(sizes):
        diff = coords[d][dim] - at[dim]
        if ring:
            plus = diff % k
            step, count = (1, plus) if plus <= k - plus else (-1, k - plus)
        else:
            step, count = (1 if diff > 0 else -1), abs(diff)
        for _ in range(count):
            u = index[tuple(at)]
            at[dim] = (at[dim] + step) % k
            path.append((u, index[tuple(at)]))
    return path


def config_value(config, key):
    return int(re.search(rf"^{re.escape(key)} = (\d+)", config, re.M).group(1))


def check_run(path, net, routing, motif):
    """Every fact of the module's text for one run; returns its completion time."""
    with h5py.File(path, "r") as f:
        w = f["workload"].attrs
        if int(w["complete"]) != 1 or int(w["message_flits"]) != F:
            fail(f"{path}: complete {w['complete']}, flits {w['message_flits']}")
        completion = int(w["completion_cycles"])
        config = f.attrs["config"]
        vcs = re.search(r"^vcs = (\d+)", config, re.M).group(1)
        grid = [int(g) for g in w["grid"]]
        node_of = [int(v) for v in f["workload/process_node"][()]]
        msg = {k: [int(v) for v in f["workload/messages"][k][()]]
               for k in ("source", "destination", "flits", "issued", "injected", "delivered")}
        critical = [int(v) for v in f["workload/critical_path"][()]]
        path_parts = [int(w[k]) for k in ("path_wait_cycles", "path_queueing_cycles",
                                          "path_network_cycles")]
        topo = f["topology"]
        nodes = int(topo.attrs["nodes"])
        dist = distances(topo["channel_source"][()], topo["channel_dest"][()], nodes)
        coords = [tuple(int(c) for c in row) for row in topo["coords"][()]]
        kind, spec = topo.attrs["kind"], topo.attrs["spec"]
    if routing.endswith(("-vcs2", "-vcs3")) != (vcs != "0"):
        fail(f"{path}: vcs = {vcs} in the configuration")
    stages = sum(config_value(config, k) for k in ("routing-delay", "vc-alloc-delay",
                                                   "switch-alloc-delay", "switch-delay"))
    link = config_value(config, "link-latency")
    terminals = config_value(config, "injection-latency") + config_value(config,
                                                                         "ejection-latency")

    def zero_load(hops):
        return (hops + 1) * stages + hops * link + F - 1 + terminals

    motif_messages = build_motif(motif, grid)
    if [(node_of[s], node_of[d]) for s, d, _, _ in motif_messages] != list(
            zip(msg["source"], msg["destination"])) or set(msg["flits"]) != {F}:
        fail(f"{path}: the messages are not the {motif} of grid {grid} over the mapping")

    issued, injected, delivered = msg["issued"], msg["injected"], msg["delivered"]
    # C0: the same graph on a network without contention.
    c0_issue, c0_inject, c0_deliver = [], [], []
    for i, (_, _, receives, previous) in enumerate(motif_messages):
        ready = max([delivered[r] for r in receives] +
                    ([issued[previous]] if previous is not None else []) + [0])
        if issued[i] != ready:
            fail(f"{path}: message {i} issued at {issued[i]}, its dependencies were all "
                 f"satisfied at {ready}")
        d = dist[msg["source"][i]][msg["destination"][i]]
        if injected[i] < issued[i] or delivered[i] < injected[i] + zero_load(d):
            fail(f"{path}: message {i} ({d} hops) issued {issued[i]}, injected {injected[i]}, "
                 f"delivered {delivered[i]}: faster than T({d}) = {zero_load(d)}")
        if previous is not None and injected[i] < injected[previous] + F:
            fail(f"{path}: message {i} injected at {injected[i]}, less than F after its "
                 f"node's previous send ({injected[previous]})")
        at = max([c0_deliver[r] for r in receives] +
                 ([c0_issue[previous]] if previous is not None else []) + [0])
        c0_issue.append(at)
        c0_inject.append(max(at, c0_inject[previous] + F) if previous is not None else at)
        c0_deliver.append(c0_inject[-1] + zero_load(d))
    c0 = max(c0_deliver)
    if completion != max(delivered):
        fail(f"{path}: completion {completion}, last delivery {max(delivered)}")
    if c0 < BOUND[motif]:
        fail(f"{path}: the contention-free completion {c0} is below the closed form "
             f"{BOUND[motif]}")
    if completion < c0:
        fail(f"{path}: completion {completion} below the contention-free {c0}")
    if sum(path_parts) != completion:
        fail(f"{path}: critical path {path_parts} does not add up to {completion}")

    if (net, routing, motif) in EXACT:
        sizes = [int(k) for k in spec.split(":")[1].split("x")]
        edges = [xy_channels(coords, sizes, kind == "torus", node_of[p], node_of[(p + 1) % P])
                 for p in range(P)]
        used = [c for e in edges for c in e]
        if len(used) != len(set(used)):
            fail(f"{path}: two edges of the ring share a channel: the exact case does not hold")
        lat = [zero_load(dist[node_of[p]][node_of[(p + 1) % P]]) for p in range(P)]
        closed = 2 * sum(lat) - min(lat[p] + lat[(p + 1) % P] for p in range(P))
        if c0 != closed or completion != closed:
            fail(f"{path}: completion {completion}, contention-free {c0}, closed form {closed}")
        for i in range(len(motif_messages)):
            if (injected[i], delivered[i]) != (c0_inject[i], c0_deliver[i]):
                fail(f"{path}: message {i} injected {injected[i]}, delivered {delivered[i]}; "
                     f"without contention {c0_inject[i]}, {c0_deliver[i]}")
        # The critical path: the first message delivered last, back through the receive
        # each one waited for (its previous send was issued earlier), all network time.
        last = delivered.index(completion)
        chain = [last]
        while motif_messages[chain[-1]][2]:
            chain.append(motif_messages[chain[-1]][2][0])
        if critical != chain[::-1] or len(chain) != 2 * (P - 1) or path_parts != [
                0, 0, completion]:
            fail(f"{path}: critical path {critical} {path_parts}, expected the chain "
                 f"{chain[::-1]} with all {completion} cycles in the network")
    return completion


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    study = os.path.join(args.root, "runs", "workloads", "study.sh")
    plot = os.path.join(args.root, "analysis", "workloads.py")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    png = os.path.join(args.out, "w.png")
    # -j 9: each run computes for a few ms; nearly all of its ~1 s wall time is start-up.
    r = subprocess.run([study, "--quick", "-j", "9", "-o", args.out, "--figure", png,
                        "--wormnet", args.wormnet], capture_output=True, text=True, timeout=280)
    if r.returncode != 0:
        fail(f"study.sh --quick exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
    table = r.stdout

    completion = {}
    for net, routings in RUNS.items():
        for routing in routings:
            for motif in BOUND:
                path = os.path.join(args.out, f"{net}_{routing}_{motif}.h5")
                if not os.path.exists(path):
                    fail(f"{path} missing")
                completion[net, routing, motif] = check_run(path, net, routing, motif)
    # The first table's rows hold the files' numbers (a column per net and routing, in order).
    first = table.split("\n\n")[0]
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in first.splitlines() if line.startswith("| ")}
    for motif in BOUND:
        want = [str(completion[net, routing, motif])
                for net, routings in RUNS.items() for routing in routings]
        if rows.get(motif) != want:
            fail(f"table row {motif}: {rows.get(motif)}, files say {want}")
    with open(png, "rb") as f:
        data = f.read()
    if not data.startswith(PNG_MAGIC) or len(data) > 150_000:
        fail(f"{png}: not a PNG under 150 KB ({len(data)} bytes)")

    # Bad arguments: exit code 2 and one line naming the argument.
    empty = os.path.join(args.out, "empty")
    os.makedirs(empty)
    for cmd, name in (([sys.executable, plot, empty], empty),
                      ([sys.executable, plot, os.path.join(args.out, "nowhere")], "nowhere"),
                      ([study, "-j", "0", "-o", empty], "-j"),
                      ([study, "--bogus"], "--bogus")):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if r.returncode != 2 or len(r.stderr.strip().splitlines()) != 1 or name not in r.stderr:
            fail(f"{cmd}: exit {r.returncode}, stderr {r.stderr!r}")
    print(f"workload study: 45 runs, each message released exactly when its dependencies "
          f"allow and no faster than the idle pipeline, {len(EXACT)} contention-free runs "
          f"exact; table and figure consistent")


if __name__ == "__main__":
    main()
