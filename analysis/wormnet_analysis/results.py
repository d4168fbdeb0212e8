"""Reader for wormnet's HDF5 result files (layout: docs/hdf5-schema.md, "Objects of a run").

Reads a whole `wormnet run` or `wormnet sweep` file into memory (they are small: a few MB)
and closes it. Checks the layout version and the run status first. Columns come as numpy
arrays (dicts of them) and, through the *_frame methods, as pandas DataFrames:

    sweep = load("results.h5")
    sweep.summary["accepted"]          # numpy array, one element per finished load point
    sweep.summary_frame()              # the same table as a DataFrame, one row per point
    sweep.points[0].attrs["latency_p99"]
    sweep.points[0].timeseries_frame() # one row per statistics window
    sweep.channels_frame(0)            # one row per channel: ends, flits, utilization, gamma_c
"""

from __future__ import annotations

import dataclasses
import tomllib

import numpy as np

from ._h5 import FileError, attrs, open_h5, read_table
from .network import Network, read_network
from .workload import Workload, read_workload

#: The layout version of the files wormnet writes now (include/wormnet/h5/h5_schema.hpp,
#: kResultsSchemaVersion).
SCHEMA_VERSION = 2
#: The versions this reader reads: 1 stored each point's channel_utilization, which 2 leaves
#: to the reader (channel_flits / window_cycles); Point.channel_utilization is the same for both.
READABLE_VERSIONS = (1, 2)

#: Final statuses whose every point is complete. "deadlock" files hold every point up to and
#: including the one that deadlocked, with its report; "incomplete" ones a workload's point
#: that the drain limit ended (its /workload says complete = 0).
FINISHED = ("complete", "deadlock", "incomplete")


class ResultFileError(FileError):
    """The file is not a wormnet result this reader can trust."""


@dataclasses.dataclass
class Point:
    """One load point: the group /points/NNN."""

    index: int
    attrs: dict  #: scalar attributes (accepted, latency_mean, saturated, ...)
    timeseries: dict  #: column name -> 1-D array, one row per statistics window
    histogram: dict  #: "bucket_lower", "total", "network", "queueing" -> arrays
    channel_flits: np.ndarray | None  #: flits per channel in the measurement window
    #: channel_flits / the window's cycles (1 = a flit every cycle): stored up to schema
    #: version 1, derived by the reader since 2.
    channel_utilization: np.ndarray | None
    deadlock: dict | None  #: attributes of the deadlock report, if any
    timeseries_units: dict = dataclasses.field(default_factory=dict)
    #: Where packets waited (/points/NNN/congestion, `--congestion totals`): dataset name ->
    #: array (vc_wait, credit_wait, switch_wait, occupancy, vc_flits: (C, V); blocked and,
    #: under duato, escape_flits, adaptive_flits: (C,)) and "escape_vcs" (the VC bit mask);
    #: None when the run did not count them.
    congestion: dict | None = None
    #: The channel view over time (/points/NNN/channel_series, `--congestion series`):
    #: "flits" (C, W), the flits each channel carried in each statistics window, "blocked"
    #: (C, W), the cycles its input VCs waited in the window's part inside the measurement
    #: window, and "cycle_end" (W,), the first cycle after each window; None when the run did
    #: not record it.
    channel_series: dict | None = None

    def timeseries_frame(self):
        """The statistics windows as a DataFrame (one row per window, columns as stored)."""
        import pandas as pd

        return pd.DataFrame(self.timeseries)

    def histogram_frame(self):
        """Latency histograms as a DataFrame indexed by bucket lower bound (cycles): columns
        total, network, queueing (labelled packets per bucket); empty buckets dropped."""
        import pandas as pd

        cols = {k: v for k, v in self.histogram.items() if k != "bucket_lower"}
        frame = pd.DataFrame(cols, index=pd.Index(self.histogram["bucket_lower"], name="cycles"))
        return frame[(frame != 0).any(axis=1)]


