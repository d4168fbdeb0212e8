#!/usr/bin/python3
"""The README's picture commands and runs/docs_pictures.sh (issue 39, item 5):

- every HDF5 file the README's picture commands read is written (`-o FILE.h5`) by a command
  of the README before them (no command made the h6.h5 they read);
- runs/docs_pictures.sh writes its pictures into its output folder and leaves docs/img as it
  is unless --update-docs is given (it overwrote docs/img whatever the folder); bad options are
  refused with exit code 2. The script's run needs chromium (skipped with exit 77 without it,
  after the README check).

usage: docs_pictures_test.py --wormnet BIN --repo DIR --out DIR
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def readme_commands(repo):
    """The README's shell commands, in order, continuation lines joined, comments dropped."""
    with open(os.path.join(repo, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"^```sh\n(.*?)^```", f.read(), re.S | re.M)
    commands = []
    for block in blocks:
        text = re.sub(r"\\\n\s*", " ", block)
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                commands.append(line)
    return commands


def check_readme(repo):
    commands = readme_commands(repo)
    pictures = [i for i, c in enumerate(commands)
                if re.search(r"analysis/(heatmap|report)\.py", c)]
    check(pictures, "the README has picture commands")
    for i in pictures:
        for h5 in re.findall(r"(\S+\.h5)", commands[i]):
            made = any(re.search(rf"(-o|--output)\s+{re.escape(h5)}(\s|$)", c)
                       for c in commands[:i])
            check(made, f"README: '{commands[i]}' reads {h5}, which no command before it "
                        "writes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    check_readme(args.repo)
    script = os.path.join(args.repo, "runs", "docs_pictures.sh")
    for bad in (["--frobnicate"], ["--quick", "--update-docs"], []):
        r = subprocess.run([script, *([args.wormnet] if bad else []), *bad],
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 2 and r.stderr.strip(),
              f"docs_pictures.sh {' '.join(bad)}: exit {r.returncode}, {r.stderr!r}")
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        if FAILURES:
            sys.exit(1)
        print("SKIP: chromium is not installed (the README check passed)")
        sys.exit(SKIP)
    img = os.path.join(args.repo, "docs", "img")
    committed = {n: digest(os.path.join(img, n))
                 for n in ("heatmap_h6_double_xy.png", "report_h6.png")}
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([script, args.wormnet, out, "--quick"], capture_output=True, text=True,
                       timeout=600, env=dict(os.environ, MPLCONFIGDIR=os.path.join(out, "mpl")))
    check(r.returncode == 0, f"docs_pictures.sh --quick: exit {r.returncode}\n{r.stderr}")
    for name, before in committed.items():
        check(digest(os.path.join(img, name)) == before, f"docs/img/{name} was overwritten")
        p = os.path.join(out, name)
        check(os.path.exists(p) and os.path.getsize(p) > 5000, f"{p} written")
    check("docs/img left as it is" in r.stdout, "the script says docs/img is untouched")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("docs pictures: OK")


if __name__ == "__main__":
    main()
