"""The option space of `wormnet run` and `wormnet sweep`, as a table of generators.

A configuration is an ordered dict {long option name: value} plus a few keys that are not
wormnet options (they start with '_': the command, the sweep's loads, a trace's messages,
which the harness writes to a file). It is drawn by the generators of GENERATORS in order,
each from a random.Random and the options drawn before it (the routing depends on the
topology, the buffer on the lengths, the workload and the flow control, ...),
and it is always a configuration wormnet accepts: `valid()` restates wormnet's input rules
that the generators must respect, so that a refusal (exit 2) is a finding, not noise.

To cover a new option, add a generator (and, if it constrains others, a rule to `valid()`
and a simplification to simplifications()); to cover a new topology or routing, extend
`draw_topology` / ROUTINGS. Nothing here runs wormnet.
"""
import hashlib
import math
import os
import random
import tempfile

import honeycomb_tori as hct

# Routings by topology kind: name -> the VCs it needs.
ROUTINGS = {
    "honeycomb": {"stojmenovic": 1, "xy-first": 1, "double-xy": 2, "double-xy-turn": 2,
                  "minimal-adaptive": 1},
    "mesh": {"xy": 1, "west-first": 1},
    "torus": {"dor": 1, "dor-dateline": 2, "dor-ring-class": 2, "dor-booksim": 2,
              "dor-balanced": 2, "dor-dateline-dest": 2, "angara": 1, "table": 1},
}
# Duato's adaptive routing: the escape routing's VCs and one adaptive VC.
ROUTINGS["honeycomb"]["duato"] = 3
ROUTINGS["mesh"]["duato"] = 2
ROUTINGS["torus"]["duato"] = 3
# Honeycomb tori (HT_T, and Cho & Hsu's rectangular and rhombic ones) of random sizes, thin
# and wide ones included: the dateline routings' VC counts depend on the torus's periods
# (honeycomb_tori.routing_vcs; the counts below are HT_T's), and sizes whose periods need
# more than 8 VCs are refused.
HONEYCOMB_TORUS_ROUTINGS = {"stojmenovic": 1, "stojmenovic-dateline": 3,
                            "double-xy-dateline": 6, "minimal-adaptive": 1, "duato": 7}
for _kind in hct.KINDS:
    ROUTINGS[_kind] = HONEYCOMB_TORUS_ROUTINGS
MAX_TORUS_NODES = 240  # honeycomb tori: thin ones route over long ways
# Torus routings that may draw half-ring ties per packet (--ring-tie random / alternating).
TIE_ROUTINGS = {"dor", "dor-dateline", "dor-ring-class", "dor-booksim", "dor-balanced"}
# Routings that always run with bubble flow control (virtual cut-through in rings).
BUBBLE_ROUTINGS = {"angara", "table"}
# Routings whose channel dependencies are cyclic (without bubble flow control): they may
# deadlock, and then every check must agree on it.
DEADLOCK_PRONE = {"stojmenovic", "minimal-adaptive", "dor", "stojmenovic-dateline"}
TABLE_ALGORITHMS = ("bfs", "sssp", "genetic")
PATTERNS = ("uniform", "transpose", "neighbor", "tornado", "bit-complement", "hotspot",
            "all-to-all")
MAX_VCS = 8          # kMaxVcs
MAX_PORT_VCS = 64    # (ports + 1) x VCs
MAX_NODES = 400      # keeps a run of the harness within seconds
# Closed-loop workloads (docs/workloads.md): the motifs, process mappings, and the message
# sizes drawn (flits; above the open-loop --length-max default of 20 too).
MOTIFS = ("halo2d", "halo3d", "allreduce-ring", "allreduce-rd", "alltoall", "sweep2d")
MAPPINGS = ("linear", "random", "topology")
MESSAGE_SIZES = (1, 2, 3, 4, 8, 16, 20, 21, 24, 32, 40, 64)
LENGTH_MAX_DEFAULT = 20  # --length-max's default: a workload message above it is a golden feature
# Open-loop options a workload refuses (its messages and run length are its own).
OPEN_LOOP = ("load", "load-fraction", "traffic", "process", "length", "length-min", "length-max",
             "self-traffic", "hotspot-fraction", "hotspot-nodes", "warmup", "measure", "cycles")
MOTIF_OPTIONS = ("iterations", "message-size", "grid", "mapping")
WORKLOAD_MESSAGES = 6000  # messages of a drawn workload, at most (a run of a few seconds)
WORKLOAD_FLITS = 120_000  # their flits, at most
# Several processes per node, computation and the NPB skeletons (docs/workloads.md): drawn by
# draw_processes, from a random.Random of its own, so that no other draw moves and the golden
# seeds stay as they were. The skeletons run class S divided by 2^20: every message 1 flit.
NPB_SKELETONS = ("npb-lu", "npb-mg", "npb-cg", "npb-ft", "npb-is")
NPB_SCALE = 2 ** 20
NPB_MAX_PROCESSES = 64  # class S: LU's 8x8 grid at most (a grid point per process per side)
PROCESS_OPTIONS = ("processes-per-node", "local-latency", "compute-cycles", "compute-rate",
                   "npb-class", "npb-scale")


# --- facts about a configuration ----------------------------------------------------------

def topology_kind(cfg):
    return cfg["topology"].split(":")[0]


def honeycomb_like(cfg):
    """H_t or one of the honeycomb tori (degree 3, six port slots)."""
    return topology_kind(cfg).startswith("honeycomb")


def sizes(cfg):
    """Dimension sizes of a torus/mesh, [t] for the honeycomb H_t or HT_t, [m, n] for the
    rectangular and rhombic honeycomb tori."""
    return [int(x) for x in cfg["topology"].split(":")[1].split("x")]


def honeycomb_torus(cfg):
    """One of the three honeycomb tori."""
    return topology_kind(cfg) in hct.KINDS


def nodes(cfg):
    if honeycomb_torus(cfg):
        return hct.nodes(cfg["topology"])
    if topology_kind(cfg) == "honeycomb":
        return 6 * sizes(cfg)[0] ** 2
    return math.prod(sizes(cfg))


def ports(cfg):
    return 6 if honeycomb_like(cfg) else 2 * len(sizes(cfg))


def vcs_needed(cfg):
    if honeycomb_torus(cfg):
        return hct.routing_vcs(cfg["topology"])[cfg["routing"]]
    return ROUTINGS[topology_kind(cfg)][cfg["routing"]]


