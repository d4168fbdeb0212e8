#!/usr/bin/python3
"""The analysis package (analysis/wormnet_analysis) as its users meet it:

- every ```python block of docs/python.md runs, in order, in one namespace, in a folder with
  the files that page describes (results.h5: an H_4 sweep; table.h5: a routing table of a
  4x4 torus; sweep2d.h5: a closed-loop workload; congestion.h5: a duato run with
  --congestion totals; series.h5: one with --congestion series), with the page's own
  assertions;
- the doctests of the package's modules pass;
- DataFrames hold what the file holds (read here with h5py): the summary, a point's time
  series and histogram, the per-channel counts joined to the channel ends;
- it installs from a copy of the checkout's analysis/ with pip, offline (no index, no build
  isolation, no dependencies fetched), building out of tree (the copy is left as it was), and
  the installed package and its commands (one per script of analysis/) work from another
  folder; skipped with a note when pip or setuptools is missing.

usage: analysis_package_test.py --wormnet BIN --analysis DIR --docs FILE --out DIR
"""
import argparse
import doctest
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import h5py
import numpy as np

FAILURES = []
MODULES = ("network", "layouts", "steady", "results", "tables", "heatmap", "plots", "report",
           "cli", "loaders", "_h5", "workload", "workload_report", "scales", "tools.plot_sweep",
           "tools.fig5", "tools.compare_seeds", "tools.tables_sim", "tools.tables_study",
           "tools.honeycomb_tori", "tools.workloads", "tools.tables_npb",
           "tools.faults_study")


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def run(cmd, expect=0, env=None, cwd=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd=cwd)
    if r.returncode != expect:
        print(f"FAIL: {' '.join(cmd)} exited {r.returncode}, expected {expect}:\n{r.stdout}\n"
              f"{r.stderr}", file=sys.stderr)
        sys.exit(1)
    return r


def run_docs(docs, folder):
    with open(docs, encoding="utf-8") as f:
        blocks = re.findall(r"^```python\n(.*?)^```", f.read(), re.S | re.M)
    check(len(blocks) >= 6, f"{len(blocks)} python examples in {docs}")
    namespace = {"__name__": "docs_examples"}
    here = os.getcwd()
    os.chdir(folder)
    try:
        for k, code in enumerate(blocks):
            try:
                exec(compile(code, f"{os.path.basename(docs)} example {k + 1}", "exec"), namespace)
            except Exception as e:  # noqa: BLE001: report which example and go on
                check(False, f"{docs} example {k + 1} failed: {type(e).__name__}: {e}\n{code}")
                break
    finally:
        os.chdir(here)
    return len(blocks)