@dataclasses.dataclass
class Sweep:
    """Everything in one result file."""

    path: str
    status: str
    command: str  #: "run" or "sweep"
    flit_rate: float  #: flits per microsecond per channel
    config: dict  #: the effective configuration (TOML parsed)
    config_text: str
    topology: dict  #: attributes of /topology
    routing: dict  #: attributes of /routing
    summary: dict  #: column name -> 1-D array, one row per finished point
    summary_units: dict  #: column name -> unit string
    points: list
    root: dict = dataclasses.field(default_factory=dict)  #: root attributes
    network: Network | None = None  #: nodes, channels, partition
    channel_load: np.ndarray | None = None  #: gamma_c per channel (/routing/channel_load)
    #: The closed-loop workload of `run --workload` (/workload), None for a load sweep.
    workload: Workload | None = None
    #: The traffic pattern's own ideal (/routing/pattern attributes: name, pi,
    #: saturation_rate, offered_at_ideal, pairs, senders), None for uniform traffic or when
    #: the run did not compute it; its per-channel loads in pattern_channel_load.
    pattern_ideal: dict | None = None
    pattern_channel_load: np.ndarray | None = None

    def ideal_rate(self) -> tuple:
        """(rate, text) the accepted traffic is best compared with: the simulated pattern's
        ideal saturation rate when the file has it, else the routing's uniform (N-1)/pi;
        (0.0, text) when neither is known."""
        if self.pattern_ideal and float(self.pattern_ideal.get("saturation_rate", 0)) > 0:
            return (float(self.pattern_ideal["saturation_rate"]),
                    f"the {self.pattern_ideal['name']} ideal (senders/(Nπₚ))")
        return float(self.routing.get("saturation_rate", 0) or 0), "(N-1)/π"

    @property
    def is_workload(self) -> bool:
        """A closed-loop workload's run (one point, no offered load): report.py reads it,
        the load-sweep tools (plot_sweep.py, fig5.py, ...) refuse it."""
        return self.workload is not None

    @property
    def label(self) -> str:
        """A short legend label: routing, topology, message lengths (or the workload),
        buffer depth."""
        c = self.config
        if self.workload is not None:
            return (f"{self.routing['name']} on {self.topology['spec']}, "
                    f"{self.workload.label}, B={c.get('buffer', '?')}")
        return (
            f"{self.routing['name']} on {self.topology['spec']}, "
            f"{c.get('length-min', '?')}..{c.get('length-max', '?')} flits, "
            f"B={c.get('buffer', '?')}"
        )

    def point(self, index: int) -> Point:
        """The point with this index (KeyError if it did not finish)."""
        for p in self.points:
            if p.index == index:
                return p
        raise KeyError(f"{self.path}: no finished point {index}")

    def summary_frame(self):
        """The summary table as a DataFrame, one row per finished point (index: point)."""
        import pandas as pd

        return pd.DataFrame(self.summary).set_index("point")

    def points_frame(self):
        """The scalar attributes of every point as a DataFrame (index: point)."""
        import pandas as pd

        return pd.DataFrame([p.attrs for p in self.points]).set_index("index")

    def channels_frame(self, index: int | None = None):
        """One row per channel (index: channel id): its ends and port (Network.channels_frame),
        gamma_c as `load` when the file has it, and with a point index that point's `flits`
        and `utilization`."""
        frame = self.network.channels_frame()
        if self.channel_load is not None:
            frame["load"] = self.channel_load
        if index is not None:
            p = self.point(index)
            frame["flits"] = p.channel_flits
            frame["utilization"] = p.channel_utilization
        return frame


def _utilization(g):
    """A point's channel_utilization: stored (schema version 1), or channel_flits / the
    window's cycles as the writer of version 1 computed it (both in float64)."""
    if "channel_utilization" in g:
        return g["channel_utilization"][()]
    if "channel_flits" not in g or "window_cycles" not in g.attrs:
        return None
    flits = g["channel_flits"][()].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):  # a window of 0 cycles, as before
        return flits / float(g.attrs["window_cycles"])


def _read_point(g) -> Point:
    ts, units = read_table(g["timeseries"]) if "timeseries" in g else ({}, {})
    hist = {}
    if "latency_histogram" in g:
        for name, d in g["latency_histogram"].items():
            hist[name] = d[()]
    deadlock = attrs(g["deadlock"]) if "deadlock" in g else None
    return Point(
        index=int(g.attrs["index"]),
        attrs=attrs(g),
        timeseries=ts,
        histogram=hist,
        channel_flits=g["channel_flits"][()] if "channel_flits" in g else None,
        channel_utilization=_utilization(g),
        deadlock=deadlock,
        timeseries_units=units,
        congestion=_read_congestion(g["congestion"]) if "congestion" in g else None,
        channel_series=({name: d[()] for name, d in g["channel_series"].items()}
                        if "channel_series" in g else None),
    )


def _read_congestion(g) -> dict:
    data = {name: d[()] for name, d in g.items()}
    data["escape_vcs"] = int(g.attrs.get("escape_vcs", 0))
    data["window_cycles"] = int(g.attrs.get("window_cycles", 0))
    return data