def bubble(cfg):
    return cfg["routing"] in BUBBLE_ROUTINGS or cfg.get("flow-control") == "bubble"


def workload(cfg):
    """The closed-loop workload (a motif or 'trace'), or None for open-loop traffic."""
    return cfg.get("workload")


def largest_message(cfg):
    """Flits of the longest message: a workload's own sizes, or --length-max."""
    if workload(cfg) == "trace":
        return max(m[3] for m in cfg["_trace"])
    if workload(cfg) in NPB_SKELETONS:
        return 1  # class S / NPB_SCALE (workload_valid)
    if workload(cfg):
        return cfg.get("message-size", 16)
    return length_max(cfg)


def bubble_buffer_min(cfg):
    """The smallest --buffer of bubble flow control: two of the longest packets (a workload's
    own messages, or --length-max)."""
    return 2 * largest_message(cfg)


def length_max(cfg):
    if "length" in cfg:
        return cfg["length"]
    return cfg.get("length-max", 20)


def length_min(cfg):
    if "length" in cfg:
        return cfg["length"]
    return cfg.get("length-min", 20)


def delay(cfg, option):
    """A latency or pipeline delay as wormnet will use it (--preset booksim sets the credit
    latency to the link latency + 1 unless it is given)."""
    if option == "credit-latency" and option not in cfg and cfg.get("preset") == "booksim":
        return cfg.get("link-latency", 1) + 1
    return cfg.get(option, 1)


def min_deadlock_threshold(cfg):
    """The smallest --deadlock-threshold wormnet accepts: longer than one credit round trip
    of a flit through a router (route, VC and switch allocation, switch, link, credit)."""
    return 1 + sum(delay(cfg, o) for o in ("routing-delay", "vc-alloc-delay",
                                           "switch-alloc-delay", "switch-delay",
                                           "link-latency", "credit-latency"))


def transpose_defined(cfg):
    if topology_kind(cfg) in ("honeycomb", "honeycomb-torus"):
        return True
    if honeycomb_like(cfg):
        return False  # x <-> y maps no rectangular or rhombic honeycomb torus onto itself
    s = sizes(cfg)
    n = math.prod(s)
    return len(set(s)) == 1 or (n & (n - 1)) == 0


def grid_dimensions(motif):
    return {"halo2d": 2, "sweep2d": 2, "halo3d": 3}.get(motif, 0)


