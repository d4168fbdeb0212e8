#!/usr/bin/python3
"""A closed-loop workload's run in the analysis (issue 39, item 1):

- `wormnet run --workload` describes the workload, not open-loop traffic: the header names
  the workload and its message size, the summary gives the traffic it delivered (no
  "offered 0.00000"), and the iterations line gives each iteration's first issue, last
  delivery and length, which the file's /workload/iterations hold. sweep2d pipelines its
  iterations (an iteration starts before the previous one ends), so the increments between
  their ends (what the line once printed) are not their lengths;
- the reader (wormnet_analysis.workload) gives /workload as DataFrames, checked against the
  raw file read with h5py: the iterations' lengths, each message's queueing, network and
  latency, the critical path's steps, which sum to the file's wait / compute / queueing /
  network / local breakdown (also for a run with computation and two processes per node) and to the completion time (the largest delivery cycle of any message), and each
  step obeys the dependency rule (a message is issued no earlier than the dependency it waited
  for was satisfied);
- report.py writes a workload report (every section, self-contained, the completion and the
  breakdown in its text), also for a workload the drain limit ended (status incomplete);
  plot_sweep.py refuses a workload file in one line with exit code 2;
- rendered by headless chromium (--browser-only; skipped with exit 77 without chromium): the
  page is drawn, with the critical path's red and the network's blue on screen.

usage: analysis_workload_test.py --wormnet BIN --analysis DIR --out DIR [--browser-only]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analysis_report_test import Page, screenshot  # noqa: E402

SKIP = 77
FAILURES = []
SECTIONS = ("config", "workload", "iterations", "critical", "timeline", "msglatency",
            "heatmap", "partition", "speed")
NEVER = np.iinfo(np.uint64).max
#: The critical path's parts, in the file's and the report's order (docs/workloads.md).
PARTS = ("wait", "compute", "queueing", "network", "local")


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def run(cmd, expect=0, env=None, timeout=300):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if r.returncode != expect:
        print(f"FAIL: {' '.join(cmd)} exited {r.returncode}, expected {expect}:\n{r.stdout}\n"
              f"{r.stderr}", file=sys.stderr)
        sys.exit(1)
    return r


def check_summary(stdout, h5):
    """The run's own lines describe the workload, with the file's numbers."""
    lines = stdout.splitlines()
    head = lines[0]
    check("workload sweep2d" in head and "messages of 8..8 flits" in head,
          f"the header names the workload and its message size: {head}")
    check("traffic" not in head and "poisson" not in head, f"no open-loop traffic: {head}")
    check(not any(x.startswith("offered") for x in lines),
          "no 'offered' line for a closed loop (it printed offered 0.00000)")
    with h5py.File(h5, "r") as f:
        it = f["workload/iterations"]
        start, end = it["start"][()], it["end"][()]
        a = f["points/000"].attrs
        accepted, window = float(a["accepted"]), int(a["window_cycles"])
    traffic = [x for x in lines if x.startswith("traffic")]
    check(len(traffic) == 1 and f"{accepted:.5f} flits/node/cycle delivered over {window} "
          "cycles" in traffic[0], f"the traffic line gives the delivered traffic: {traffic}")
    iters = [x for x in lines if x.startswith("iterations")]
    want = ", ".join(f"{s}-{e} ({e - s})" for s, e in zip(start, end))
    check(len(iters) == 1 and want in iters[0],
          f"the iterations line gives start-end (length) of each: {iters} vs {want}")
    # The motif pipelines: an iteration starts before the previous one ends, so the
    # increment between two ends is shorter than the later iteration's length.
    check(np.any(start[1:] < end[:-1]), f"sweep2d iterations overlap: {start} {end}")
    increments = np.diff(end)
    check(np.any(increments < (end - start)[1:]),
          "an increment is shorter than the iteration's length (why they differ)")


def check_reader(h5):
    import wormnet_analysis as wa

    s = wa.load(h5)
    w = s.workload
    check(w is not None and s.is_workload, "the reader finds /workload")
    with h5py.File(h5, "r") as f:
        g = f["workload"]
        raw = {k: g["messages"][k][()] for k in g["messages"]}
        its = {k: g["iterations"][k][()] for k in g["iterations"]}
        path = g["critical_path"][()]
        parts = {k: int(g.attrs[f"path_{k}_cycles"]) for k in PARTS}
        compute = raw["compute"]
        completion = int(g.attrs["completion_cycles"])
    check(w.completion == completion and w.complete, "completion and status read")
    check(completion == int(raw["delivered"].max()),
          f"completion {completion} = the last delivery {int(raw['delivered'].max())}")
    fr = w.iterations_frame()
    check(len(fr) == len(its["start"]), "one row per iteration")
    check(np.array_equal(fr["span"].to_numpy(), (its["end"] - its["start"]).astype(np.int64)),
          "iteration length = end - start")
    check(np.array_equal(fr["messages"].to_numpy(), its["messages"]), "messages per iteration")
    mf = w.messages_frame()
    check(len(mf) == len(raw["source"]), "one row per message")
    check(np.array_equal(mf["queueing"].to_numpy(dtype=np.int64),
                         (raw["injected"] - raw["issued"]).astype(np.int64)), "queueing")
    check(np.array_equal(mf["latency"].to_numpy(dtype=np.int64),
                         (raw["delivered"] - raw["issued"]).astype(np.int64)), "latency")
    check(set(mf.index[mf["critical"]]) == {int(x) for x in path}, "the critical messages")
    check(all(np.array_equal(mf[c].to_numpy(dtype=np.int64), raw[c].astype(np.int64))
              for c in ("source", "destination", "flits", "iteration")), "message columns")
    # Per-iteration figures from the messages (an independent sum).
    for k in range(len(its["start"])):
        mine = raw["iteration"] == k
        check(int(raw["issued"][mine].min()) == int(its["start"][k]) and
              int(raw["delivered"][mine].max()) == int(its["end"][k]),
              f"iteration {k}: first issue and last delivery of its messages")
    check(np.array_equal(mf["compute"].to_numpy(dtype=np.int64), compute.astype(np.int64)),
          "each message's computation")
    check(np.array_equal(mf["local"].to_numpy(), raw["source"] == raw["destination"]),
          "the messages within a node")
    cp = w.critical_path_frame()
    check(list(cp["message"]) == [int(x) for x in path], "the path's messages in order")
    sums = {k: int(cp[k].sum()) for k in PARTS}
    check(sums == parts, f"the steps sum to the file's breakdown {parts}: {sums}")
    check(sum(parts.values()) == completion, "the breakdown sums to the completion")
    check(w.breakdown() == parts, "breakdown()")
    for k in range(1, len(path)):
        a, b = int(path[k - 1]), int(path[k])
        received = raw["destination"][a] == raw["source"][b]
        sent = raw["source"][a] == raw["source"][b]
        check(received or sent, f"step {k}: {a} -> {b} is a receive or the same source's send")
        at = raw["delivered"][a] if received else raw["issued"][a]
        check(raw["issued"][b] >= at + compute[b],
              f"step {k}: issued {raw['issued'][b]} >= satisfied {at} + computation "
              f"{compute[b]}")
    return w


def check_report(page, h5, w):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    p = Page()
    p.feed(text)
    body = " ".join(" ".join(p.text).split())
    check(not p.external, f"report links to external resources: {p.external}")
    for sec in SECTIONS:
        check(sec in p.ids, f"workload report lacks section {sec}")
    check(len(p.images) >= 6, f"{len(p.images)} figures embedded")
    b = w.breakdown()
    check(f"completion {w.completion} cycles" in body, "the completion in the report")
    parts = " + ".join(f"{k} {b[k]}" for k in PARTS)
    check(f"{parts} = {w.completion} cycles" in body, "the breakdown in the report")
    fr = w.iterations_frame()
    row = fr.iloc[-1]
    check(re.search(rf"\b{len(fr) - 1} {int(row['start'])} {int(row['end'])} "
                    rf"{int(row['span'])}\b", body) is not None,
          "the last iteration's start, end and length in the table")
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--browser-only", action="store_true")
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if args.browser_only and not chromium:
        print("SKIP: chromium is not installed (apt-get install chromium; ./setup.sh does)")
        sys.exit(SKIP)
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    sys.path.insert(0, args.analysis)
    env = dict(os.environ, MPLCONFIGDIR=os.path.join(out, "mpl"))
    h5 = os.path.join(out, "sweep2d.h5")
    r = run([args.wormnet, "run", "-t", "torus:4x4", "-r", "dor-dateline", "--workload",
             "sweep2d", "--iterations", "3", "--message-size", "8", "--stats-window", "20",
             "-o", h5])
    page = os.path.join(out, "report.html")
    run([sys.executable, os.path.join(args.analysis, "report.py"), h5, "-o", page], env=env)
    if not args.browser_only:
        check_summary(r.stdout, h5)
        w = check_reader(h5)
        check_report(page, h5, w)
        bad = run([sys.executable, os.path.join(args.analysis, "plot_sweep.py"), h5, "-o",
                   os.path.join(out, "x.png")], expect=2, env=env)
        said = bad.stderr.strip().splitlines()
        check(len(said) == 1 and "workload" in said[0] and h5 in said[0],
              f"plot_sweep refuses a workload file in one line: {said}")
        check(not os.path.exists(os.path.join(out, "x.png")), "plot_sweep drew nothing")
        # Computation between messages and two processes per node (messages within a
        # node never enter the network): the reader's five parts against the file's, the
        # dependency rule with the computation, and the report's breakdown line.
        cl = os.path.join(out, "compute_local.h5")
        run([args.wormnet, "run", "-q", "-t", "torus:4x4", "-r", "dor-dateline", "--workload",
             "halo2d", "--iterations", "3", "--message-size", "8", "--processes-per-node",
             "2", "--compute-cycles", "30", "-o", cl])
        wc = check_reader(cl)
        b = wc.breakdown()
        check(b["compute"] > 0, f"computation on the critical path: {b}")
        check(bool(wc.messages_frame()["local"].any()), "messages within a node")
        cpage = os.path.join(out, "compute_local.html")
        run([sys.executable, os.path.join(args.analysis, "report.py"), cl, "-o", cpage],
            env=env)
        check_report(cpage, cl, wc)
        # A workload the drain limit ends (exit 7, status incomplete) is reported too.
        inc = os.path.join(out, "incomplete.h5")
        run([args.wormnet, "run", "-q", "-t", "torus:4x4", "-r", "dor-dateline", "--workload",
             "alltoall", "--message-size", "8", "--drain-limit", "60", "-o", inc], expect=7)
        ipage = os.path.join(out, "incomplete.html")
        run([sys.executable, os.path.join(args.analysis, "report.py"), inc, "-o", ipage],
            env=env)
        with open(ipage, encoding="utf-8") as f:
            check("incomplete: the drain limit ended the run" in f.read(),
                  "the incomplete workload's report says so")
    else:
        png = os.path.join(out, "report.png")
        size = (1200, 2600)
        s = screenshot(chromium, page, png, os.path.join(out, "chromium-profile"), size)
        if check(s.returncode == 0 and os.path.exists(png),
                 f"chromium exited {s.returncode}: {s.stderr[-2000:]}"):
            from PIL import Image

            with Image.open(png) as im:
                rgb = np.asarray(im.convert("RGB")).astype(int)
            check(rgb.shape[:2] == (size[1], size[0]), f"screenshot {rgb.shape}")
            inked = np.mean(rgb.sum(axis=2) < 3 * 235)
            check(inked > 0.03, f"screenshot mostly blank ({100 * inked:.1f}% inked)")
            for name, colour in (("critical path red", (214, 39, 40)),
                                 ("network blue", (42, 122, 176))):
                n = np.all(np.abs(rgb - np.array(colour)) <= 6, axis=2).sum()
                check(n > 100, f"the {name} is on screen ({n} pixels)")
            print(f"screenshot {png}")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("workload analysis: OK")


if __name__ == "__main__":
    main()