def load(path: str, allow_partial: bool = False) -> Sweep:
    """Reads a wormnet result file.

    Raises ResultFileError if the file's schema_version is not one of READABLE_VERSIONS, or if its
    status is not a finished one (FINISHED) and allow_partial is False. With
    allow_partial, a killed or interrupted run gives its finished points only.
    """
    with open_h5(path, ResultFileError) as f:
        root = attrs(f)
        version = root.get("schema_version")
        if version not in READABLE_VERSIONS:
            raise ResultFileError(
                f"{path}: schema_version {version!r}; this reader knows "
                + ", ".join(str(v) for v in READABLE_VERSIONS)
            )
        if "summary" not in f or "topology" not in f:
            raise ResultFileError(f"{path}: not a wormnet run or sweep file (no summary)")
        status = root.get("status", "")
        if status not in FINISHED and not allow_partial:
            raise ResultFileError(
                f"{path}: status {status!r} (the run did not finish); "
                "pass allow_partial=True (--partial of heatmap.py, report.py) to read its "
                "finished points"
            )
        config_text = root.get("config", "")
        try:
            config = tomllib.loads(config_text)
        except tomllib.TOMLDecodeError as e:
            raise ResultFileError(f"{path}: the config attribute is not TOML ({e})") from e
        summary, units = read_table(f["summary"])
        finished = {int(i) for i in summary.get("point", [])}
        points = []
        if "points" in f:
            for name in sorted(f["points"]):
                g = f["points"][name]
                if int(g.attrs["index"]) in finished:
                    points.append(_read_point(g))
        load_ds = f["routing"].get("channel_load")
        pattern = f["routing"].get("pattern")
        return Sweep(
            path=path,
            status=status,
            command=root.get("command", ""),
            flit_rate=float(root.get("flit_rate", 20.0)),
            config=config,
            config_text=config_text,
            topology=attrs(f["topology"]),
            routing=attrs(f["routing"]),
            summary=summary,
            summary_units=units,
            points=points,
            root=root,
            network=read_network(f),
            channel_load=load_ds[()] if load_ds is not None else None,
            workload=read_workload(f, float(root.get("flit_rate", 20.0))),
            pattern_ideal=attrs(pattern) if pattern is not None else None,
            pattern_channel_load=(pattern["channel_load"][()]
                                  if pattern is not None and "channel_load" in pattern else None),
        )


def require_load_sweep(sweep: Sweep) -> Sweep:
    """The sweep itself; ResultFileError (one line) for a closed-loop workload's run, which
    has no offered load, latency curve or saturation: analysis/report.py reports it."""
    if sweep.is_workload:
        raise ResultFileError(
            f"{sweep.path}: a closed-loop workload's run ({sweep.workload.name}), not a load "
            "sweep: it has no offered load or saturation point (analysis/report.py reports "
            "its completion, iterations and critical path)")
    return sweep


#: The x-axis choices: summary column, axis text.
NORMALIZATIONS = {
    "saturation": (
        "accepted_vs_saturation",
        "accepted traffic, % of the routing's ideal saturation rate (N-1)/\u03c0",
    ),
    "bisection": (
        "accepted_vs_bisection",
        "accepted traffic, % of the topology's uniform bisection bound",
    ),
    "absolute": ("accepted", "accepted traffic (flits/node/cycle)"),
    "pattern": (None, "accepted traffic, % of the simulated pattern's ideal saturation rate"),
}


#: The knee of a latency curve: where mean latency reaches this multiple of the latency at
#: the sweep's lowest load (a near zero-load latency).
KNEE_FACTOR = 3.0