def check_frames(h5):
    import wormnet_analysis as wa

    sweep = wa.load(h5)
    frame = sweep.summary_frame()
    with h5py.File(h5, "r") as f:
        s = f["summary"]
        for c in s.attrs["columns"]:
            c = c.decode() if isinstance(c, bytes) else c
            col = frame.index.to_numpy() if c == "point" else frame[c].to_numpy()
            check(np.array_equal(col, s[c][()]), f"summary_frame column {c}")
        g = f["points/001"]
        ts = sweep.point(1).timeseries_frame()
        check(len(ts) == g["timeseries/cycle_end"].shape[0], "timeseries_frame rows")
        check(np.array_equal(ts["flits_in_network"].to_numpy(),
                             g["timeseries/flits_in_network"][()]), "timeseries_frame column")
        hist = sweep.point(1).histogram_frame()
        total = g["latency_histogram/total"][()]
        lower = g["latency_histogram/bucket_lower"][()]
        check(np.array_equal(hist.index.to_numpy(), lower[total > 0]) or
              np.array_equal(hist.index.to_numpy(), lower[(total > 0) |
                             (g["latency_histogram/network"][()] > 0) |
                             (g["latency_histogram/queueing"][()] > 0)]),
              "histogram_frame keeps the non-empty buckets")
        check(hist["total"].sum() == g["latency_histogram/total"].attrs["count"],
              "histogram_frame counts")
        ch = sweep.channels_frame(1)
        t = f["topology"]
        check(np.array_equal(ch["source"].to_numpy(), t["channel_source"][()]), "channel sources")
        check(np.array_equal(ch["dest"].to_numpy(), t["channel_dest"][()]), "channel dests")
        check(np.array_equal(ch["flits"].to_numpy(), g["channel_flits"][()]), "channel flits")
        check(np.array_equal(ch["load"].to_numpy(), f["routing/channel_load"][()]), "gamma_c")
        xyz = t["coords"][()]
        for c in (0, len(ch) // 2, len(ch) - 1):
            got = ch.loc[c, ["dst_x", "dst_y", "dst_z"]].to_numpy()
            check(np.array_equal(got, xyz[t["channel_dest"][c]]), f"channel {c} dest coords")
        # A channel of the frame found by coordinates: its end is one step along its port.
        row = ch[(ch.src_x == 0) & (ch.src_y == 0) & (ch.src_z == 1) & (ch.port == "Y+")]
        check(len(row) == 1 and tuple(row[["dst_x", "dst_y", "dst_z"]].iloc[0]) == (0, 1, 1),
              "the Y+ channel of (0,0,1) enters (0,1,1)")


def check_install(analysis, out, h5):
    missing = [m for m in ("pip", "setuptools") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"SKIP: installing the package needs {' and '.join(missing)} (python3-pip, "
              "python3-setuptools)")
        return
    src = os.path.join(out, "pkg-src")
    shutil.rmtree(src, ignore_errors=True)
    # A copy of the checkout's analysis/ as git holds it (no caches, no earlier build).
    shutil.copytree(analysis, src, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info", "dist"))
    def tree():
        return sorted(os.path.relpath(os.path.join(d, f), src)
                      for d, dirs, files in os.walk(src) for f in files + dirs)
    before = tree()
    target = os.path.join(out, "site")
    shutil.rmtree(target, ignore_errors=True)
    env = dict(os.environ, PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               MPLCONFIGDIR=os.path.join(out, "mpl"))
    env.pop("PYTHONPATH", None)
    run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
         "--no-index", "--no-cache-dir", "--quiet", "--target", target, src], env=env)
    # Built out of tree: the source folder is as it was (setuptools alone left build/ and
    # wormnet_analysis.egg-info there, untracked in the checkout).
    added = sorted(set(tree()) - set(before))
    check(not added, f"the build left files in the source folder: {added[:6]}")
    # Every script of analysis/ is a command of the installed package.
    scripts = sorted(f[:-3] for f in os.listdir(analysis)
                     if f.endswith(".py") and f not in ("wormnet_h5.py", "out_of_tree_build.py"))
    check(len(scripts) >= 9, f"scripts {scripts}")
    env["PYTHONPATH"] = target
    away = os.path.join(out, "elsewhere")
    os.makedirs(away, exist_ok=True)
    r = run([sys.executable, "-c", "import wormnet_analysis as wa; print(wa.__file__); "
             f"print(wa.load({h5!r}).network.spec)"], env=env, cwd=away)
    where, spec = r.stdout.split()
    check(where.startswith(os.path.abspath(target)), f"installed package imported from {where}")
    check(spec == "honeycomb:4", f"installed package reads the file: {spec}")
    run([sys.executable, os.path.join(target, "bin", "wormnet-heatmap"), h5, "-o", "h.png"],
        env=env, cwd=away)
    check(os.path.getsize(os.path.join(away, "h.png")) > 10000, "wormnet-heatmap wrote a PNG")
    r = run([sys.executable, os.path.join(target, "bin", "wormnet-report"), "--help"], env=env,
            cwd=away)
    check("HTML report" in r.stdout, "wormnet-report installed")
    for name in scripts:
        command = os.path.join(target, "bin", "wormnet-" + name.replace("_", "-"))
        if not check(os.path.exists(command), f"{name}.py has no command {command}"):
            continue
        r = run([sys.executable, command, "--help"], env=env, cwd=away)
        check(r.stdout.startswith("usage: "), f"{command} --help: {r.stdout[:200]}")
    r = run([sys.executable, "-m", "wormnet_analysis", "plot-sweep", h5, "-o", "p.png"],
            env=env, cwd=away)
    check(os.path.getsize(os.path.join(away, "p.png")) > 10000, "python -m ... plot-sweep")
    r = run([sys.executable, "-m", "wormnet_analysis", "heatmap", h5, "--point", "9", "-o",
             "x.png"], expect=2, env=env, cwd=away)
    check("no finished point 9" in r.stderr, f"python -m wormnet_analysis: {r.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    os.environ["MPLCONFIGDIR"] = os.path.join(out, "mpl")
    folder = os.path.join(out, "docs-run")
    os.makedirs(folder)
    os.symlink(os.path.abspath(args.analysis), os.path.join(folder, "analysis"))
    h5 = os.path.join(folder, "results.h5")
    run([args.wormnet, "sweep", "-q", "-t", "honeycomb:4", "-r", "double-xy", "--loads",
         "0.01,0.03", "--warmup", "500", "--measure", "3000", "--stats-window", "250",
         "-o", h5])
    run([args.wormnet, "tables", "-q", "-t", "torus:4x4", "--algorithm", "bfs", "-o",
         os.path.join(folder, "table.h5")])
    run([args.wormnet, "run", "-q", "-t", "torus:4x4", "-r", "dor-dateline", "--workload",
         "sweep2d", "--iterations", "3", "--message-size", "8", "--stats-window", "20", "-o",
         os.path.join(folder, "sweep2d.h5")])
    run([args.wormnet, "run", "-q", "-t", "torus:4x4", "-r", "duato", "--load", "0.2",
         "--warmup", "200", "--measure", "1000", "--congestion", "totals", "-o",
         os.path.join(folder, "congestion.h5")])
    run([args.wormnet, "run", "-q", "-t", "torus:4x4", "-r", "duato", "--load", "0.3",
         "--warmup", "200", "--measure", "1000", "--stats-window", "100", "--drain-limit",
         "2000", "--congestion", "series", "-o", os.path.join(folder, "series.h5")])

    examples = run_docs(args.docs, folder)
    sys.path.insert(0, args.analysis)
    tests = 0
    for name in MODULES:
        m = importlib.import_module(f"wormnet_analysis.{name}")
        r = doctest.testmod(m)
        tests += r.attempted
        check(r.failed == 0, f"doctests of wormnet_analysis.{name}: {r.failed} failed")
    check(tests >= 10, f"{tests} doctest examples")
    check_frames(h5)
    check_install(args.analysis, out, h5)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print(f"package: OK ({examples} documentation examples, {tests} doctest examples)")


if __name__ == "__main__":
    main()
