"""Reader for wormnet's HDF5 result files (layout: docs/hdf5-schema.md, "Objects of a run").

Reads a whole `wormnet run` or `wormnet sweep` file into memory (they are small: a few MB)
and closes it. Checks the layout version and the run status first:

    import wormnet_h5
    sweep = wormnet_h5.load("results.h5")
    sweep.summary["accepted"]          # numpy array, one element per finished load point
    sweep.points[0].attrs["latency_p99"]
    sweep.points[0].timeseries["accepted"]

Needs h5py and numpy (Debian: python3-h5py, python3-numpy; run with /usr/bin/python3).
"""

from __future__ import annotations

import dataclasses
import tomllib

import h5py
import numpy as np

#: The layout version this reader understands (include/wormnet/io/h5_schema.hpp).
SCHEMA_VERSION = 1

#: Final statuses whose every point is complete. "deadlock" files hold every point up to and
#: including the one that deadlocked, with its report.
FINISHED = ("complete", "deadlock")


class ResultFileError(Exception):
    """The file is not a wormnet result this reader can trust."""


@dataclasses.dataclass
class Point:
    """One load point: the group /points/NNN."""

    index: int
    attrs: dict  #: scalar attributes (accepted, latency_mean, saturated, ...)
    timeseries: dict  #: column name -> 1-D array, one row per statistics window
    histogram: dict  #: "bucket_lower", "total", "network", "queueing" -> arrays
    channel_flits: np.ndarray | None  #: flits per channel in the measurement window
    channel_utilization: np.ndarray | None
    deadlock: dict | None  #: attributes of the deadlock report, if any


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

    @property
    def label(self) -> str:
        """A short legend label: routing, topology, message lengths, buffer depth."""
        c = self.config
        return (
            f"{self.routing['name']} on {self.topology['spec']}, "
            f"{c.get('length-min', '?')}..{c.get('length-max', '?')} flits, "
            f"B={c.get('buffer', '?')}"
        )


def _attrs(obj) -> dict:
    out = {}
    for k, v in obj.attrs.items():
        if isinstance(v, bytes):
            v = v.decode("utf-8")
        elif isinstance(v, np.generic):
            v = v.item()
        out[k] = v
    return out


def read_table(group) -> tuple[dict, dict]:
    """A time-series table (docs/hdf5-schema.md): columns -> arrays, cut to the shortest
    column (the newest row of a killed writer may be incomplete), and columns -> units."""
    columns = [str(c) for c in group.attrs["columns"]]
    if not columns:
        return {}, {}
    rows = min(group[c].shape[0] for c in columns)
    data = {c: group[c][:rows] for c in columns}
    units = {}
    for c in columns:
        u = group[c].attrs.get("unit", "")
        units[c] = u.decode() if isinstance(u, bytes) else str(u)
    return data, units


def _read_point(g) -> Point:
    ts, _ = read_table(g["timeseries"]) if "timeseries" in g else ({}, {})
    hist = {}
    if "latency_histogram" in g:
        for name, d in g["latency_histogram"].items():
            hist[name] = d[()]
    deadlock = _attrs(g["deadlock"]) if "deadlock" in g else None
    return Point(
        index=int(g.attrs["index"]),
        attrs=_attrs(g),
        timeseries=ts,
        histogram=hist,
        channel_flits=g["channel_flits"][()] if "channel_flits" in g else None,
        channel_utilization=g["channel_utilization"][()] if "channel_utilization" in g else None,
        deadlock=deadlock,
    )


def load(path: str, allow_partial: bool = False) -> Sweep:
    """Reads a wormnet result file.

    Raises ResultFileError if the file's schema_version is not SCHEMA_VERSION, or if its
    status is not a finished one ("complete", "deadlock") and allow_partial is False. With
    allow_partial, a killed or interrupted run gives its finished points only.
    """
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ResultFileError(f"{path}: cannot open as HDF5 ({e})") from e
    with f:
        root = _attrs(f)
        version = root.get("schema_version")
        if version != SCHEMA_VERSION:
            raise ResultFileError(
                f"{path}: schema_version {version!r}; this reader knows {SCHEMA_VERSION}"
            )
        status = root.get("status", "")
        if status not in FINISHED and not allow_partial:
            raise ResultFileError(
                f"{path}: status {status!r} (the run did not finish); "
                "pass allow_partial=True to read its finished points"
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
        return Sweep(
            path=path,
            status=status,
            command=root.get("command", ""),
            flit_rate=float(root.get("flit_rate", 20.0)),
            config=config,
            config_text=config_text,
            topology=_attrs(f["topology"]),
            routing=_attrs(f["routing"]),
            summary=summary,
            summary_units=units,
            points=points,
        )


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
}


#: The knee of a latency curve: where mean latency reaches this multiple of the latency at
#: the sweep's lowest load (a near zero-load latency).
KNEE_FACTOR = 3.0


def saturation_point(sweep: Sweep) -> dict:
    """Where a sweep saturates.

    throughput: the largest accepted traffic of any point (flits/node/cycle), i.e. the
    plateau the network reaches once offered load exceeds what it can carry; with its two
    normalizations. knee: the accepted traffic at which mean latency reaches KNEE_FACTOR
    times the latency of the lowest load point (linear interpolation between the two points,
    in offered-load order, that straddle it; None if it never does). last_stable: the
    highest offered load not flagged saturated, with its accepted traffic and mean latency
    (us). saturated: whether any point saturated (if not, the sweep never reached saturation
    and throughput is only a lower bound).
    """
    s = sweep.summary
    if len(s.get("accepted", [])) == 0:
        raise ResultFileError(f"{sweep.path}: no finished load point")
    peak = int(np.argmax(s["accepted"]))
    out = {
        "throughput": float(s["accepted"][peak]),
        "throughput_vs_saturation": float(s["accepted_vs_saturation"][peak]),
        "throughput_vs_bisection": float(s["accepted_vs_bisection"][peak]),
        "saturated": bool(np.any(s["saturated"] != 0)),
        "last_stable": None,
    }
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
    stable = np.nonzero((s["saturated"] == 0) & (s["deadlock"] == 0))[0]
    if len(stable):
        i = int(stable[np.argmax(s["offered_load"][stable])])
        out["last_stable"] = {
            "offered": float(s["offered_load"][i]),
            "accepted": float(s["accepted"][i]),
            "accepted_vs_saturation": float(s["accepted_vs_saturation"][i]),
            "accepted_vs_bisection": float(s["accepted_vs_bisection"][i]),
            "latency_us": float(s["latency_mean_us"][i]),
        }
    return out
