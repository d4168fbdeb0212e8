#!/usr/bin/python3
"""Bad input to the analysis scripts (analysis/*.py), the project's rule (README,
docs/python.md): one line on stderr naming the option or file, exit code 2, no traceback, no
hang, and nothing already written lost:

- an output that is the input (-o run.h5, --partition run.h5) is refused before anything is
  written: the input's bytes are unchanged;
- a damaged HDF5 file (64 bytes of 0xff every 4096 or 2048 bytes), a text file, a directory, a FIFO
  (refused without opening it: reading one would block), a missing file;
- outputs that cannot be written: a format plot_sweep.py does not write (out.txt), "" (which
  matplotlib made into ".png"), a directory, a folder that does not exist, /proc/x.png, and
  stdout on a full disk (/dev/full);
- bad option values (--ymax nan, inf, abc; --time bogus) and folders without the study's
  files (honeycomb_tori.py, tables_sim.py, faults_study.py).

usage: analysis_bad_input_test.py --wormnet BIN --analysis DIR --out DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

FAILURES = []
TIMEOUT = 30  # a command still running then hangs (a FIFO opened): a failure, not a hang


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)
    return cond


def make(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        print(f"FAIL: {' '.join(cmd)} exited {r.returncode}:\n{r.stdout}\n{r.stderr}",
              file=sys.stderr)
        sys.exit(1)


def refused(analysis, out, script, argv, says=(), kept=(), absent=(), stdout=None):
    """Runs analysis/`script` with `argv` in `out`: exit 2, one line on stderr holding each
    of `says`, no traceback; the files `kept` unchanged, the files `absent` not written."""
    before = {}
    for path in kept:
        with open(os.path.join(out, path), "rb") as f:
            before[path] = f.read()
    cmd = [sys.executable, os.path.join(analysis, script), *argv]
    what = f"{script} {' '.join(repr(a) if not a else a for a in argv)}"
    try:
        r = subprocess.run(cmd, cwd=out, stdout=stdout or subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        check(False, f"{what}: still running after {TIMEOUT} s")
        return
    lines = r.stderr.splitlines()
    check(r.returncode == 2, f"{what}: exit code {r.returncode}, expected 2: {r.stderr!r}")
    check(len(lines) == 1, f"{what}: {len(lines)} lines on stderr, expected 1: {r.stderr!r}")
    check("Traceback" not in r.stderr + (r.stdout or ""), f"{what}: a traceback")
    for word in says:
        check(word in r.stderr, f"{what}: stderr does not say {word!r}: {r.stderr!r}")
    for path, data in before.items():
        with open(os.path.join(out, path), "rb") as f:
            check(f.read() == data, f"{what}: {path} was changed")
    for path in absent:
        check(not os.path.exists(os.path.join(out, path)), f"{what}: wrote {path}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormnet", required=True)
    ap.add_argument("--analysis", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    os.environ.setdefault("MPLCONFIGDIR", os.path.join(out, "mpl"))
    analysis = os.path.abspath(args.analysis)

    def path(name):
        return os.path.join(out, name)

    make([args.wormnet, "run", "-q", "-t", "mesh:4x4", "-r", "xy", "--warmup", "100",
          "--measure", "200", "-o", path("run.h5")])
    make([args.wormnet, "sweep", "-q", "-t", "mesh:4x4", "-r", "xy", "--loads", "0.05,0.1",
          "--warmup", "100", "--measure", "200", "-o", path("sweep.h5")])
    make([args.wormnet, "tables-study", "-q", "--dims", "2", "--systems", "3", "--max-size",
          "4", "-o", path("study.h5")])
    # Damaged, not truncated: h5py opens it and fails on whatever it reads first (OSError,
    # KeyError or ValueError, by where the damage falls: three files).
    damaged = {"corrupt.h5": ("run.h5", 4096), "corrupt2.h5": ("run.h5", 2048),
               "corrupt3.h5": ("sweep.h5", 4096)}
    for name, (source, step) in damaged.items():
        shutil.copy(path(source), path(name))
        with open(path(name), "r+b") as f:
            for offset in range(step, os.path.getsize(path(name)), step):
                f.seek(offset)
                f.write(b"\xff" * 64)
    with open(path("text.h5"), "w") as f:
        f.write("not HDF5\n")
    os.makedirs(path("emptydir"))
    os.makedirs(path("somedir"))
    os.mkfifo(path("fifo"))

    # P1: the output is the input. Each case on a copy of its own: one overwritten (the
    # defect) must not make the other cases fail for that reason.
    def victim(name, source):
        shutil.copy(path(source), path(name))
        return name

    for script in ("heatmap.py", "report.py"):
        v = victim(f"p1_{script}.h5", "run.h5")
        refused(analysis, out, script, [v, "-o", v], says=[v], kept=[v])
    v = victim("p1_partition.h5", "run.h5")
    refused(analysis, out, "heatmap.py", [v, "--partition", v, "-o", "x.png"],
            says=["--partition"], kept=[v], absent=["x.png"])
    v = victim("p1_dot.h5", "run.h5")
    refused(analysis, out, "heatmap.py", [v, "-o", f"./{v}"], kept=[v])
    v = victim("p1_sweep.h5", "sweep.h5")
    refused(analysis, out, "plot_sweep.py", [v, "-o", path(v)], kept=[v])
    v = victim("p1_study.h5", "study.h5")
    refused(analysis, out, "tables_study.py", [v, "--report", v], says=["--report"], kept=[v])

    # P2, P5, P6, P7: inputs that are not wormnet files, or not files.
    for script, extra in (("report.py", ["-o", "r.html"]), ("heatmap.py", ["-o", "h.png"]),
                          ("plot_sweep.py", ["-o", "x.png"]), ("fig5.py", []),
                          ("tables_study.py", [])):
        for name in damaged:
            refused(analysis, out, script, [name, *extra], says=[name],
                    absent=["r.html", "h.png", "x.png"])
        # fig5.py reads the .h5 files of a directory: it finds none there.
        refused(analysis, out, script, ["somedir", *extra],
                says=["somedir"] + (["directory"] if script != "fig5.py" else []))
        refused(analysis, out, script, ["fifo", *extra], says=["fifo"])
        refused(analysis, out, script, ["missing.h5", *extra], says=["missing.h5"])
    refused(analysis, out, "tables_study.py", ["run.h5"], says=["run.h5"])
    refused(analysis, out, "tables_study.py", ["text.h5"], says=["text.h5"])
    refused(analysis, out, "fig5.py", ["sweep.h5", "--out-dir", "d"], says=["Figure 5"],
            absent=["d"])
    for script in ("honeycomb_tori.py", "tables_sim.py", "faults_study.py"):
        refused(analysis, out, script, ["emptydir"], says=["emptydir"])
        refused(analysis, out, script, ["/nonexistent"], says=["/nonexistent"])

    # P3: outputs that cannot be written.
    refused(analysis, out, "plot_sweep.py", ["sweep.h5", "-o", "out.txt"], says=["PNG"],
            absent=["out.txt"])
    refused(analysis, out, "plot_sweep.py", ["sweep.h5", "-o", ""], absent=[".png"])
    refused(analysis, out, "plot_sweep.py", ["sweep.h5", "-o", "somedir"],
            says=["directory"], absent=["somedir.png"])
    for script, name, extra in (("plot_sweep.py", "sweep.h5", []),
                                ("heatmap.py", "run.h5", []), ("report.py", "run.h5", [])):
        refused(analysis, out, script, [name, "-o", "/proc/x.png", *extra], says=["/proc/x.png"])
        refused(analysis, out, script, [name, "-o", "/nonexistent/x.png", *extra],
                says=["/nonexistent"])
    for script in ("heatmap.py", "report.py"):
        refused(analysis, out, script, ["run.h5", "-o", "somedir"], says=["directory"])
        refused(analysis, out, script, ["run.h5", "-o", ""], says=["-o"])
    refused(analysis, out, "heatmap.py", ["run.h5", "-o", "h.png", "--partition",
                                          "/proc/x.png"], says=["/proc/x.png"])
    refused(analysis, out, "tables_study.py", ["study.h5", "--report", "/proc/x.md"],
            says=["/proc/x.md"])
    refused(analysis, out, "tables_study.py", ["study.h5", "--figure", "/proc/x.png"],
            says=["/proc/x.png"])
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            refused(analysis, out, "tables_study.py", ["study.h5"], says=["stdout"],
                    stdout=full)

    # P4, P6: bad option values, in one line.
    for value in ("nan", "inf", "abc", "-1"):
        refused(analysis, out, "plot_sweep.py", ["sweep.h5", "--ymax", value, "-o", "y.png"],
                says=["--ymax"], absent=["y.png"])
    refused(analysis, out, "tables_study.py", ["study.h5", "--time", "bogus"],
            says=["--time"])
    refused(analysis, out, "plot_sweep.py", ["sweep.h5"], says=["-o"])

    # What still works: the same tools on good input and outputs.
    for cmd in (["plot_sweep.py", "sweep.h5", "-o", "ok.png"],
                ["heatmap.py", "run.h5", "-o", "ok_heatmap.png"],
                ["report.py", "run.h5", "-o", "ok.html"],
                ["tables_study.py", "study.h5", "--report", "ok.md"]):
        r = subprocess.run([sys.executable, os.path.join(analysis, cmd[0]), *cmd[1:]], cwd=out,
                           capture_output=True, text=True, timeout=300)
        check(r.returncode == 0 and os.path.getsize(path(cmd[-1])) > 0,
              f"{' '.join(cmd)}: exit code {r.returncode}: {r.stderr}")

    if FAILURES:
        print(f"{len(FAILURES)} failure(s)", file=sys.stderr)
        return 1
    print("analysis bad input: every case refused in one line, exit code 2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
