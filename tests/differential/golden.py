"""The golden set: a fixed list of seeds whose configurations, together, cover every topology
kind, every routing and the options that change what the router does, on 1 and more ranks
and with restarts. `harness.py --golden --versus OLD` runs them all and compares every
results file, dataset by dataset, with the one binary OLD writes: the safety net of a
refactoring that must change no result (docs/differential-testing.md).

A seed's configuration is drawn by option_space.py, so when the generators change the seeds
may stop covering what they covered. REQUIRED lists what the set must cover; `--golden`
checks it before it runs anything and refuses a set that lost coverage, and `--pick-golden`
picks a new list (a greedy cover, cheapest configurations first) to paste into GOLDEN_SEEDS.
Outcomes (a deadlock, a saturated point) are only known after the runs: OUTCOMES are checked
at the end.
"""
import honeycomb_tori as hct
import option_space as space

# Seeds whose reference runs deadlock (minimal-adaptive on H_3 at a high load, stojmenovic on
# H_3 under a halo2d workload; also in CI_SEEDS), so that deadlock reports are compared too:
# --pick-golden keeps them.
DEADLOCK_SEEDS = [125, 176]
# Picked by `harness.py --pick-golden 3000` with the option space of issue 36 (workloads,
# traces, random honeycomb tori, Duato's selections, the skewed walk); then 256, 1370 and
# 1849 added by golden.pick(3000, keep=the others) for the NPB skeletons, processes per node,
# computation and the early stop.
GOLDEN_SEEDS = [1, 55, 56, 79, 91, 100, 108, 124, 125, 133, 175, 176, 195, 205, 219, 230, 256,
                292, 368, 514, 587, 937, 1075, 1326, 1370, 1672, 1849, 2016, 2132, 2194, 2276,
                2362, 2665, 2786]

KIND_FAMILY = {"honeycomb": "honeycomb", "mesh": "mesh", "torus": "torus",
               "honeycomb-torus": "honeycomb-tori", "honeycomb-rect": "honeycomb-tori",
               "honeycomb-rhombic": "honeycomb-tori"}


def features(cfg, plan, walk_plan=None):
    """What one configuration and its check plan exercise, as a set of short names
    (`walk_plan`: harness.walk_plan, whether the plan's skewed walk reaches the network)."""
    kind = space.topology_kind(cfg)
    f = {f"topology {kind}", f"routing {KIND_FAMILY[kind]}/{cfg['routing']}",
         f"command {cfg['_command']}"}
    if cfg["routing"] == "duato":
        f.add(f"duato {KIND_FAMILY[kind]} selection {cfg.get('selection', 'priority')}")
    if space.honeycomb_torus(cfg):
        _, a, b = hct.parse(cfg["topology"])
        if kind != "honeycomb-torus" and max(a, b) >= 5 * min(a, b):
            f.add("honeycomb torus of extreme aspect ratio")
        if hct.lattice_facts(cfg["topology"])["levels"] > 3:
            f.add("honeycomb torus with more than 3 dateline levels")
    w = space.workload(cfg)
    if w:
        f.add(f"workload {w}")
        if space.bubble(cfg):
            f.add("workload with bubble flow control")
        if space.largest_message(cfg) > space.LENGTH_MAX_DEFAULT:
            f.add("workload messages above --length-max")
        if w == "trace" and any(m[6] for m in cfg["_trace"]):
            f.add("trace with dependencies")
        if w != "trace":
            f.add(f"mapping {cfg.get('mapping', 'linear')}")
            if cfg.get("iterations", 1) > 1:
                f.add("workload of several iterations")
            if "grid" in cfg:
                f.add("workload --grid")
    if any(k in cfg for k in ("faults", "fail-links", "fail-nodes")):
        f.add("faults")
    if w in space.NPB_SKELETONS:
        f.add("NPB skeleton")
    if cfg.get("processes-per-node", 1) > 1:
        f.add("several processes per node")
    if any(k in cfg for k in ("compute-cycles", "compute-rate")):
        f.add("computation between messages")
    if any(k in cfg for k in ("stop-backlog", "stop-latency")):
        f.add("early stop of a saturated point")
    if walk_plan and walk_plan(plan, cfg):
        f.add("skewed walk")
        if plan["walk_stop"]:
            f.add("skewed walk stopped and restarted")
    if cfg["routing"] == "table":
        f.add(f"table {cfg['_table_algorithm']}")
    if cfg.get("flow-control") == "bubble" and cfg["routing"] == "dor":
        f.add("dor with bubble flow control")
    if space.bubble(cfg):
        f.add("bubble flow control")
    for option in ("vc-bandwidth", "selection", "ring-tie", "partition", "process", "traffic",
                   "preset"):
        if option in cfg:
            f.add(f"{option} {cfg[option]}")
    if cfg.get("vcs", space.vcs_needed(cfg)) > space.vcs_needed(cfg):
        f.add("more VCs than the routing needs")
    for option in ("link-latency", "credit-latency"):
        if cfg.get(option, 1) > 1:
            f.add(f"{option} > 1")
    if any(cfg.get(o, 1) > 1 for o in ("routing-delay", "vc-alloc-delay", "switch-alloc-delay",
                                       "switch-delay")):
        f.add("pipeline delay > 1")
    if any(cfg.get(o, 1) == 0 for o in ("routing-delay", "vc-alloc-delay", "switch-alloc-delay",
                                        "switch-delay")):
        f.add("pipeline delay 0")
    if cfg.get("injection-latency", 0) > 0 or cfg.get("ejection-latency", 0) > 0:
        f.add("terminal latency > 0")
    if "length-min" in cfg or "length-max" in cfg:
        f.add("variable message length")
    if cfg.get("self-traffic"):
        f.add("self-traffic")
    if "load-fraction" in cfg or cfg.get("_relative"):
        f.add("load relative to the saturation rate")
    if "cycles" in cfg:
        f.add("--cycles")
    if cfg["_command"] == "sweep" and len(cfg["_loads"]) > 1:
        f.add("sweep of several loads")
    ranks = {plan["ranks"]} | set(plan["restart_ranks"][:plan["stops"] + 1])
    if 2 in ranks:
        f.add("2 ranks")
    if max(ranks) >= 3:
        f.add("3 or more ranks")
    if plan["ranks"] >= 2 and plan["checkpoint_every"]:
        f.add("periodic checkpoints")
    if plan["stops"] == 2:
        f.add("stopped twice")
    if plan["restart_alone"]:
        f.add("restart from the checkpoint alone")
    if plan["restart_ranks"][0] != plan["restart_ranks"][1]:
        f.add("restart on another rank count")
    return f