def saturation_point(sweep: Sweep) -> dict:
    """Where a sweep saturates, by the one flag of a saturated point: the simulator's
    `saturated` (accepted below 95% of offered, the drain limit, or the early stop;
    docs/simulator.md, "Measurement"). Two figures, each named for what it is:

    saturation_throughput: the largest accepted traffic (flits/node/cycle) of a point not
    flagged saturated nor deadlocked, the steady throughput the network sustains (the
    definition docs/duato.md and docs/honeycomb-tori.md use): a dict with accepted, its two
    normalizations, point and offered; None when every point is flagged.
    peak: the largest accepted traffic of any point, a flagged one included (the plateau past
    saturation): the same keys and saturated (whether that point is flagged).
    throughput, throughput_vs_saturation, throughput_vs_bisection: the peak's figures, under
    the names older scripts read (the tools print them as "peak accepted").
    knee: the accepted traffic at which mean latency reaches KNEE_FACTOR times the latency of
    the lowest load point (linear interpolation between the two points, in offered-load order,
    that straddle it; None if it never does). last_stable: the highest offered load not flagged
    saturated, with its accepted traffic and mean latency (us). saturated: whether any point is
    flagged (if not, the sweep never reached saturation and both figures are lower bounds).
    """
    require_load_sweep(sweep)
    s = sweep.summary
    if len(s.get("accepted", [])) == 0:
        raise ResultFileError(f"{sweep.path}: no finished load point")

    def figures(i: int) -> dict:
        return {"accepted": float(s["accepted"][i]),
                "accepted_vs_saturation": float(s["accepted_vs_saturation"][i]),
                "accepted_vs_bisection": float(s["accepted_vs_bisection"][i]),
                "point": int(s["point"][i]), "offered": float(s["offered_load"][i])}

    peak = int(np.argmax(s["accepted"]))
    out = {
        "throughput": float(s["accepted"][peak]),
        "throughput_vs_saturation": float(s["accepted_vs_saturation"][peak]),
        "throughput_vs_bisection": float(s["accepted_vs_bisection"][peak]),
        "peak": dict(figures(peak), saturated=bool(s["saturated"][peak] != 0)),
        "saturated": bool(np.any(s["saturated"] != 0)),
        "last_stable": None,
        "saturation_throughput": None,
    }
    steady = np.nonzero((s["saturated"] == 0) & (s["deadlock"] == 0))[0]
    if len(steady):
        out["saturation_throughput"] = figures(int(steady[np.argmax(s["accepted"][steady])]))
    order = np.argsort(s["offered_load"], kind="stable")
    lat = np.asarray(s["latency_mean"], dtype=float)[order]
    acc = np.asarray(s["accepted"], dtype=float)[order]
    limit = KNEE_FACTOR * lat[0]
    out["knee"] = None
    above = np.nonzero(lat >= limit)[0]
    if len(above) and above[0] > 0:
        k = int(above[0])
        w = (limit - lat[k - 1]) / (lat[k] - lat[k - 1])
        knee = float(acc[k - 1] + w * (acc[k] - acc[k - 1]))
        out["knee"] = {
            "latency_us": limit / sweep.flit_rate,
            "accepted": knee,
            "accepted_vs_saturation": knee / float(sweep.routing["saturation_rate"] or np.nan),
            "accepted_vs_bisection": knee / float(sweep.topology["bisection_bound"]),
        }
    if len(steady):
        i = int(steady[np.argmax(s["offered_load"][steady])])
        out["last_stable"] = {
            "offered": float(s["offered_load"][i]),
            "accepted": float(s["accepted"][i]),
            "accepted_vs_saturation": float(s["accepted_vs_saturation"][i]),
            "accepted_vs_bisection": float(s["accepted_vs_bisection"][i]),
            "latency_us": float(s["latency_mean_us"][i]),
        }
    return out


def describe_saturation(sweep: Sweep) -> str:
    """One sentence on where `sweep` saturates, both figures named (saturation_point), each as
    a percentage of the ideal it is best compared with (Sweep.ideal_rate) and of the bisection
    bound."""
    p = saturation_point(sweep)
    rate, what = sweep.ideal_rate()
    bisection = float(sweep.topology.get("bisection_bound", 0) or 0)

    def pct(x: float) -> str:
        parts = []
        if rate > 0:
            parts.append(f"{100 * x / rate:.1f}% of {what}")
        if bisection > 0:
            parts.append(f"{100 * x / bisection:.1f}% of the bisection bound")
        return ", ".join(parts)

    st, pk = p["saturation_throughput"], p["peak"]
    if st is None:
        head = "every point is flagged saturated: no saturation throughput"
    elif not p["saturated"]:
        head = (f"did not saturate: saturation throughput at least {st['accepted']:.5f} "
                f"flits/node/cycle ({pct(st['accepted'])})")
    else:
        head = (f"saturation throughput {st['accepted']:.5f} flits/node/cycle ({pct(st['accepted'])}; "
                f"the largest accepted of a point not flagged saturated: point {st['point']}, "
                f"offered {st['offered']:.5g})")
    if pk["saturated"] or st is None:
        head += (f"; peak accepted {pk['accepted']:.5f} (point {pk['point']}, offered "
                 f"{pk['offered']:.5g}, flagged saturated)")
    return head
