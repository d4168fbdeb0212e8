"""Per-channel values of a file, for heatmaps: from a result file per point `utilization`
(flits per cycle in the measurement window) or `flits`, per run `load` (gamma_c of the load
analysis, /routing/channel_load) and `pattern-load` (the simulated traffic pattern's own
loads, /routing/pattern/channel_load); from a routing-table file `load` (its `loads`)."""

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
}


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
    data = p.channel_utilization if quantity == "utilization" else p.channel_flits
    if data is None:
        raise ResultFileError(f"{source.path}: point {p.index} has no per-channel counts")
    return data.astype(float), QUANTITIES[quantity]