# What the golden set must cover (every routing of every topology kind, and these options).
REQUIRED = (
    {f"topology {k}" for k in KIND_FAMILY}
    | {f"routing {family}/{r}" for kind, family in KIND_FAMILY.items()
       for r in space.ROUTINGS[kind]}
    | {"command run", "command sweep", "sweep of several loads", "dor with bubble flow control",
       "vc-bandwidth per-vc", "selection random", "selection least-occupied", "ring-tie random",
       "ring-tie alternating", "more VCs than the routing needs", "link-latency > 1",
       "credit-latency > 1", "pipeline delay > 1", "pipeline delay 0", "terminal latency > 0",
       "variable message length", "self-traffic", "preset booksim", "process bernoulli",
       "load relative to the saturation rate", "--cycles", "partition metis",
       "partition blocks", "2 ranks", "3 or more ranks", "periodic checkpoints",
       "stopped twice", "restart from the checkpoint alone", "restart on another rank count"}
    | {f"traffic {p}" for p in space.PATTERNS}
    | {f"duato {family} selection {sel}" for family in set(KIND_FAMILY.values())
       for sel in ("priority", "random", "least-occupied")}
    | {"honeycomb torus of extreme aspect ratio",
       "honeycomb torus with more than 3 dateline levels"}
    | {f"workload {w}" for w in space.MOTIFS + ("trace",)}
    | {f"mapping {m}" for m in space.MAPPINGS}
    | {"workload with bubble flow control", "workload messages above --length-max",
       "trace with dependencies", "workload of several iterations", "workload --grid",
       "skewed walk", "skewed walk stopped and restarted"}
    | {"faults", "NPB skeleton", "several processes per node", "computation between messages",
       "early stop of a saturated point"}
)
# Outcomes of the reference runs the set must include (known only after running).
OUTCOMES = {"complete", "saturated", "deadlock"}


def coverage(seeds, plan_for, walk_plan=None):
    """The union of the features of `seeds` and what REQUIRED misses."""
    covered = set()
    for s in seeds:
        cfg = space.draw(s)
        covered |= features(cfg, plan_for(s, cfg), walk_plan)
    return covered, REQUIRED - covered


def pick(max_seed, plan_for, keep=(), walk_plan=None):
    """A greedy cover of REQUIRED by seeds 1..max_seed, starting from `keep`: each step takes
    the seed that adds the most missing features, the smaller network among equals. Networks
    of 12 to 216 nodes come first (a hexagon or a 2-node torus exercises little, and METIS
    cannot split the smallest over several ranks); smaller ones only for what they alone
    cover."""
    chosen = list(keep)
    covered, missing = coverage(chosen, plan_for, walk_plan)
    table = {}
    for s in range(1, max_seed + 1):
        cfg = space.draw(s)
        table[s] = (features(cfg, plan_for(s, cfg), walk_plan) & REQUIRED, space.nodes(cfg))
    for sizeable in (True, False):
        candidates = [s for s in table if not sizeable or 12 <= table[s][1] <= 216]
        while missing:
            best = max(candidates, key=lambda s: (len(table[s][0] & missing), -table[s][1], -s))
            gain = table[best][0] & missing
            if not gain:
                break
            chosen.append(best)
            missing -= gain
    return chosen, missing
