#!/usr/bin/env python3
"""wormnet side by side with BookSim2 (docs/fidelity.md).

Runs both simulators on the configurations of docs/fidelity.md and prints one table: zero-load
latency, saturation throughput (bisection over the offered load) and, for the same simulated
cycles, whole-process CPU time (user + sys) and peak memory of each. BookSim is not part of
wormnet: build it yourself outside this tree and give its binary's path.

  runs/fidelity/compare.py --booksim /path/to/booksim [--wormnet build/release/src/wormnet]
                           [--only mesh-b4,torus-booksim] [--steps N] [--out DIR]
                           [--booksim-dateline PATCHED] [--large] [--seeds N]

Every child runs under `nice -n 19` (the machine is shared; `--nice N` to change: on a busy
machine 19 starves them). A point is stable when its
accepted rate is at least 95 % of the offered one and the mean latency of the measured
packets stays below three times that simulator's zero-load latency (BookSim's latency_thres,
past which it aborts a run, is set to the same limit); wormnet must also not flag it
saturated.
Saturation = the highest stable load the bisection found, with its bracket. With --seeds N
every zero-load and saturation point is run with N seeds and judged on the means (BookSim's
abort off, since an aborted run has no figures to pool). After each
configuration's two rows comes the verdict row: wormnet's deviation from BookSim (zero-load
latency; saturation by the brackets' midpoints) against the tolerances of docs/fidelity.md,
3 % and 5 %. Bad arguments: one line on stderr, exit code 2. Standard library only.
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile

# Timing both simulators share: 2 VCs, BookSim's iq router with 1-cycle stages (wormnet's
# defaults), uniform Bernoulli traffic with rates in flits. --preset booksim sets wormnet's
# credit latency (link + 1), terminal latencies, self-traffic and random half-ring ties.
CONFIGS = [
    {
        "name": "mesh-b4",
        "title": "mesh 16x16 xy, buffer 4, 20 flits",
        "booksim": {"topology": "mesh", "k": 16, "n": 2, "routing_function": "dim_order",
                    "vc_buf_size": 4, "packet_size": 20},
        "wormnet": ["-t", "mesh:16x16", "-r", "xy", "--buffer", "4", "--length", "20"],
        "bracket": (0.10, 0.18),
    },
    {
        "name": "mesh-b1",
        "title": "mesh 16x16 xy, buffer 1, 20 flits",
        "booksim": {"topology": "mesh", "k": 16, "n": 2, "routing_function": "dim_order",
                    "vc_buf_size": 1, "packet_size": 20},
        "wormnet": ["-t", "mesh:16x16", "-r", "xy", "--buffer", "1", "--length", "20"],
        "bracket": (0.03, 0.065),
        "speed_load": 0.04,
    },
    {
        "name": "mesh-var",
        "title": "mesh 16x16 xy, buffer 4, 10..200 flits",
        "booksim": {"topology": "mesh", "k": 16, "n": 2, "routing_function": "dim_order",
                    "vc_buf_size": 4,
                    "packet_size": "{{" + ",".join(str(s) for s in range(10, 201)) + "}}"},
        "wormnet": ["-t", "mesh:16x16", "-r", "xy", "--buffer", "4", "--length-min", "10",
                    "--length-max", "200"],
        "bracket": (0.08, 0.16),
        # Packet sizes vary 20-fold: the zero-load mean needs some 2,500 packets for 1 %.
        "zero_measure": 200000,
    },
    {
        "name": "torus-booksim",
        "title": "torus 8x8x8 dor-booksim, buffer 4, 4 flits, links 2",
        "booksim": {"topology": "torus", "k": 8, "n": 3, "routing_function": "dim_order",
                    "vc_buf_size": 4, "packet_size": 4},
        "wormnet": ["-t", "torus:8x8x8", "-r", "dor-booksim", "--buffer", "4", "--length", "4",
                    "--link-latency", "2"],
        "bracket": (0.16, 0.22),
        "steps": 4,
    },
    {
        "name": "torus-balanced",
        "title": "torus 8x8x8 dor-balanced, buffer 4, 4 flits, links 2",
        "booksim": {"topology": "torus", "k": 8, "n": 3, "routing_function": "dim_order_bal",
                    "vc_buf_size": 4, "packet_size": 4},
        "wormnet": ["-t", "torus:8x8x8", "-r", "dor-balanced", "--buffer", "4", "--length", "4",
                    "--link-latency", "2"],
        "bracket": (0.19, 0.27),
        "steps": 4,
    },
    {
        # Needs --booksim-dateline: a BookSim whose dim_order_torus takes the class per hop
        # (1 from the wrap hop on) as wormnet's dor-dateline does (docs/fidelity.md).
        "name": "torus-dateline",
        "title": "torus 8x8x8 dor-dateline, buffer 4, 4 flits, links 2 (BookSim patched)",
        "booksim": {"topology": "torus", "k": 8, "n": 3, "routing_function": "dim_order",
                    "vc_buf_size": 4, "packet_size": 4},
        "wormnet": ["-t", "torus:8x8x8", "-r", "dor-dateline", "--buffer", "4", "--length", "4",
                    "--link-latency", "2"],
        "bracket": (0.14, 0.18),
        "steps": 4,
        "patched": True,
    },
    {
        # Speed and memory only (--large): 32,768 routers at a low load.
        "name": "torus32",
        "title": "torus 32x32x32 dor-booksim, buffer 4, 4 flits, links 2",
        "booksim": {"topology": "torus", "k": 32, "n": 3, "routing_function": "dim_order",
                    "vc_buf_size": 4, "packet_size": 4},
        "wormnet": ["-t", "torus:32x32x32", "-r", "dor-booksim", "--buffer", "4", "--length",
                    "4", "--link-latency", "2"],
        "speed_only": True,
        "speed_load": 0.01,
    },
]

ZERO_LOAD = 0.005   # flits/node/cycle: a few packets in flight, no contention to speak of
SPEED_LOAD = 0.10   # offered load of the speed columns (below every saturation but buffer 1's)
LATENCY_KNEE = 3.0  # saturation: mean latency past this multiple of the zero-load latency
ZERO_TOLERANCE = 3.0  # percent: wormnet's zero-load latency against BookSim's
SATURATION_TOLERANCE = 5.0  # percent: wormnet's saturation (bracket midpoint) against BookSim's


def run_measured(cmd, log, nice=19):
    """Runs cmd at niceness nice; returns (stdout, CPU seconds user+sys, peak RSS in MiB) of
    the child."""
    with open(log, "w") as err:
        proc = subprocess.Popen(["nice", "-n", str(nice)] + cmd, stdout=subprocess.PIPE,
                                stderr=err, text=True)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    with open(log, "a") as f:
        f.write(out)
    # nice execs the simulator in the same process, so the child's usage is the simulator's.
    return out, proc.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


class BookSim:
    def __init__(self, binary, workdir, label="BookSim", nice=19):
        self.binary = binary
        self.workdir = workdir
        self.label = label
        self.nice = nice

    def run(self, cfg, load, warmup, measure, seed, tag, limit=-1.0):
        # Fixed length: warm-up periods, then sample periods until max_samples; thresholds 0
        # keep it from stopping early, so it simulates exactly warmup + measure cycles (plus
        # the drain of the measured packets), like wormnet's --warmup/--measure.
        keys = {"num_vcs": 2, "traffic": "uniform", "injection_rate_uses_flits": 1,
                "injection_rate": load, "sim_type": "latency", "sample_period": 1000,
                "warmup_periods": warmup // 1000, "max_samples": (warmup + measure) // 1000,
                "stopping_thres": 0.0, "acc_stopping_thres": 0.0, "seed": seed}
        # BookSim aborts a run once its mean latency, counting the age of the packets still in
        # flight, passes `limit`: the saturation runs set stable()'s limit, which only saves
        # the time of a diverging run (the mesh rows come out the same with the abort off).
        keys["latency_thres"] = limit
        keys.update(cfg["booksim"])
        path = os.path.join(self.workdir, f"{cfg['name']}-{tag}.booksim.cfg")
        with open(path, "w") as f:
            for k, v in keys.items():
                f.write(f"{k} = {v};\n")
        out, rc, cpu, mem = run_measured([self.binary, path], path + ".log", self.nice)
        # BookSim exits with 255 after a successful run, so its exit code tells nothing; a run
        # it aborts as unstable prints no overall statistics.
        unstable = "unstable" in out or "Overall Traffic Statistics" not in out
        lat = re.findall(r"Packet latency average = ([0-9.eE+-]+)", out)
        acc = re.findall(r"Accepted flit rate average = ([0-9.eE+-]+)", out)
        cycles = re.findall(r"Time taken is (\d+) cycles", out)
        return {"latency": float(lat[-1]) if lat else float("inf"),
                "accepted": float(acc[-1]) if acc else 0.0, "unstable": unstable,
                "cpu": cpu, "mem": mem, "cycles": int(cycles[-1]) if cycles else 0}


class Wormnet:
    label = "wormnet"

    def __init__(self, binary, workdir, nice=19):
        self.binary = binary
        self.workdir = workdir
        self.nice = nice

    def run(self, cfg, load, warmup, measure, seed, tag, limit=-1.0):
        del limit  # wormnet has no latency abort: stable() judges its results
        cmd = [self.binary, "run", "--preset", "booksim", "--traffic", "uniform", "--vcs", "2",
               "--load", str(load), "--warmup", str(warmup), "--measure", str(measure),
               "--drain-limit", "20000", "--seed", str(seed)] + cfg["wormnet"]
        log = os.path.join(self.workdir, f"{cfg['name']}-{tag}.wormnet.log")
        out, rc, cpu, mem = run_measured(cmd, log, self.nice)
        lat = re.search(r"^latency\s+mean\s+([0-9.]+)", out, re.M)
        acc = re.search(r"^accepted\s+([0-9.]+)", out, re.M)
        cycles = re.search(r"^speed\s+(\d+) cycles", out, re.M)
        status = re.search(r"^status\s+(\S+)", out, re.M)
        return {"latency": float(lat.group(1)) if lat else float("inf"),
                "accepted": float(acc.group(1)) if acc else 0.0,
                "unstable": rc != 0 or not status or status.group(1) != "ok",
                "cpu": cpu, "mem": mem, "cycles": int(cycles.group(1)) if cycles else 0}


def stable(r, load, limit):
    return not r["unstable"] and r["latency"] <= limit and r["accepted"] >= 0.95 * load


def pooled(results):
    """One judgement from runs of the same point with different seeds (equal measured
    windows): mean latency and mean accepted rate; unstable if any run is (did not finish or
    deliver)."""
    n = len(results)
    return {"latency": sum(r["latency"] for r in results) / n,
            "accepted": sum(r["accepted"] for r in results) / n,
            "unstable": any(r["unstable"] for r in results)}


def run_seeds(sim, cfg, load, warmup, measure, seeds, tag, limit=-1.0):
    """The point run with seeds seeds[0..]: pooled when there are several. With several seeds
    BookSim's latency abort is off (limit -1): an aborted run has no figures to pool."""
    if len(seeds) == 1:
        return sim.run(cfg, load, warmup, measure, seeds[0], tag, limit)
    return pooled([sim.run(cfg, load, warmup, measure, s, f"{tag}-s{s}", -1.0) for s in seeds])


