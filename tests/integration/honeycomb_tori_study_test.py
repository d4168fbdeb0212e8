#!/usr/bin/python3
"""analysis/honeycomb_tori.py on a small study directory: the load analyses of the three
networks (wormnet info --load, as runs/honeycomb_tori/study.sh writes them) and one tiny real
sweep. Checks that the script prints the tables, that the saturation it reports for the sweep
is the largest accepted traffic of its unsaturated points, read here from the file with h5py,
together with its refining sweep (.fine.h5), that missing sweeps show as
"-", and that both figures are PNG files.

usage: honeycomb_tori_study_test.py --wormnet BIN --analysis DIR --out DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

import h5py

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# (network, topology, routing file names -> routing given to wormnet), as study.sh names them.
NETS = [("ht8", "honeycomb-torus:8", {"double-xy-dateline": "double-xy-dateline",
                                       "double-xy-dateline-vcs7": "double-xy-dateline",
                                       "duato": "duato", "duato-least-occupied": "duato"}),
        ("h8", "honeycomb:8", {"double-xy": "double-xy", "double-xy-vcs3": "double-xy",
                               "duato": "duato", "duato-least-occupied": "duato"}),
        ("t20", "torus:20x20", {"dor-dateline-dest": "dor-dateline-dest",
                                "dor-dateline-dest-vcs3": "dor-dateline-dest",
                                "dor-dateline": "dor-dateline", "duato": "duato",
                                "duato-least-occupied": "duato"})]


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    done = {}
    for net, topo, names in NETS:
        for name, routing in names.items():
            if (topo, routing) not in done:
                done[(topo, routing)] = run([args.wormnet, "info", "--load", "-t", topo, "-r",
                                             routing, "--json"])
            with open(os.path.join(args.out, f"load_{net}_{name}.json"), "w",
                      encoding="utf-8") as f:
                f.write(done[(topo, routing)])
    sweep = os.path.join(args.out, "ht8_duato_uniform.h5")
    fine = os.path.join(args.out, "ht8_duato_uniform.fine.h5")
    best = None
    # The coarse sweep ends far past saturation (0.9): its accepted traffic there exceeds every
    # unsaturated point's, so a table taking the plain maximum would fail below.
    for path, loads in ((sweep, "0.01,0.03,0.9"), (fine, "0.02,0.04")):
        run([args.wormnet, "sweep", "-t", "honeycomb-torus:8", "-r", "duato", "--loads", loads,
             "--warmup", "100", "--measure", "400", "--drain-limit", "400", "--length", "8",
             "-q", "-o", path])
        with h5py.File(path, "r") as f:
            for acc, sat in zip(f["summary/accepted"][()], f["summary/saturated"][()]):
                if not sat and (best is None or acc > best):
                    best = acc
    if best is None:
        fail("the tiny sweeps saturated")
    out = run([sys.executable, os.path.join(args.analysis, "honeycomb_tori.py"), args.out])
    row = [line for line in out.splitlines() if line.startswith("| HT_8 | duato |")]
    if len(row) != 1:
        fail(f"no HT_8 duato row in\n{out}")
    cells = [c.strip() for c in row[0].strip("|").split("|")]
    # network, routing, VCs, pi, sigma4, (N-1)/pi, uniform, transpose, tornado
    if cells[2] != "7":
        fail(f"duato on HT_8 has 7 VCs (6 escape + 1 adaptive), the table says {cells[2]}")
    if cells[6] != f"{best:.3f}":
        fail(f"uniform saturation {cells[6]}, the file's largest accepted is {best:.3f}")
    if cells[7] != "-" or cells[8] != "-":
        fail(f"sweeps that do not exist show values: {cells}")
    for png in ("honeycomb_tori_load.png", "duato_gain.png"):
        path = os.path.join(args.out, png)
        with open(path, "rb") as f:
            if f.read(8) != PNG_MAGIC:
                fail(f"{png} is not a PNG")
    print("honeycomb tori study analysis: OK")


if __name__ == "__main__":
    main()