def balanced_grid(p, dims):
    """The most nearly square (cubic) grid of p processes, wormnet's default --grid
    (workload/motifs.cpp): the smallest largest factor, then the largest smallest."""
    best = None

    def search(d, rest, cap, f):
        nonlocal best
        if d == dims - 1:
            if rest <= cap:
                g = f + [rest]
                if best is None or g[0] < best[0] or (g[0] == best[0] and g[-1] > best[-1]):
                    best = g
            return
        for a in range(min(cap, rest), 0, -1):
            if rest % a == 0:
                search(d + 1, rest // a, a, f + [a])

    search(0, p, p, [])
    return best


def motif_messages(motif, p, grid=None):
    """Messages per iteration of a motif on p processes (docs/workloads.md)."""
    if motif in ("halo2d", "halo3d", "sweep2d"):
        g = grid or balanced_grid(p, grid_dimensions(motif))
        if motif == "sweep2d":
            return (g[0] - 1) * g[1] + g[0] * (g[1] - 1)
        # Every pair of grid neighbours exchanges two messages.
        return 2 * sum(math.prod(g) // g[d] * (g[d] - 1) for d in range(len(g)))
    if motif == "allreduce-ring":
        return 2 * (p - 1) * p
    if motif == "allreduce-rd":
        p2 = 1 << (p.bit_length() - 1)
        return p2 * (p2.bit_length() - 1) + 2 * (p - p2)
    return p * (p - 1)  # alltoall


def processes(cfg):
    """Processes of a motif or NPB skeleton: --processes-per-node on every node."""
    return nodes(cfg) * cfg.get("processes-per-node", 1)


def npb_messages(skeleton, p, iterations):
    """Messages and markers of an NPB skeleton in class S on p processes, at most
    (docs/workloads.md, "NPB skeletons")."""
    d = p.bit_length() - 1
    if skeleton == "npb-lu":  # 2E(n - 1) + 2(n - 2) + P markers, n = 12
        a = 1 << ((d + 1) // 2)
        b = p // a
        return (2 * ((a - 1) * b + a * (b - 1)) * 11 + 20 + p) * iterations
    if skeleton == "npb-mg":  # 6P per comm3, 3(lt - kb) + 2 of them (lt = 5); two allreduces
        dx = d // 3
        dy = (d - dx) // 2
        kb = max(dx, dy, d - dx - dy)
        return 6 * p * (3 * (5 - kb) + 2) * iterations + 2 * d * p
    if skeleton == "npb-cg":
        return (79 * ((d + 1) // 2) + 26) * p * iterations
    if skeleton == "npb-ft":
        return (p * (p - 1) + 2 * p) * iterations
    return (d * p + 2 * p * (p - 1) + p) * iterations  # npb-is


def workload_messages(cfg):
    if workload(cfg) == "trace":
        return len(cfg["_trace"])
    if workload(cfg) in NPB_SKELETONS:
        return npb_messages(workload(cfg), processes(cfg), cfg.get("iterations", 1))
    grid = [int(x) for x in cfg["grid"].split("x")] if "grid" in cfg else None
    return motif_messages(workload(cfg), processes(cfg), grid) * cfg.get("iterations", 1)


def trace_valid(cfg):
    """The trace rules of docs/workloads.md: ids in order, nodes in the network and
    different, sizes 1..65535, iteration labels below the message count, dependencies on
    earlier messages the source received or sent."""
    n = nodes(cfg)
    msgs = cfg["_trace"]
    for i, (mid, src, dst, flits, after, iteration, deps) in enumerate(msgs):
        if mid != i or not (0 <= src < n and 0 <= dst < n) or src == dst:
            return False
        if not 1 <= flits <= 65535 or after < 0 or not 0 <= iteration < len(msgs):
            return False
        for j in deps:
            if not (0 <= j < i and src in (msgs[j][1], msgs[j][2])):
                return False
    return bool(msgs)


def valid(cfg):
    """wormnet's input rules that the generators and the shrinker must respect (a restatement
    for the harness; wormnet itself is the authority and refuses anything else with exit 2)."""
    kind = topology_kind(cfg)
    if cfg["routing"] not in ROUTINGS[kind]:
        return False
    if kind == "honeycomb":
        if sizes(cfg)[0] < 1:
            return False
    elif honeycomb_torus(cfg):
        if not hct.sizes_allowed(*hct.parse(cfg["topology"])) or \
                hct.lattice_facts(cfg["topology"])["double_links"]:
            return False
    elif not 1 <= len(sizes(cfg)) <= 6 or min(sizes(cfg)) < 2:
        return False
    if nodes(cfg) < 2:
        return False
    if cfg["routing"] == "west-first" and len(sizes(cfg)) != 2:
        return False
    vcs = cfg.get("vcs", 0) or vcs_needed(cfg)
    if vcs < vcs_needed(cfg) or vcs > MAX_VCS or (ports(cfg) + 1) * vcs > MAX_PORT_VCS:
        return False
    if length_min(cfg) > length_max(cfg) or length_min(cfg) < 1:
        return False
    if workload(cfg) and not workload_valid(cfg):
        return False
    if not workload(cfg) and any(k in cfg for k in MOTIF_OPTIONS + PROCESS_OPTIONS +
                                 ("_trace", "trace")):
        return False
    if bubble(cfg) and cfg.get("buffer", 4) < bubble_buffer_min(cfg):
        return False
    if cfg.get("traffic") == "transpose" and not transpose_defined(cfg):
        return False
    if any(h >= nodes(cfg) for h in cfg.get("hotspot-nodes", [])):
        return False
    if "cycles" in cfg and cfg.get("warmup", 2000) >= cfg["cycles"]:
        return False
    if cfg.get("deadlock-threshold", 2000) < min_deadlock_threshold(cfg):
        return False
    if cfg["routing"] == "table" and "tables" not in cfg:
        return False
    if cfg.get("ring-tie", "plus") != "plus" and (kind != "torus" or
                                                  cfg["routing"] not in TIE_ROUTINGS):
        return False
    if cfg.get("self-traffic") and cfg.get("traffic", "uniform") != "uniform":
        return False
    if not faults_valid(cfg):
        return False
    if not measurable(cfg):
        return False
    if cfg.get("congestion") == "series" and series_windows(cfg) > MAX_SERIES_WINDOWS:
        return False
    return True


# --congestion series keeps at most this many statistics windows a point (sim_config.hpp).
MAX_SERIES_WINDOWS = 4096


def series_windows(cfg):
    """The most statistics windows a point of cfg may have: ceil((warm-up + measurement +
    drain limit) / stats window), a workload's ceil(drain limit / stats window), as wormnet's
    rule counts them."""
    run = cfg.get("drain-limit", 100000)
    if not workload(cfg):
        run += cfg.get("cycles") or cfg.get("warmup", 2000) + cfg.get("measure", 10000)
    return -(-run // cfg.get("stats-window", 1000))


def workload_valid(cfg):
    """wormnet's rules for --workload (docs/workloads.md): a run, no open-loop option, the
    motif options with a motif only, a grid of the motif's dimensions holding every process, a
    valid trace; processes per node and computation where they are read, an NPB skeleton on a
    power of two of processes at most NPB_MAX_PROCESSES, class S / NPB_SCALE."""
    w = workload(cfg)
    if cfg.get("_command") != "run" or any(k in cfg for k in OPEN_LOOP):
        return False
    per_node = cfg.get("processes-per-node", 1)
    if "local-latency" in cfg and (w != "trace" and per_node < 2 or
                                   not 1 <= cfg["local-latency"] <= 1_000_000):
        return False
    if w == "trace":
        return "_trace" in cfg and not any(k in cfg for k in MOTIF_OPTIONS) and \
            not any(k in cfg for k in PROCESS_OPTIONS if k != "local-latency") and \
            trace_valid(cfg)
    if "_trace" in cfg or not 1 <= per_node <= 1024 or cfg.get("iterations", 1) < 1:
        return False
    if w in NPB_SKELETONS:
        p = processes(cfg)
        return not any(k in cfg for k in ("message-size", "grid", "compute-cycles")) and \
            cfg.get("npb-class") == "S" and cfg.get("npb-scale") == NPB_SCALE and \
            2 <= p <= NPB_MAX_PROCESSES and p & (p - 1) == 0 and \
            0 < cfg.get("compute-rate", 1) <= 1e9 and workload_messages(cfg) <= WORKLOAD_MESSAGES
    if w not in MOTIFS or any(k in cfg for k in ("compute-rate", "npb-class", "npb-scale")):
        return False
    if "grid" in cfg:
        g = [int(x) for x in cfg["grid"].split("x")]
        if len(g) != grid_dimensions(w) or math.prod(g) != processes(cfg) or min(g) < 1:
            return False
    return cfg.get("message-size", 16) >= 1 and 0 <= cfg.get("compute-cycles", 0) <= 10**9


def measurement_window(cfg):
    if "cycles" in cfg:
        return cfg["cycles"] - cfg.get("warmup", 2000)
    return cfg.get("measure", 10000)


def measurable(cfg):
    """wormnet refuses a load at which the whole network expects fewer than one message in
    the measurement window. Absolute loads are checked as wormnet does; for a fraction of the
    saturation rate, a lower bound of that rate: 1/N flits per node and cycle (at that rate the
    network injects one flit per cycle in all, and no channel of a minimal route, nor any
    ejection port, is asked for more)."""
    if workload(cfg):
        return True  # every message is labelled; the run ends when they are all delivered
    if "measure" not in cfg and "cycles" not in cfg and "load" not in cfg and \
            "load-fraction" not in cfg and "_loads" not in cfg:
        return True
    n = nodes(cfg) - len(failed_nodes(cfg))  # the traffic's nodes: the working ones
    per_message = 0.5 * (length_min(cfg) + length_max(cfg))
    if cfg.get("_command") == "sweep":
        loads, relative = cfg["_loads"], cfg["_relative"]
    elif "load-fraction" in cfg:
        loads, relative = [cfg["load-fraction"]], True
    else:
        loads, relative = [cfg.get("load", 0.1)], False
    for load in loads:
        rate = load / n if relative else load
        if n * measurement_window(cfg) * rate / per_message < 1.0:
            return False
    return True


# --- generators ---------------------------------------------------------------------------

def draw_honeycomb_torus(rng):
    """HT_T, or a rectangular or rhombic torus of random size: near square, or thin and wide
    (one side at its least, e.g. 2x46, 24x4, 4x40: many equally near images, long ways, many
    dateline levels); at most MAX_TORUS_NODES nodes, none with doubled links."""
    while True:
        kind = rng.choice(hct.KINDS)
        if kind == "honeycomb-torus":
            a, b = rng.choice([1, 2, 2, 3, 3, 4, 5, 6]), 0
        else:
            even = kind == "honeycomb-rect"
            shape = rng.random()
            if shape < 0.2:    # thin: the fewest columns
                a, b = rng.choice([2, 2, 3, 4]), 2 * rng.randint(2, 40)
            elif shape < 0.4:  # wide: the fewest rows
                a, b = rng.randint(2, 40), 4
            else:
                a, b = rng.randint(2, 16), 2 * rng.randint(2, 10)
            if even:
                a += a % 2
        if not hct.sizes_allowed(kind, a, b):
            continue
        spec = hct.spec_of(kind, a, b)
        if hct.nodes(spec) <= MAX_TORUS_NODES and not hct.lattice_facts(spec)["double_links"]:
            return spec


def draw_topology(rng, cfg):
    kind = rng.choice(["honeycomb", "honeycomb", "torus", "torus", "mesh", "honeycomb-tori"])
    if kind == "honeycomb-tori":
        cfg["topology"] = draw_honeycomb_torus(rng)
        return
    if kind == "honeycomb":
        t = rng.choice([1, 2, 2, 3, 3, 4, 5, 6, 8]) if rng.random() < 0.9 else rng.randint(9, 12)
        cfg["topology"] = f"honeycomb:{t}"
        return
    while True:
        dims = rng.choice([1, 2, 2, 2, 3, 3, 4])
        # Odd sizes, size-2 dimensions (one link per pair), rings of 3.
        s = [rng.choice([2, 3, 3, 4, 5, 6, 7]) for _ in range(dims)]
        if dims == 1:
            s = [rng.randint(2, 12)]
        if 2 <= math.prod(s) <= MAX_NODES:
            break
    cfg["topology"] = f"{kind}:" + "x".join(map(str, s))


def draw_routing(rng, cfg):
    kind = topology_kind(cfg)
    names = [r for r in ROUTINGS[kind] if not (r == "west-first" and len(sizes(cfg)) != 2)]
    if honeycomb_torus(cfg):  # the dateline routings of thin tori need too many VCs
        names = [r for r in names if hct.routing_vcs(cfg["topology"])[r] <= MAX_VCS]
    cfg["routing"] = rng.choice(names)
    if cfg["routing"] == "table":
        # A table generated by `wormnet tables` for this topology (the harness makes the file).
        cfg["_table_algorithm"] = rng.choice(TABLE_ALGORITHMS)
        cfg["tables"] = "@table"
    if kind == "torus" and cfg["routing"] in TIE_ROUTINGS and rng.random() < 0.4:
        cfg["ring-tie"] = rng.choice(["plus", "random", "alternating"])
    if not honeycomb_like(cfg) and cfg["routing"] not in BUBBLE_ROUTINGS and rng.random() < 0.3:
        cfg["flow-control"] = "bubble"   # dor + bubble: the Angara rings' flow control
    elif rng.random() < 0.08:
        cfg["flow-control"] = "bubble"   # cut-through anywhere (no ring: no bubble needed)
    elif rng.random() < 0.1:
        cfg["flow-control"] = "credit"


def draw_router(rng, cfg):
    need = vcs_needed(cfg)
    most = min(MAX_VCS, MAX_PORT_VCS // (ports(cfg) + 1))
    r = rng.random()
    if r < 0.35:
        pass  # what the routing needs
    elif r < 0.5:
        cfg["vcs"] = need
    else:
        cfg["vcs"] = rng.randint(need, most)
    if rng.random() < 0.4:
        cfg["vc-bandwidth"] = rng.choice(["per-vc", "shared"])
    # Duato's selection among its adaptive VCs, over every escape routing (one per kind).
    if rng.random() < (0.8 if cfg["routing"] == "duato" else 0.4):
        cfg["selection"] = rng.choice(["random", "priority", "least-occupied"])


def draw_trace(rng, n):
    """A random valid trace on n nodes (docs/workloads.md): (id, source, destination, flits,
    after, iteration, depends). Half the messages leave a node that an earlier message
    reached, and most depend on messages their source received or sent (chains of
    dependencies); sizes up to 64 flits, above --length-max's 20 too; some wait for a cycle
    (`after`); iteration labels 0..3, below the message count (wormnet's rule)."""
    msgs = []
    count = rng.randint(1, 60)
    for i in range(count):
        if msgs and rng.random() < 0.5:
            src = rng.choice(msgs)[2]
        else:
            src = rng.randrange(n)
        dst = rng.randrange(n - 1)
        dst += dst >= src
        flits = rng.choice(MESSAGE_SIZES) if rng.random() < 0.7 else rng.randint(1, 64)
        after = 0 if rng.random() < 0.7 else rng.randint(1, 300)
        seen = [m[0] for m in msgs if src in (m[1], m[2])]
        deps = sorted(rng.sample(seen, min(len(seen), rng.choice([0, 1, 1, 2, 3]))))
        # Drawn 0..3 and then capped, so that the draws after it stay as they were.
        msgs.append((i, src, dst, flits, after, min(rng.randint(0, 3), count - 1), tuple(deps)))
    return tuple(msgs)


def draw_workload(rng, cfg):
    """A closed-loop workload instead of open-loop traffic, a fifth of the time: a motif
    whose messages fit the budget (iterations, message size, process grid, mapping), or a
    random trace with dependencies, written by the harness (option 'trace' = '@trace')."""
    r = rng.random()
    n = nodes(cfg)
    if r < 0.13:
        motifs = [m for m in MOTIFS if motif_messages(m, n) <= WORKLOAD_MESSAGES]
        motif = rng.choice(motifs)
        cfg["workload"] = motif
        dims = grid_dimensions(motif)
        if dims and rng.random() < 0.3:
            grid = []
            rest = n
            for _ in range(dims - 1):
                f = rng.choice([d for d in range(1, rest + 1) if rest % d == 0])
                grid.append(f)
                rest //= f
            cfg["grid"] = "x".join(map(str, grid + [rest]))
        per_iteration = motif_messages(motif, n, [int(x) for x in cfg["grid"].split("x")]
                                       if "grid" in cfg else None)
        most = max(1, min(4, WORKLOAD_MESSAGES // max(1, per_iteration)))
        if rng.random() < 0.6:
            cfg["iterations"] = rng.randint(1, most)
        messages = per_iteration * cfg.get("iterations", 1)
        sizes_ = [f for f in MESSAGE_SIZES if messages * f <= WORKLOAD_FLITS] or [1]
        if rng.random() < 0.8 or messages * 16 > WORKLOAD_FLITS:
            cfg["message-size"] = rng.choice(sizes_)
        if rng.random() < 0.75:
            cfg["mapping"] = rng.choice(MAPPINGS)
    elif r < 0.2:
        cfg["workload"] = "trace"
        cfg["trace"] = "@trace"
        cfg["_trace"] = draw_trace(rng, n)


def draw_lengths(rng, cfg):
    if workload(cfg):
        return  # a workload's messages are its own
    short = bubble(cfg)  # bubble buffers hold two whole packets: keep packets short
    r = rng.random()
    top = 12 if short else 60
    if r < 0.4:
        cfg["length"] = rng.choice([1, 2, 3, 4, 5, 8, top // 2, top])
    elif r < 0.9:
        a = rng.randint(1, top)
        b = rng.randint(1, top)
        cfg["length-min"], cfg["length-max"] = min(a, b), max(a, b)
    else:
        if short:
            cfg["length"] = rng.randint(1, top)
        # else: the defaults (20 flits)


def draw_buffer(rng, cfg):
    if bubble(cfg):
        cfg["buffer"] = bubble_buffer_min(cfg) + rng.choice([0, 0, 1, 3, 8])
    elif rng.random() < 0.8:
        cfg["buffer"] = rng.choice([1, 1, 2, 3, 4, 5, 8, 16])


def draw_latencies(rng, cfg):
    for option, low, high in (("link-latency", 1, 4), ("credit-latency", 1, 4),
                              ("routing-delay", 0, 3), ("vc-alloc-delay", 0, 3),
                              ("switch-alloc-delay", 0, 3), ("switch-delay", 0, 3),
                              ("injection-latency", 0, 3), ("ejection-latency", 0, 3)):
        if rng.random() < 0.45:
            cfg[option] = rng.randint(low, high)


def draw_traffic(rng, cfg):
    if workload(cfg):
        return
    patterns = [p for p in PATTERNS if p != "transpose" or transpose_defined(cfg)]
    if rng.random() < 0.8:
        cfg["traffic"] = rng.choice(patterns)
    if cfg.get("traffic") == "hotspot":
        if rng.random() < 0.7:
            cfg["hotspot-fraction"] = round(rng.choice([0.0, 0.05, 0.3, 0.8, 1.0]), 2)
        if rng.random() < 0.7:
            n = nodes(cfg)
            cfg["hotspot-nodes"] = sorted(rng.sample(range(n), rng.randint(1, min(3, n))))
    if rng.random() < 0.5:
        cfg["process"] = rng.choice(["poisson", "bernoulli"])
    if cfg.get("traffic", "uniform") == "uniform" and rng.random() < 0.2:
        cfg["self-traffic"] = True


def deadlock_prone(cfg):
    return cfg["routing"] in DEADLOCK_PRONE and not bubble(cfg)


def draw_load(rng, cfg):
    """Idle to past saturation: absolute loads log-uniform over 1e-4..1, or fractions of the
    routing's saturation rate (N-1)/pi; deadlock-prone routings get high loads half the time
    (they deadlock only when worms meet)."""
    if workload(cfg):
        return
    if deadlock_prone(cfg) and rng.random() < 0.5:
        cfg["load"] = round(rng.uniform(0.05, 1.0), 3)
    elif rng.random() < 0.3:
        cfg["load-fraction"] = round(rng.choice([0.01, 0.1, 0.3, 0.6, 0.9, 1.0]), 3)
    else:
        cfg["load"] = float(f"{10 ** rng.uniform(-4, 0):.4g}")


def draw_measurement(rng, cfg):
    """Short runs: the cycles scale down with the network so that a run is a fraction of a
    second; deadlock-prone ones get a threshold that fits in them."""
    budget = 300_000 // nodes(cfg)  # router-cycles per run, about
    span = max(150, min(3000, budget))
    if workload(cfg):
        # Labelled from cycle 0, until every message is delivered: a drain limit far above
        # the completion time (an unfinished workload is issue 36's case 5).
        if rng.random() < 0.3:
            cfg["drain-limit"] = rng.randint(50_000, 200_000)
    else:
        cfg["warmup"] = rng.randint(0, span // 3)
        if rng.random() < 0.2:
            cfg["cycles"] = cfg["warmup"] + rng.randint(50, span)
        else:
            cfg["measure"] = rng.randint(50, span)
        cfg["drain-limit"] = rng.randint(50, span)
    cfg["stats-window"] = rng.choice([rng.randint(20, 400), 1000])
    low = min_deadlock_threshold(cfg)
    if rng.random() < 0.8:
        cfg["deadlock-threshold"] = rng.randint(low, max(low, min(1500, span)))
    if rng.random() < 0.8:
        cfg["seed"] = rng.randint(1, 2**31)


def draw_preset(rng, cfg):
    """--preset booksim: BookSim's timing for whatever was not given."""
    if rng.random() < 0.1:
        cfg["preset"] = "booksim"


def draw_partition(rng, cfg):
    if rng.random() < 0.7:
        cfg["partition"] = rng.choice(["geometric", "blocks", "metis"])


def draw_command(rng, cfg):
    """A run, or a sweep over a few loads (as fractions with --relative, or absolute); a
    workload is a run."""
    if workload(cfg) or rng.random() < 0.75:
        cfg["_command"] = "run"
        return
    cfg["_command"] = "sweep"
    relative = "load-fraction" in cfg
    cfg.pop("load", None)
    cfg.pop("load-fraction", None)
    k = rng.randint(1, 4)
    if relative:
        loads = sorted(round(rng.uniform(0.01, 1.0), 3) for _ in range(k))
    else:
        loads = sorted(float(f"{10 ** rng.uniform(-3.5, 0):.4g}") for _ in range(k))
    cfg["_loads"] = loads
    cfg["_relative"] = relative
    cfg["_after_saturation"] = rng.choice([None, 0, 1, 2])


def draw_early_stop(rng, cfg):
    """The early stop of saturated points (--stop-backlog, --stop-latency; issue 39) on some
    load points (never a workload's). An own Random: `rng` is not used, so no other draw moves;
    its salt leaves the golden seeds without it (they compare with binaries before it)."""
    del rng
    if "workload" in cfg:
        return
    # Salt 46: the first that leaves every golden seed without it, with this option space and
    # with main's of 153ec1c (workloads, faults); each option on 3 % of the configurations.
    local = random.Random("early stop (issue 39) 46 " + repr(cfg))
    if local.random() < 0.03:
        cfg["stop-backlog"] = local.choice([0.5, 2, 10, 40, 250])
    if local.random() < 0.03:
        cfg["stop-latency"] = local.choice([30, 100, 400, 2000])


def draw_congestion(rng, cfg):
    """Where packets wait (--congestion totals or series; issue 39) on some configurations. An own
    Random, as the early stop's: no other draw moves, and its salt leaves the golden seeds
    without it (they compare with binaries before it)."""
    del rng
    local = random.Random("congestion (issue 39) 1 " + repr(cfg))
    if local.random() < 0.05:
        cfg["congestion"] = "totals"
        # The channel view over time (--congestion series, which counts the totals too) on
        # half of them, with statistics windows long enough for its bound.
        if local.random() < 0.5:
            cfg["congestion"] = "series"
            while series_windows(cfg) > MAX_SERIES_WINDOWS:
                cfg["stats-window"] = cfg.get("stats-window", 1000) * 2


# --- faults (docs/faults.md) ------------------------------------------------------------------
#
# wormnet refuses at setup a routing that would take a failed channel for some working pair,
# so the option space draws only fault sets that wormnet runs. Besides tables made around
# faults (half the table-driven runs on a torus lose one to three random links: the harness
# makes their table with the same --fail-links, --fault-seed and --allow-unroutable, and the
# run drops the messages to pairs without a route, --drop-unroutable), the one family found
# by trying every single failed node and link of small networks with every routing is
# west-first on a 2-D mesh without one or both of its east corners (x = kx - 1, y = 0 or ky - 1): listed in a fault file, or drawn at random by
# --fail-nodes 1 with a --fault-seed whose draw (wormnet's documented algorithm, mirrored in
# first_random_node) is such a corner. The faults come from a random.Random of their own,
# seeded by the configuration drawn before them: adding them changed no other option of any
# seed. A fault file's text is kept in the configuration ("_fault_text") and written, named by
# its SHA-1, into a folder of the temporary directory when a command line or a --config file
# needs its path (fault_file_path).

MASK64 = (1 << 64) - 1


def mix64(z):
    """SplitMix64's finalizer (core/rng.hpp)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def first_random_node(seed, count):
    """The node --fail-nodes 1 --fault-seed `seed` fails on a network of `count` nodes none of
    which splits it when it fails (any mesh of two sizes >= 2): candidate uniform_int(0,
    count - 1) of the first draw of RandomStream(seed, 0) (topology/random_faults.hpp)."""
    key = mix64((mix64(seed ^ 0x6A09E667F3BCC909) + 0 * 0x9E3779B97F4A7C15) & MASK64)
    u = mix64((key + 1 * 0x9E3779B97F4A7C15) & MASK64)
    return ((u >> 32) * count) >> 32


def east_corners(cfg):
    """Node ids of the east corners (x = kx - 1, y = 0 and ky - 1) of a 2-D mesh: x + kx y."""
    kx, ky = sizes(cfg)
    return [kx - 1, kx - 1 + kx * (ky - 1)]


def failed_nodes(cfg):
    """Ids of the nodes the configuration's faults fail ([] without faults)."""
    if "fail-nodes" in cfg:
        return [first_random_node(cfg.get("fault-seed", 1), nodes(cfg))]
    if "faults" in cfg:
        kx = sizes(cfg)[0]
        return [x + kx * y for x, y in cfg["_fault_nodes"]]
    return []


def faulty_table(cfg):
    """A table made around random failed links (docs/tables.md section 8): --routing table on
    a torus with --fail-links only, its messages to pairs without a route dropped."""
    return (cfg["routing"] == "table" and topology_kind(cfg) == "torus" and "fail-links" in cfg
            and "faults" not in cfg and "fail-nodes" not in cfg)


def fault_args(cfg):
    """The fault options `wormnet tables` makes the configuration's table with."""
    if not faulty_table(cfg):
        return []
    return ["--fail-links", str(cfg["fail-links"]), "--fault-seed",
            str(cfg.get("fault-seed", 1)), "--allow-unroutable"]


def faults_valid(cfg):
    """The fault options as wormnet takes them and runs them (see above)."""
    random_draw = "fail-nodes" in cfg or "fail-links" in cfg
    if not random_draw and "fault-seed" in cfg:
        return False
    if "drop-unroutable" in cfg and not faulty_table(cfg):
        return False
    if faulty_table(cfg):
        # The random draw keeps the working nodes connected: at most the links beyond a
        # spanning tree can fail (a size-2 dimension has one link per node pair, others one
        # per node).
        links = sum(nodes(cfg) // (2 if k == 2 else 1) for k in sizes(cfg))
        # Closed-loop workloads and traces do not run on a network with faults.
        return ("allow-disconnected" not in cfg and "workload" not in cfg and
                "trace" not in cfg and cfg["fail-links"] <= links - (nodes(cfg) - 1))
    if not (random_draw or "faults" in cfg):
        return "allow-disconnected" not in cfg
    if cfg["routing"] != "west-first" or topology_kind(cfg) != "mesh" or len(sizes(cfg)) != 2:
        return False
    if "fail-links" in cfg or cfg.get("fail-nodes", 1) != 1:
        return False
    if "faults" in cfg:
        kx, ky = sizes(cfg)
        if any(not (0 <= x < kx and 0 <= y < ky) for x, y in cfg["_fault_nodes"]):
            return False
    failed = failed_nodes(cfg)
    if not set(failed) <= set(east_corners(cfg)) or len(set(failed)) != len(failed):
        return False
    return not set(failed) & set(cfg.get("hotspot-nodes", [0]) if cfg.get("traffic") ==
                                 "hotspot" else [])


def draw_faults(rng, cfg):
    """Half the west-first runs on a 2-D mesh lose one or both east corners (a file), or one
    drawn at random; half the table-driven runs on a torus lose one to three random links,
    with a table made around them (faulty_table); an own Random: `rng` is not used, so no
    other draw moves."""
    del rng
    if workload(cfg):
        return  # a workload on a faulty network is refused (docs/faults.md)
    if cfg["routing"] == "table" and topology_kind(cfg) == "torus":
        # Its own salt: the golden seeds' table configuration stays without faults (it is
        # compared with binaries that made no tables around faults).
        local = random.Random("faulty tables (docs/tables.md section 8): " + repr(cfg))
        if local.random() < 0.5:
            cfg["fail-links"] = local.randint(1, 3)
            cfg["fault-seed"] = local.randint(1, 1000)
            cfg["drop-unroutable"] = True
        return
    if cfg["routing"] != "west-first" or topology_kind(cfg) != "mesh":
        return
    # The salt leaves the golden seeds (golden.py) without faults: they compare results with
    # binaries from before faults existed.
    local = random.Random("faults (docs/faults.md) " + repr(cfg))
    if local.random() < 0.5:
        return
    kx, ky = sizes(cfg)
    corners = [(kx - 1, 0), (kx - 1, ky - 1)]
    if local.random() < 0.5:
        chosen = local.sample(corners, local.randint(1, 2))
        lines = ["# east corners of " + cfg["topology"]]
        lines += [f"node ({x},{y})" + ("   # a comment" if local.random() < 0.3 else "")
                  for x, y in chosen]
        cfg["faults"] = "@faults"
        cfg["_fault_nodes"] = chosen
        cfg["_fault_text"] = "\n".join(lines) + "\n"
    else:
        targets = set(east_corners(cfg))
        start = local.randint(1, 2**31)
        seed = next(s for s in range(start, start + 100 * nodes(cfg))
                    if first_random_node(s, nodes(cfg)) in targets)
        cfg["fail-nodes"] = 1
        cfg["fault-seed"] = seed
    if local.random() < 0.2:
        cfg["allow-disconnected"] = True
    if cfg.get("traffic") == "hotspot" and "hotspot-nodes" in cfg:
        cfg["hotspot-nodes"] = [h for h in cfg["hotspot-nodes"] if h not in failed_nodes(cfg)]
        if not cfg["hotspot-nodes"]:
            del cfg["hotspot-nodes"]  # node 0, the west corner, works


def fault_file_path(cfg):
    """The path of the configuration's fault file, written on first use."""
    text = cfg["_fault_text"]
    folder = os.path.join(tempfile.gettempdir(), "wormnet-differential-faults")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, hashlib.sha1(text.encode()).hexdigest() + ".txt")
    if not os.path.exists(path):
        temporary = f"{path}.{os.getpid()}"
        with open(temporary, "w") as f:
            f.write(text)
        os.replace(temporary, path)
    return path


def draw_processes(rng, cfg):
    """A third of the motifs get several processes per node, computation or both, or become
    an NPB skeleton (docs/workloads.md); an own Random: `rng` is not used, so no other draw
    moves and the golden seeds (golden.py) keep their configurations."""
    del rng
    w = workload(cfg)
    if w not in MOTIFS or any(k in cfg for k in ("faults", "fail-nodes", "fail-links")):
        return
    local = random.Random("processes per node and computation (docs/workloads.md) " + repr(cfg))
    if local.random() < 2 / 3:
        return
    n = nodes(cfg)
    iterations = local.choice([1, 2])
    # A skeleton needs a power of two of processes: on a network of 2^m nodes.
    choices = [(s_, k) for s_ in NPB_SKELETONS for k in (1, 2, 4, 8)
               if n * k <= NPB_MAX_PROCESSES and (n * k) & (n * k - 1) == 0 and
               npb_messages(s_, n * k, iterations) <= WORKLOAD_MESSAGES]
    if choices and local.random() < 0.6:
        # An NPB skeleton, its 1-flit messages fitting the buffer drawn for the motif (bubble
        # flow control: two of them).
        for k in ("message-size", "grid", "iterations"):
            cfg.pop(k, None)
        skeleton, per_node = local.choice(choices)
        cfg["workload"] = skeleton
        cfg["npb-class"] = "S"
        cfg["npb-scale"] = NPB_SCALE
        if per_node > 1:
            cfg["processes-per-node"] = per_node
        if iterations > 1:
            cfg["iterations"] = iterations
        if local.random() < 0.6:
            cfg["compute-rate"] = local.choice([0.01, 0.1, 1.0])
    else:
        # The motif on K processes per node (a drawn grid grows along its first side), within
        # the message budget; computation in its steps.
        fits = []
        for k in (2, 3, 4):
            trial = dict(cfg, **{"processes-per-node": k})
            if "grid" in cfg:
                g = [int(x) for x in cfg["grid"].split("x")]
                trial["grid"] = "x".join(map(str, [g[0] * k] + g[1:]))
            messages = workload_messages(trial)
            if messages <= WORKLOAD_MESSAGES and \
                    messages * cfg.get("message-size", 16) <= WORKLOAD_FLITS:
                fits.append(trial)
        if fits and local.random() < 0.7:
            cfg.clear()
            cfg.update(local.choice(fits))
        if local.random() < 0.6:
            cfg["compute-cycles"] = local.randint(1, 20)
    if cfg.get("processes-per-node", 1) > 1 and local.random() < 0.4:
        cfg["local-latency"] = local.randint(1, 30)


# In order: each may read what the ones before it drew.
GENERATORS = [
    ("topology", draw_topology),
    ("routing and flow control", draw_routing),
    ("VCs, bandwidth, selection", draw_router),
    ("workload", draw_workload),
    ("message lengths", draw_lengths),
    ("buffer", draw_buffer),
    ("latencies and pipeline", draw_latencies),
    ("traffic", draw_traffic),
    ("load", draw_load),
    ("preset", draw_preset),
    ("measurement", draw_measurement),
    ("partition", draw_partition),
    ("command", draw_command),
    ("faults", draw_faults),
    ("processes per node, computation, NPB skeletons", draw_processes),
    ("early stop", draw_early_stop),
    ("congestion", draw_congestion),
]


def draw(seed):
    """The configuration of `seed` (a pure function of it)."""
    rng = random.Random(seed)
    for _ in range(100):
        cfg = {}
        for _, generator in GENERATORS:
            generator(rng, cfg)
        if valid(cfg):
            return cfg
    raise RuntimeError(f"seed {seed}: the generators keep drawing invalid configurations")


# --- command lines ------------------------------------------------------------------------

def trace_text(cfg):
    """The trace of a `--workload trace` configuration as the CSV file wormnet reads."""
    lines = ["# drawn by tests/differential/option_space.py",
             "id,source,destination,flits,after,iteration,depends"]
    for mid, src, dst, flits, after, iteration, deps in cfg["_trace"]:
        lines.append(f"{mid},{src},{dst},{flits},{after},{iteration},{' '.join(map(str, deps))}")
    return "\n".join(lines) + "\n"


def options(cfg, tables=None, trace=None):
    """The wormnet options of `cfg` as a list of arguments (the table and trace files
    substituted)."""
    args = []
    for k, v in cfg.items():
        if k.startswith("_"):
            continue
        if k == "tables":
            v = tables
        if k == "trace":
            v = trace
        if k == "faults":
            v = fault_file_path(cfg)
        if v is True:
            args.append(f"--{k}")  # a flag
        elif isinstance(v, list):
            args += [f"--{k}", ",".join(map(str, v))]
        else:
            args += [f"--{k}", str(v)]
    if cfg.get("_command") == "sweep":
        args += ["--loads", ",".join(map(str, cfg["_loads"]))]
        if cfg["_relative"]:
            args.append("--relative")
        if cfg["_after_saturation"] is not None:
            args += ["--after-saturation", str(cfg["_after_saturation"])]
    return args


def toml(cfg, tables=None, loads=None):
    """The options of `cfg` as a --config file (as runs/slurm's sweep array uses), the loads
    excepted unless given."""
    lines = []
    for k, v in cfg.items():
        if k.startswith("_"):
            continue
        if k == "tables":
            v = tables
        if k == "faults":
            v = fault_file_path(cfg)
        if v is True:
            lines.append(f"{k} = true")
        elif isinstance(v, str):
            lines.append(f'{k} = "{v}"')
        elif isinstance(v, list):
            lines.append(f"{k} = [{', '.join(map(str, v))}]")
        else:
            lines.append(f"{k} = {v}")
    if cfg.get("_command") == "sweep":
        if cfg["_relative"]:
            lines.append("relative = true")
        if cfg["_after_saturation"] is not None:
            lines.append(f"after-saturation = {cfg['_after_saturation']}")
        if loads is not None:
            lines.append(f"loads = [{', '.join(map(str, loads))}]")
    return "\n".join(lines) + "\n"


def describe(cfg):
    trace = f"<trace of {len(cfg['_trace'])} messages>" if "_trace" in cfg else None
    text = " ".join(options(cfg, tables=f"<{cfg.get('_table_algorithm')} table>", trace=trace))
    if "faults" in cfg:
        text += " (fault file: " + "; ".join(cfg["_fault_text"].splitlines()) + ")"
    return text


# --- simplification (for shrinking a failing configuration) --------------------------------

def smaller_topologies(cfg):
    kind = topology_kind(cfg)
    s = sizes(cfg)
    if honeycomb_torus(cfg):
        _, a, b = hct.parse(cfg["topology"])
        if kind == "honeycomb-torus":
            for t in sorted({1, 2, a // 2, a - 1}):
                if 1 <= t < a:
                    yield f"{kind}:{t}"
            return
        even = 2 if kind == "honeycomb-rect" else 1  # HReT's column count is even
        for m in sorted({2, a // 2 // even * even, a - even}):
            if 2 <= m < a:
                yield f"{kind}:{m}x{b}"
        for n in sorted({4, b // 4 * 2, b - 2}):  # row counts are even
            if 4 <= n < b:
                yield f"{kind}:{a}x{n}"
        return
    if kind == "honeycomb":
        for t in sorted({1, 2, s[0] // 2, s[0] - 1}):
            if 1 <= t < s[0]:
                yield f"honeycomb:{t}"
        return
    for d in range(len(s)):
        if len(s) > 1:
            yield f"{kind}:" + "x".join(map(str, s[:d] + s[d + 1:]))
    for d in range(len(s)):
        for k in sorted({2, 3, s[d] - 1}):
            if 2 <= k < s[d]:
                yield f"{kind}:" + "x".join(map(str, s[:d] + [k] + s[d + 1:]))


def simplifications(cfg):
    """Simpler neighbours of `cfg`, simplest changes first: (description, configuration).
    Invalid ones are left out."""
    out = []

    def offer(what, change):
        c = dict(cfg)
        change(c)
        if c != cfg and valid(c):
            out.append((what, c))

    for t in smaller_topologies(cfg):
        def set_topology(c, t=t):
            c["topology"] = t
            c.pop("hotspot-nodes", None)
            c.pop("grid", None)
        offer(f"topology {t}", set_topology)
    if "_trace" in cfg and len(cfg["_trace"]) > 1:
        # The first half of the messages (dependencies only point back).
        half = cfg["_trace"][:len(cfg["_trace"]) // 2]
        offer(f"the first {len(half)} messages of the trace",
              lambda c: c.__setitem__("_trace", half))
    if cfg.get("_command") == "sweep":
        loads = cfg["_loads"]
        for i in range(len(loads)):
            if len(loads) > 1:
                offer(f"without load {loads[i]}",
                      lambda c, i=i: c.__setitem__("_loads", loads[:i] + loads[i + 1:]))
        offer("no after-saturation", lambda c: c.__setitem__("_after_saturation", None))
    def no_faults(c):
        for k in ("faults", "fail-nodes", "fail-links", "fault-seed", "allow-disconnected",
                  "drop-unroutable", "_fault_text", "_fault_nodes"):
            c.pop(k, None)
    offer("no faults", no_faults)
    for k in list(cfg):
        if k in ("topology", "routing", "tables", "workload", "trace", "faults") or \
                k.startswith("_"):
            continue
        offer(f"default {k}", lambda c, k=k: c.pop(k))
    for k in ("measure", "cycles", "drain-limit", "warmup"):
        if cfg.get(k, 0) > 60:
            offer(f"{k} halved", lambda c, k=k: c.__setitem__(k, max(cfg.get("warmup", 0) + 1
                                                                      if k == "cycles" else 1,
                                                                      cfg[k] // 2)))
    for k in ("length", "length-max", "buffer", "vcs", "iterations", "message-size"):
        if cfg.get(k, 0) > 1:
            offer(f"{k} smaller", lambda c, k=k: c.__setitem__(k, max(1, cfg[k] // 2)))
    return out
