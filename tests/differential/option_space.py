"""The option space of `wormnet run` and `wormnet sweep`, as a table of generators.

A configuration is an ordered dict {long option name: value} plus a few keys that are not
wormnet options (they start with '_': the command, the sweep's loads). It is drawn by the
generators of GENERATORS in order, each from a random.Random and the options drawn before it
(the routing depends on the topology, the buffer on the lengths and the flow control, ...),
and it is always a configuration wormnet accepts: `valid()` restates wormnet's input rules
that the generators must respect, so that a refusal (exit 2) is a finding, not noise.

To cover a new option, add a generator (and, if it constrains others, a rule to `valid()`
and a simplification to simplifications()); to cover a new topology or routing, extend
`draw_topology` / ROUTINGS. Nothing here runs wormnet.
"""
import math
import random

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
# Honeycomb tori (HT_T, and Cho & Hsu's rectangular and rhombic ones), spec -> nodes: the
# dateline routings' VC counts depend on the torus's periods, so a fixed list of sizes whose
# counts `wormnet verify` reports as HONEYCOMB_TORUS_ROUTINGS says (sizes whose periods need
# more than 8 VCs are refused).
HONEYCOMB_TORI = {
    "honeycomb-torus:1": 6, "honeycomb-torus:2": 24, "honeycomb-torus:3": 54,
    "honeycomb-torus:4": 96, "honeycomb-rect:2x4": 8, "honeycomb-rect:4x4": 16,
    "honeycomb-rhombic:2x4": 8, "honeycomb-rhombic:4x4": 16,
}
HONEYCOMB_TORUS_ROUTINGS = {"stojmenovic": 1, "stojmenovic-dateline": 3,
                            "double-xy-dateline": 6, "minimal-adaptive": 1, "duato": 7}
for _kind in ("honeycomb-torus", "honeycomb-rect", "honeycomb-rhombic"):
    ROUTINGS[_kind] = HONEYCOMB_TORUS_ROUTINGS
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


def nodes(cfg):
    if cfg["topology"] in HONEYCOMB_TORI:
        return HONEYCOMB_TORI[cfg["topology"]]
    if topology_kind(cfg) == "honeycomb":
        return 6 * sizes(cfg)[0] ** 2
    return math.prod(sizes(cfg))


def ports(cfg):
    return 6 if honeycomb_like(cfg) else 2 * len(sizes(cfg))


def vcs_needed(cfg):
    return ROUTINGS[topology_kind(cfg)][cfg["routing"]]


def bubble(cfg):
    return cfg["routing"] in BUBBLE_ROUTINGS or cfg.get("flow-control") == "bubble"


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


def valid(cfg):
    """wormnet's input rules that the generators and the shrinker must respect (a restatement
    for the harness; wormnet itself is the authority and refuses anything else with exit 2)."""
    kind = topology_kind(cfg)
    if cfg["routing"] not in ROUTINGS[kind]:
        return False
    if kind == "honeycomb":
        if sizes(cfg)[0] < 1:
            return False
    elif honeycomb_like(cfg):
        if cfg["topology"] not in HONEYCOMB_TORI:
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
    if bubble(cfg) and cfg.get("buffer", 4) < 2 * length_max(cfg):
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
    if not measurable(cfg):
        return False
    return True


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
    if "measure" not in cfg and "cycles" not in cfg and "load" not in cfg and \
            "load-fraction" not in cfg and "_loads" not in cfg:
        return True
    n = nodes(cfg)
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

def draw_topology(rng, cfg):
    kind = rng.choice(["honeycomb", "honeycomb", "torus", "torus", "mesh", "honeycomb-tori"])
    if kind == "honeycomb-tori":
        cfg["topology"] = rng.choice(sorted(HONEYCOMB_TORI))
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
    if rng.random() < 0.4:
        cfg["selection"] = rng.choice(["random", "priority", "least-occupied"])


def draw_lengths(rng, cfg):
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
        cfg["buffer"] = 2 * length_max(cfg) + rng.choice([0, 0, 1, 3, 8])
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
    """A run, or a sweep over a few loads (as fractions with --relative, or absolute)."""
    if rng.random() < 0.75:
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


# In order: each may read what the ones before it drew.
GENERATORS = [
    ("topology", draw_topology),
    ("routing and flow control", draw_routing),
    ("VCs, bandwidth, selection", draw_router),
    ("message lengths", draw_lengths),
    ("buffer", draw_buffer),
    ("latencies and pipeline", draw_latencies),
    ("traffic", draw_traffic),
    ("load", draw_load),
    ("preset", draw_preset),
    ("measurement", draw_measurement),
    ("partition", draw_partition),
    ("command", draw_command),
    ("early stop", draw_early_stop),
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

def options(cfg, tables=None):
    """The wormnet options of `cfg` as a list of arguments (the table file substituted)."""
    args = []
    for k, v in cfg.items():
        if k.startswith("_"):
            continue
        if k == "tables":
            v = tables
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
    return " ".join(options(cfg, tables=f"<{cfg.get('_table_algorithm')} table>"))


# --- simplification (for shrinking a failing configuration) --------------------------------

def smaller_topologies(cfg):
    kind = topology_kind(cfg)
    s = sizes(cfg)
    if honeycomb_like(cfg) and kind != "honeycomb":
        for t in sorted(HONEYCOMB_TORI):
            if HONEYCOMB_TORI[t] < nodes(cfg):
                yield t
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
        offer(f"topology {t}", set_topology)
    if cfg.get("_command") == "sweep":
        loads = cfg["_loads"]
        for i in range(len(loads)):
            if len(loads) > 1:
                offer(f"without load {loads[i]}",
                      lambda c, i=i: c.__setitem__("_loads", loads[:i] + loads[i + 1:]))
        offer("no after-saturation", lambda c: c.__setitem__("_after_saturation", None))
    for k in list(cfg):
        if k in ("topology", "routing", "tables") or k.startswith("_"):
            continue
        offer(f"default {k}", lambda c, k=k: c.pop(k))
    for k in ("measure", "cycles", "drain-limit", "warmup"):
        if cfg.get(k, 0) > 60:
            offer(f"{k} halved", lambda c, k=k: c.__setitem__(k, max(cfg.get("warmup", 0) + 1
                                                                      if k == "cycles" else 1,
                                                                      cfg[k] // 2)))
    for k in ("length", "length-max", "buffer", "vcs"):
        if cfg.get(k, 0) > 1:
            offer(f"{k} smaller", lambda c, k=k: c.__setitem__(k, max(1, cfg[k] // 2)))
    return out
