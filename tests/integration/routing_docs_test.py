#!/usr/bin/env python3
"""The routing pages tell the truth about deadlock freedom, and the index lists every routing.

docs/routing/*.md state verdicts as a command and the exit code `wormnet verify` gives for it,
written `wormnet verify ARGS` (exit N) with the command in backquotes. This test runs every
such command and checks the exit code (0 deadlock-free, 1 a cycle), so a page cannot claim a
verdict the verifier does not give. It also checks that every routing that `wormnet info`
lists for a topology kind has a row in the index, docs/routing/README.md, and that every page
the index links to exists.

    routing_docs_test.py --wormnet PATH

Standard library only; each command runs on a small network (about 20 s, mostly the start-up
of 64 processes, four at a time).
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shlex
import subprocess
import sys

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "routing")
CLAIM = re.compile(r"`wormnet (verify [^`]+)`\s+\(exit (\d)\)")
# One small topology of each kind, to ask `wormnet info` which routings it has.
KINDS = ["honeycomb:2", "mesh:3x3", "torus:3x3", "honeycomb-torus:2", "honeycomb-rect:4x4",
         "honeycomb-rhombic:4x4"]


def claims():
    """(page, arguments, expected exit code) of every verdict the pages state."""
    out = []
    for page in sorted(glob.glob(os.path.join(DOCS, "*.md"))):
        with open(page, encoding="utf-8") as f:
            text = f.read()
        for m in CLAIM.finditer(text):
            out.append((os.path.basename(page), shlex.split(m.group(1)), int(m.group(2))))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--wormnet", required=True)
    args = p.parse_args()
    failures = []

    found = claims()
    if len(found) < 20:
        failures.append(f"only {len(found)} verdicts found in docs/routing (the pattern "
                        f"`wormnet verify ARGS` (exit N) changed?)")
    run = lambda argv: subprocess.run([args.wormnet, *argv], capture_output=True,  # noqa: E731
                                      text=True, timeout=120, check=False)
    # Mostly start-up time (MPI and HDF5 libraries), little CPU: four at once.
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, [argv for _, argv, _ in found]))
    for (page, argv, expected), r in zip(found, results):
        verdict = [x for x in r.stdout.splitlines() if x.startswith("verdict")]
        if r.returncode != expected:
            failures.append(f"{page}: `wormnet {' '.join(argv)}` exits {r.returncode}, the "
                            f"page says {expected}: {(verdict or [r.stderr.strip()])[0]}")

    with open(os.path.join(DOCS, "README.md"), encoding="utf-8") as f:
        index = f.read()
    rows = [line for line in index.splitlines() if line.startswith("| `")]
    listed = {name for line in rows for name in re.findall(r"`([a-z-]+)`", line.split("|")[1])}
    for topo in KINDS:
        r = subprocess.run([args.wormnet, "info", "-t", topo, "--json"], capture_output=True,
                           text=True, timeout=60, check=False)
        if r.returncode != 0:
            failures.append(f"wormnet info -t {topo} --json: exit {r.returncode}")
            continue
        for name in json.loads(r.stdout)["routings"]:
            if name not in listed:
                failures.append(f"docs/routing/README.md: no row for routing '{name}' "
                                f"(a routing of {topo})")
    for link in set(re.findall(r"\]\(([a-z0-9-]+\.md)\)", index)):
        if not os.path.exists(os.path.join(DOCS, link)):
            failures.append(f"docs/routing/README.md links to {link}, which does not exist")

    for f in failures:
        print("FAIL", f)
    print(f"{len(found)} verdicts checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