def saturation(sim, cfg, steps, warmup, measure, seeds, limit):
    lo, hi = cfg["bracket"]
    for i in range(steps):
        mid = round((lo + hi) / 2, 5)
        if stable(run_seeds(sim, cfg, mid, warmup, measure, seeds, f"sat{i}", limit), mid,
                  limit):
            lo = mid
        else:
            hi = mid
    return lo, hi


def deviation(booksim, wormnet):
    """wormnet against BookSim, in percent of BookSim's figure."""
    return 100.0 * (wormnet - booksim) / booksim


def midpoint(bracket):
    return (bracket[0] + bracket[1]) / 2


def verdict(dev, tolerance):
    # Rounded as printed (one decimal), so a printed 5.0 % is within a 5 % tolerance.
    return "within" if round(abs(dev), 1) <= tolerance else "OUTSIDE"


def verdict_row(title, booksim, wormnet):
    """The table row judging wormnet against BookSim; each argument holds "zero" (mean
    latency, cycles) and "sat" (bracket), either None when not measured."""
    cells = []
    for key, tolerance, value in (("zero", ZERO_TOLERANCE, lambda r: r),
                                  ("sat", SATURATION_TOLERANCE, midpoint)):
        if booksim[key] is None or wormnet[key] is None:
            cells.append("-")
            continue
        dev = deviation(value(booksim[key]), value(wormnet[key]))
        cells.append(f"{dev:+.1f} % ({verdict(dev, tolerance)} {tolerance:g} %)")
    return f"| {title} | wormnet vs BookSim | {cells[0]} | {cells[1]} | | | | |"


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"compare.py: {message}\n")


