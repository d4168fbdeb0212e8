"""Per-channel values of a file, for heatmaps: from a result file per point `utilization`
(flits per cycle in the measurement window) or `flits`, and with `--congestion totals`
where the channel's packets waited (/points/NNN/congestion, summed over the channel's VCs:
`vc-wait`, `credit-wait`, `switch-wait`, their sum `blocked`, `occupancy`, and under duato
`escape-share`); per run `load` (gamma_c of the load analysis, /routing/channel_load) and
`pattern-load` (the simulated traffic pattern's own loads, /routing/pattern/channel_load);
from a routing-table file `load` (its `loads`)."""

from __future__ import annotations

import numpy as np

from .results import ResultFileError, Sweep
from .tables import RoutingTable

#: Quantities a heatmap can show: name -> colour-bar text.
QUANTITIES = {
    "utilization": "channel utilization (flits/cycle in the measurement window)",
    "flits": "flits through the channel in the measurement window",
    "load": "\u03b3_c: routes through the channel over all ordered pairs",
    "pattern-load": "the simulated pattern's load: flits/cycle per flit/node/cycle offered",
    "vc-wait": "cycles a head waited for an output VC (summed over the channel's VCs)",
    "credit-wait": "cycles a VC waited for a credit (summed over the channel's VCs)",
    "switch-wait": "cycles a VC lost the switch (summed over the channel's VCs)",
    "blocked": "blocked cycles: VC + credit + switch waits, summed over the VCs",
    "occupancy": "mean flits buffered (the channel's VCs together)",
    "escape-share": "escape share: escape flits / all flits (duato)",
}

#: The per-point quantities read from /points/NNN/congestion (`--congestion totals`), in the
#: order of the small multiples (heatmap.congestion_panels).
CONGESTION = ("blocked", "vc-wait", "credit-wait", "switch-wait", "occupancy", "escape-share")


def congestion_values(source, quantity: str, point) -> np.ndarray:
    """One congestion quantity per channel of the Point `point` of `source`: the waits and
    the occupancy summed over the channel's VCs, `blocked` their three waits' sum, and
    `escape-share` escape_flits / (escape_flits + adaptive_flits) (0 for a channel that
    carried no flit). ResultFileError (one line) when the point has no counts or, for
    escape-share, when the routing has no escape VCs."""
    c = point.congestion
    if c is None:
        raise ResultFileError(f"{source.path}: point {point.index} has no congestion counts "
                              "(the run had --congestion off): rerun with --congestion totals")
    if quantity == "escape-share":
        if "escape_flits" not in c:
            raise ResultFileError(f"{source.path}: no escape VCs (routing "
                                  f"{source.routing.get('name', '?')}; escape-share is "
                                  "duato's)")
        escape = c["escape_flits"].astype(float)
        total = escape + c["adaptive_flits"].astype(float)
        return np.divide(escape, total, out=np.zeros_like(total), where=total > 0)
    if quantity == "blocked":
        return (c["vc_wait"].astype(float) + c["credit_wait"].astype(float)
                + c["switch_wait"].astype(float)).sum(axis=1)
    return c[quantity.replace("-", "_")].astype(float).sum(axis=1)


def measurement_bounds(sweep: Sweep) -> tuple:
    """(first cycle, first cycle after) of the run's measurement window, from its
    configuration (warm-up, then --measure, or up to --cycles)."""
    c = sweep.config
    warmup = int(c.get("warmup", 0))
    cycles = int(c.get("cycles", 0) or 0)
    return warmup, (cycles if cycles > 0 else warmup + int(c["measure"]))


def series_windows(source, point) -> tuple:
    """(flits (C, W), cycle_end (W,)) of the Point `point`'s channel series
    (`--congestion series`); ResultFileError (one line) when the run did not record it."""
    s = point.channel_series
    if s is None:
        raise ResultFileError(f"{source.path}: point {point.index} has no channel series "
                              "(the run had no --congestion series): rerun with --congestion "
                              "series")
    return s["flits"], s["cycle_end"]


def series_blocked(source, point) -> np.ndarray:
    """blocked (C, W) of the Point `point`'s channel series: the cycles each channel's input
    VCs waited (vc + credit + switch waits, summed over its VCs) in each statistics window's
    part inside the measurement window (0 outside it). ResultFileError (one line) when the
    run did not record it (no --congestion series, or a file from before the blocked series)."""
    s = point.channel_series
    if s is None or "blocked" not in s:
        raise ResultFileError(f"{source.path}: point {point.index} has no blocked-time series "
                              "(rerun with --congestion series)")
    return s["blocked"]


def window_phase(sweep: Sweep, start: int, end: int) -> str:
    """Where the window [start, end) lies: warm-up, measurement, drain, or across two."""
    begin, stop = measurement_bounds(sweep)
    if end <= begin:
        return "warm-up"
    if start >= stop:
        return "drain"
    if start >= begin and end <= stop:
        return "measurement"
    return "warm-up/measurement" if start < begin else "measurement/drain"


def default_point(sweep: Sweep) -> int:
    """The point a heatmap shows by default: the highest offered load not flagged saturated
    (the busiest steady state), else the last point."""
    s = sweep.summary
    stable = np.nonzero((s["saturated"] == 0) & (s["deadlock"] == 0))[0]
    if len(stable) == 0:
        return int(s["point"][-1])
    return int(s["point"][stable[np.argmax(s["offered_load"][stable])]])


def channel_values(source, quantity: str = "utilization", point: int | None = None) -> tuple:
    """(values (C,), text) for a Sweep or a RoutingTable; `point` for the per-point
    quantities of a sweep (None: default_point). ResultFileError when the file lacks it."""
    if quantity not in QUANTITIES:
        raise ValueError(f"quantity {quantity!r}: one of {', '.join(QUANTITIES)}")
    if isinstance(source, RoutingTable):
        if quantity != "load":
            raise ResultFileError(f"{source.path}: a routing-table file has channel loads only "
                                  "(quantity 'load')")
        return source.loads.astype(float), QUANTITIES["load"]
    if quantity == "pattern-load":
        if getattr(source, "pattern_channel_load", None) is None:
            raise ResultFileError(f"{source.path}: no /routing/pattern (uniform traffic, or the "
                                  "pattern's load analysis did not run)")
        return source.pattern_channel_load.astype(float), QUANTITIES["pattern-load"]
    if quantity == "load":
        if source.channel_load is None:
            raise ResultFileError(f"{source.path}: no /routing/channel_load (the load analysis "
                                  "did not run: network above 20000 nodes?)")
        return source.channel_load.astype(float), QUANTITIES["load"]
    if not source.points:
        raise ResultFileError(f"{source.path}: no finished load point")
    p = source.point(default_point(source) if point is None else point)
    if quantity in CONGESTION:
        return congestion_values(source, quantity, p), QUANTITIES[quantity]
    data = p.channel_utilization if quantity == "utilization" else p.channel_flits
    if data is None:
        raise ResultFileError(f"{source.path}: point {p.index} has no per-channel counts")
    return data.astype(float), QUANTITIES[quantity]
