"""The command-line tools of the package: `heatmap` and `report` (analysis/heatmap.py,
analysis/report.py, `python3 -m wormnet_analysis heatmap|report`, or the wormnet-heatmap and
wormnet-report commands of an installed package), and the dispatch to the others
(wormnet_analysis/tools: plot-sweep, fig5, ...). Bad input: one line on stderr, exit 2."""

from __future__ import annotations

import argparse
import errno
import functools
import math
import os
import sys

from ._h5 import FileError
from .layouts import LayoutError
from .network import DIM_NAMES

HEATMAP_USAGE = """Channel heatmap of a wormnet result or routing-table file, drawn on the network's
own layout (H_t as hexagons or a brick wall, tori and meshes as grids, 3-D and more as
slices): every directed channel coloured by its utilization or flit count in a load point,
by its load gamma_c, or (a run with --congestion totals) by where its packets waited; the
busiest channels numbered, the bisection cut dashed."""


class Parser(argparse.ArgumentParser):
    """Bad options are one line on stderr (the option, the value, what is allowed), exit 2.
    Every tool's parser (wormnet_analysis/tools too)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {one_line(message)}\n")


#: What bad input raises: our own refusals, h5py's and matplotlib's OSError (a file that
#: cannot be read or written), ValueError (a bad value), KeyError (a missing object).
EXPECTED = (FileError, LayoutError, ValueError, KeyError, OSError)


def one_line(text) -> str:
    """`text` on one line: HDF5's and argparse's messages may span several."""
    return " ".join(str(text).split())


def _stdout_error(error: Exception | None) -> OSError | None:
    """stdout's error when it cannot be written (a full disk, a closed pipe): `error` when it
    is one (an OSError without a file name: print's), or flush's. The rest of stdout then
    goes to /dev/null, or Python's flush at exit would print several lines more."""
    if not (isinstance(error, OSError) and error.filename is None
            and error.errno in (errno.ENOSPC, errno.EPIPE, errno.EDQUOT, errno.EIO)):
        try:
            sys.stdout.flush()
            return None
        except OSError as e:
            error = e
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return error


def run_guarded(name: str, main, *args, **kwargs) -> int:
    """main(*args, **kwargs), its EXPECTED errors as one line `name: message` on stderr and
    exit code 2 (never a traceback); main's own return code otherwise."""
    try:
        code, error = main(*args, **kwargs) or 0, None
    except EXPECTED as e:
        code, error = 2, e
    broken = _stdout_error(error)
    if isinstance(error, KeyError) and error.args:
        error = error.args[0]  # str(KeyError) quotes its message
    if broken is not None:
        code, error = 2, f"stdout: cannot write ({broken.strerror or broken})"
    if error is not None:
        print(f"{name}: {one_line(error)}", file=sys.stderr)
    return code


def guarded(name: str):
    """Decorates a tool's main() with run_guarded."""
    def wrap(main):
        @functools.wraps(main)
        def run(*args, **kwargs):
            return run_guarded(name, main, *args, **kwargs)
        return run
    return wrap


def check_output(path: str, option: str, inputs=(), suffix: str | None = None) -> None:
    """Refuses (FileError) the output path of `option` before anything is written: empty, a
    directory, in a folder that does not exist, without `suffix` (a format the tool does
    not write), or one of the input files (writing would destroy what it reads)."""
    if not path:
        raise FileError(f"{option} '': empty; give a file name")
    if os.path.isdir(path):
        raise FileError(f"{option} '{path}': is a directory; give a file name")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise FileError(f"{option} '{path}': folder '{folder}' does not exist")
    for source in inputs:
        if _same_file(path, source):
            raise FileError(f"{option} '{path}': is the input file {source}; writing it would "
                            "destroy it")
    if suffix and not path.lower().endswith(suffix):
        raise FileError(f"{option} '{path}': writes {suffix[1:].upper()}; give a name "
                        f"ending in {suffix}")


def check_directory(path: str, option: str | None = None) -> None:
    """Refuses (FileError) an input folder that is not a directory (missing, or a file)."""
    if not os.path.isdir(path):
        raise FileError(f"{option} '{path}': not a directory" if option else
                        f"{path}: not a directory")


def _same_file(a: str, b: str) -> bool:
    # samefile sees hard links; realpath a file not written yet.
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def finite(text: str) -> float:
    """An option's number: nan and inf would reach matplotlib and fail there."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"'{text}': a finite number, e.g. 40")
    return value


def positive(text: str) -> float:
    """An option's finite number > 0 (an axis' top, a size)."""
    value = finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"'{text}': a number > 0, e.g. 40")
    return value


def _slice(text: str) -> tuple:
    name, _, value = text.partition("=")
    name = name.strip().upper()
    if name not in DIM_NAMES or not value.strip().lstrip("-").isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: write DIM=VALUE with DIM one of "
                                         f"{', '.join(DIM_NAMES)}, e.g. Z=0")
    return DIM_NAMES.index(name), int(value)


def _plane(text: str) -> tuple:
    try:
        dims = tuple(int(x) for x in text.split(","))
    except ValueError:
        dims = ()
    if not 1 <= len(dims) <= 2:
        raise argparse.ArgumentTypeError(f"{text!r}: write two dimension numbers, e.g. 0,2")
    return dims


def _windows(text: str) -> list:
    """--windows 0,5,12: statistics window indices."""
    try:
        windows = [int(w) for w in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': window indices, e.g. 0,5,12") from None
    if any(w < 0 for w in windows):
        raise argparse.ArgumentTypeError(f"'{text}': window indices are >= 0")
    return windows


def heatmap_main(argv=None, prog: str | None = None) -> int:
    return run_guarded(prog or "heatmap", _heatmap_main, argv, prog)


def _heatmap_main(argv, prog: str | None) -> int:
    from .channels import QUANTITIES
    from .loaders import load_any

    ap = Parser(prog=prog, description=HEATMAP_USAGE)
    ap.add_argument("file", help="a result file (wormnet run/sweep -o) or a routing-table "
                                 "file (wormnet tables -o)")
    ap.add_argument("-o", "--output", required=True, help="PNG file to write")
    ap.add_argument("--quantity", choices=sorted([*QUANTITIES, "congestion", "over-time"]),
                    default=None,
                    help="utilization (default for result files), flits, load (gamma_c; "
                         "the only one of a table file), pattern-load; with --congestion "
                         "totals blocked, vc-wait, credit-wait, switch-wait, occupancy, "
                         "escape-share (duato), or congestion: a panel for each of those; "
                         "with --congestion series over-time: the utilization of the "
                         "--windows, a panel each")
    ap.add_argument("--windows", type=_windows, default=None,
                    help="--quantity over-time: the statistics windows drawn (indices, e.g. "
                         "0,5,12; default six spread over the run)")
    ap.add_argument("--point", type=int, default=None,
                    help="load point (default: the highest offered load not saturated)")
    ap.add_argument("--layout", default=None,
                    help="hex or brick for H_t (default hex), grid for tori and meshes")
    ap.add_argument("--plane", type=_plane, default=None,
                    help="the two dimensions drawn as a grid (tori, meshes), e.g. 0,2")
    ap.add_argument("--slice", type=_slice, action="append", default=[],
                    help="draw only the slice with this coordinate, e.g. Z=0 (repeatable)")
    ap.add_argument("--top", type=int, default=5, help="busiest channels to number (5)")
    ap.add_argument("--scale", choices=["auto", "absolute", "relative"], default="auto",
                    help="colour scale: absolute (0 to the largest value), relative (around "
                         "the mean: the perfect load of a minimal routing's gamma_c), or auto "
                         "(relative when the values differ by less than 10%% of the largest)")
    ap.add_argument("--vmin", type=finite, default=None,
                    help="the colour scale's lower end (default 0, or the relative scale's)")
    ap.add_argument("--vmax", type=finite, default=None,
                    help="the colour scale's upper end (default the largest value over the "
                         "whole network, slices or not)")
    ap.add_argument("--width", type=positive, default=9.0, help="figure width, inches (9)")
    ap.add_argument("--partition", metavar="PNG", default=None,
                    help="also draw the partition (result files): nodes by rank, edge cut")
    ap.add_argument("--partial", action="store_true",
                    help="also draw an unfinished result file's finished points")
    args = ap.parse_args(argv)
    # Nothing is written before every output is known to be writable and not the input.
    check_output(args.output, "-o", [args.file])
    if args.partition is not None:
        check_output(args.partition, "--partition", [args.file])
        if _same_file(args.partition, args.output):
            raise FileError(f"--partition '{args.partition}': is also -o; give another name")
    source = load_any(args.file, allow_partial=args.partial)
    from . import heatmap as hm  # matplotlib: only once there is something to draw
    from . import plots
    from .layouts import layout

    quantity = args.quantity
    options = {}
    if args.plane is not None:
        options["plane"] = args.plane
    if args.slice:
        options["slices"] = dict(args.slice)
    net = source.network
    if quantity == "congestion":
        if not hasattr(source, "points"):
            raise FileError(f"{args.file}: a routing-table file has no congestion counts")
        fig, drawn = hm.congestion_panels(source, args.point, style=args.layout,
                                          top=args.top, **options)
        plots.save_png(fig, args.output, dpi=100)
        print(f"panels     {args.output}: {', '.join(h.quantity for h in drawn)} of "
              f"{net.channels} channels of {net.spec}")
        for h in drawn:
            c = h.busiest[0] if h.busiest else int(h.values.argmax())
            print(f"{h.quantity:<12} max {h.values.max():.6g} on {net.channel_label(c)}")
        return 0
    if quantity == "over-time":
        if not hasattr(source, "points"):
            raise FileError(f"{args.file}: a routing-table file has no channel series")
        fig, drawn = hm.series_panels(source, args.windows, args.point, style=args.layout,
                                      top=args.top, **options)
        plots.save_png(fig, args.output, dpi=100)
        print(f"panels     {args.output}: utilization of {net.channels} channels of "
              f"{net.spec} in windows {', '.join(str(h.window) for h in drawn)}")
        return 0
    elif args.windows is not None:
        raise FileError("--windows: read with --quantity over-time only")
    h = hm.heatmap_of(source, quantity, args.point, args.layout, args.top, args.width,
                      scale=args.scale, vmin=args.vmin, vmax=args.vmax, **options)
    plots.save_png(h.figure, args.output, dpi=100)
    cut = net.bisection()
    quantity = quantity or ("utilization" if hasattr(source, "points") else "load")
    print(f"heatmap    {args.output}: {quantity} of {net.channels} channels of {net.spec}, "
          f"{h.layout.style} layout, max {h.values.max():.6g}")
    print(f"scale      {h.scale}: {h.norm.vmin:.6g} to {h.norm.vmax:.6g}")
    print(f"bisection  {cut.description}: {cut.channels_each_way} channels each way")
    for k, c in enumerate(h.busiest, 1):
        print(f"busiest {k}  {net.channel_label(c)}: {h.values[c]:.6g}")
    if args.partition:
        if getattr(net, "owner", None) is None:
            raise FileError(f"{args.file}: no partition (only result files have one)")
        fig, cut_links = hm.draw_partition(layout(net, args.layout, **options), net.owner,
                                           title=f"{net.spec}: partition")
        plots.save_png(fig, args.partition)
        print(f"partition  {args.partition}: {cut_links} links between ranks")
    return 0


def report_main(argv=None, prog: str | None = None) -> int:
    return run_guarded(prog or "report", _report_main, argv, prog)


def _report_main(argv, prog: str | None) -> int:
    from .results import load

    ap = Parser(
        prog=prog, description="A self-contained HTML report of one wormnet run or sweep: "
        "configuration, latency against accepted traffic, latency histograms, the warm-up "
        "and measurement windows (is the run steady?), channel heatmaps, partition, speed.")
    ap.add_argument("file", help="a result file (wormnet run/sweep -o)")
    ap.add_argument("-o", "--output", required=True, help="HTML file to write")
    ap.add_argument("--point", type=int, default=None,
                    help="load point of the heatmap (default: the highest offered load not "
                         "saturated)")
    ap.add_argument("--quantity", choices=["utilization", "flits"], default="utilization",
                    help="what the per-point heatmap shows")
    ap.add_argument("--partial", action="store_true",
                    help="also report an unfinished file's finished points")
    args = ap.parse_args(argv)
    check_output(args.output, "-o", [args.file])
    sweep = load(args.file, allow_partial=args.partial)
    if args.point is not None:
        sweep.point(args.point)
    from .report import report_html  # matplotlib: only once there is something to draw

    text = report_html(sweep, args.quantity, args.point)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"report     {args.output} ({len(text) // 1024} KiB, {len(sweep.points)} points)")
    return 0


#: The other tools (wormnet_analysis/tools): command name -> module. Each is also the script
#: analysis/<module>.py of the checkout and the command wormnet-<name> of an installed package.
TOOLS = {"plot-sweep": "plot_sweep", "fig5": "fig5", "compare-seeds": "compare_seeds",
         "tables-sim": "tables_sim", "tables-study": "tables_study",
         "honeycomb-tori": "honeycomb_tori", "workloads": "workloads",
         "tables-npb": "tables_npb", "faults-study": "faults_study"}


def run_tool(name: str, argv) -> int:
    """Runs tool `name` of TOOLS with arguments `argv` (its main() reads sys.argv)."""
    import importlib

    module = importlib.import_module(f"wormnet_analysis.tools.{TOOLS[name]}")
    saved = sys.argv
    sys.argv = [f"wormnet-{name}", *argv]
    try:
        return module.main() or 0
    finally:
        sys.argv = saved


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    tools = {"heatmap": heatmap_main, "report": report_main}
    if argv and argv[0] in TOOLS:
        return run_tool(argv[0], argv[1:])
    if not argv or argv[0] not in tools:
        names = "|".join([*tools, *TOOLS])
        print(f"usage: python3 -m wormnet_analysis {{{names}}} ... (--help for each)",
              file=sys.stderr)
        return 2
    return tools[argv[0]](argv[1:], prog=f"wormnet_analysis {argv[0]}")


def heatmap_entry() -> int:
    return heatmap_main(prog="wormnet-heatmap")


def report_entry() -> int:
    return report_main(prog="wormnet-report")