def bad_input(message):
    sys.stderr.write(f"compare.py: {message}\n")
    sys.exit(2)


def main():
    ap = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--booksim", required=True, help="path of a BookSim2 binary")
    ap.add_argument("--wormnet", default="build/release/src/wormnet")
    ap.add_argument("--booksim-dateline", default="",
                    help="BookSim patched to wormnet's per-hop dateline: adds that row")
    ap.add_argument("--only", default="", help="comma-separated configuration names")
    ap.add_argument("--steps", type=int, default=None,
                    help="bisection steps per saturation (default: 5 on the mesh, 4 on the torus)")
    ap.add_argument("--warmup", type=int, default=3000)
    ap.add_argument("--measure", type=int, default=10000)
    ap.add_argument("--zero-measure", type=int, default=40000,
                    help="measured cycles of the zero-load runs (enough packets for 1 %%)")
    ap.add_argument("--sat-measure", type=int, default=10000,
                    help="measured cycles of the saturation runs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nice", type=int, default=19,
                    help="niceness of the simulators (0..19; 19 starves them on a busy machine)")
    ap.add_argument("--seeds", type=int, default=1,
                    help="zero-load and saturation runs with seeds seed..seed+N-1, judged on "
                         "their mean latency and accepted rate (near saturation one 10,000-"
                         "cycle run of long packets is noisy: docs/fidelity.md)")
    ap.add_argument("--no-saturation", action="store_true")
    ap.add_argument("--large", action="store_true",
                    help="also the speed-only 32x32x32 torus (minutes of BookSim CPU, ~1 GB)")
    ap.add_argument("--out", default="", help="directory for configs and logs (default: temp)")
    a = ap.parse_args()
    for option, path in (("--booksim", a.booksim), ("--wormnet", a.wormnet),
                         ("--booksim-dateline", a.booksim_dateline)):
        if (path or option != "--booksim-dateline") and not (os.path.isfile(path) and
                                                            os.access(path, os.X_OK)):
            bad_input(f"{option} '{path}': not an executable file")
    if not 0 <= a.nice <= 19:
        bad_input(f"--nice {a.nice}: must be 0..19")
    names = [c["name"] for c in CONFIGS]
    unknown = [n for n in a.only.split(",") if n and n not in names] if a.only else []
    if unknown:
        bad_input(f"--only '{unknown[0]}': not a configuration (allowed: {', '.join(names)})")
    # BookSim counts warm-up and measurement in sample periods of 1,000 cycles.
    for option, value, thousands in (("--steps", a.steps, False), ("--seeds", a.seeds, False),
                                     ("--warmup", a.warmup, True),
                                     ("--measure", a.measure, True),
                                     ("--zero-measure", a.zero_measure, True),
                                     ("--sat-measure", a.sat_measure, True)):
        if value is not None and (value < 1 or (thousands and value % 1000)):
            bad_input(f"{option} {value}: must be >= 1"
                      + (" and a multiple of 1000 (BookSim's sample period)" if thousands
                         else ""))
    workdir = a.out or tempfile.mkdtemp(prefix="fidelity-")
    os.makedirs(workdir, exist_ok=True)
    sims = [BookSim(a.booksim, workdir, nice=a.nice), Wormnet(a.wormnet, workdir, nice=a.nice)]
    if a.only:
        chosen = [c for c in CONFIGS if c["name"] in a.only.split(",")]
    else:
        chosen = [c for c in CONFIGS if (a.large or not c.get("speed_only"))
                  and (a.booksim_dateline or not c.get("patched"))]
    if any(c.get("patched") for c in chosen) and not a.booksim_dateline:
        bad_input("--only 'torus-dateline': needs --booksim-dateline (a patched BookSim)")
    print(f"# logs in {workdir}; load average {open('/proc/loadavg').read().split()[0]}")
    print("| config | sim | zero-load latency | saturation | speed load | CPU s | cycles | MiB |")
    print("|---|---|---|---|---|---|---|---|")
    patched = [BookSim(a.booksim_dateline, workdir, "BookSim (patched)", a.nice), sims[1]]
    seeds = list(range(a.seed, a.seed + a.seeds))
    for cfg in chosen:
        results = []
        for sim in (patched if cfg.get("patched") else sims):
            s = sim.run(cfg, cfg.get("speed_load", SPEED_LOAD), a.warmup, a.measure, a.seed,
                        "speed")
            r = {"zero": None, "sat": None}
            zero, sat = "-", "-"
            if not cfg.get("speed_only"):
                z = run_seeds(sim, cfg, ZERO_LOAD, a.warmup,
                              cfg.get("zero_measure", a.zero_measure), seeds, "zero")
                r["zero"] = round(z["latency"], 1)
                zero = f"{z['latency']:.1f}"
            if not a.no_saturation and not cfg.get("speed_only"):
                steps = a.steps if a.steps is not None else cfg.get("steps", 5)
                r["sat"] = saturation(sim, cfg, steps, a.warmup, a.sat_measure, seeds,
                                      LATENCY_KNEE * z["latency"])
                sat = f"{r['sat'][0]:.4f}-{r['sat'][1]:.4f}"
            results.append(r)
            print(f"| {cfg['title']} | {sim.label} | {zero} | {sat} | "
                  f"{cfg.get('speed_load', SPEED_LOAD)} | {s['cpu']:.2f} | {s['cycles']} | "
                  f"{s['mem']:.0f} |", flush=True)
        if not cfg.get("speed_only"):
            print(verdict_row(cfg["title"], *results), flush=True)

if __name__ == "__main__":
    main()
