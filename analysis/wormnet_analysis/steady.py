"""Is a run steady? A look at a point's statistics windows inside its measurement window.

A point is steady when, over its measurement window, (1) the sources' backlog does not grow
(it grows without bound once offered load exceeds what the network carries), (2) the
network's occupancy does not keep rising (a warm-up too short for the load leaves the
network still filling), and (3) accepted traffic does not drift. Each is a least-squares
line through the windows' values; a trend counts when its slope is TREND_T standard errors
from zero *and* large enough to matter (the limits below), so Poisson noise of a short run
does not trip it.

>>> import numpy as np
>>> ts = {"cycle_end": np.arange(1, 21) * 100, "cycles": np.full(20, 100),
...       "accepted": np.full(20, 0.01), "flits_in_network": np.full(20, 50),
...       "flits_at_sources": np.arange(20) * 40}           # backlog grows 0.4 flits/cycle
>>> s = steadiness(ts, warmup=0, measure=2000, nodes=4, offered=0.1)
>>> s.steady, round(s.backlog_growth, 3)
(False, 0.1)
>>> print(s.verdict)
not steady: the sources' backlog grows by 0.1 flits/node/cycle (100% of the offered load)

A point the simulator flagged saturated is never called steady (point_steadiness): the
flag, with its reason, comes first in the verdict, so the report's two tables agree.
"""

from __future__ import annotations

import dataclasses

import numpy as np

#: A trend is real when its slope is at least this many standard errors from zero.
TREND_T = 4.0
#: Backlog growth that matters, as a fraction of the offered load.
BACKLOG_LIMIT = 0.05
#: Change of occupancy over the window that matters, relative to its mean.
OCCUPANCY_LIMIT = 0.25
#: Change of accepted traffic over the window that matters, relative to its mean.
DRIFT_LIMIT = 0.10


@dataclasses.dataclass
class Steadiness:
    windows: int  #: statistics windows inside the measurement window
    backlog_growth: float  #: flits/node/cycle: slope of the sources' backlog
    occupancy_change: float  #: fitted change of flits in the network over the window / mean
    accepted_drift: float  #: fitted change of accepted traffic over the window / mean
    steady: bool
    verdict: str  #: "steady", "not steady: ..." or "too few windows to tell ..."


def _trend(y: np.ndarray) -> tuple:
    """(slope per window, t statistic) of a least-squares line through y."""
    n = len(y)
    x = np.arange(n, dtype=float)
    x -= x.mean()
    sxx = float(np.sum(x * x))
    slope = float(np.sum(x * (y - y.mean())) / sxx)
    resid = y - y.mean() - slope * x
    se = float(np.sqrt(np.sum(resid * resid) / max(n - 2, 1) / sxx))
    if se == 0.0:
        return slope, (0.0 if slope == 0.0 else np.inf * np.sign(slope))
    return slope, slope / se


def measurement_windows(ts: dict, warmup: int, measure: int) -> np.ndarray:
    """(W,) bool: windows that lie inside [warmup, warmup + measure)."""
    end = np.asarray(ts["cycle_end"])
    start = end - np.asarray(ts["cycles"])
    return (start >= warmup) & (end <= warmup + measure)


def steadiness(ts: dict, warmup: int, measure: int, nodes: int, offered: float) -> Steadiness:
    """The verdict on one point: `ts` its time series (Point.timeseries), warmup and measure
    its windows (cycles), nodes N, offered its offered load (flits/node/cycle)."""
    inside = measurement_windows(ts, warmup, measure)
    w = int(inside.sum())
    if w < 5:
        return Steadiness(w, 0.0, 0.0, 0.0, True,
                          f"too few windows to tell ({w} in the measurement window; a smaller "
                          "--stats-window gives more)")
    cycles = float(np.mean(np.asarray(ts["cycles"])[inside]))
    backlog = np.asarray(ts["flits_at_sources"], dtype=float)[inside]
    slope_b, t_b = _trend(backlog)
    growth = slope_b / cycles / nodes
    occ = np.asarray(ts["flits_in_network"], dtype=float)[inside]
    slope_o, t_o = _trend(occ)
    occ_change = slope_o * (w - 1) / max(occ.mean(), 1e-12)
    acc = np.asarray(ts["accepted"], dtype=float)[inside]
    slope_a, t_a = _trend(acc)
    drift = slope_a * (w - 1) / max(acc.mean(), 1e-12)
    reasons = []
    if t_b > TREND_T and growth > BACKLOG_LIMIT * offered:
        reasons.append(f"the sources' backlog grows by {growth:.3g} flits/node/cycle "
                       f"({100 * growth / offered:.0f}% of the offered load)")
    if t_o > TREND_T and occ_change > OCCUPANCY_LIMIT:
        reasons.append(f"the network is still filling (occupancy +{100 * occ_change:.0f}% over "
                       "the window: a longer --warmup?)")
    if abs(t_a) > TREND_T and abs(drift) > DRIFT_LIMIT:
        reasons.append(f"accepted traffic drifts by {100 * drift:+.0f}% over the window")
    verdict = "not steady: " + "; ".join(reasons) if reasons else "steady"
    return Steadiness(w, growth, occ_change, drift, not reasons, verdict)


def point_steadiness(sweep, point) -> Steadiness:
    """steadiness() of a Point of a Sweep, with the sweep's warm-up and measurement window. A
    point the simulator flagged saturated (its `saturated` attribute: accepted traffic below
    95% of offered, the drain limit, the early stop) is not steady whatever its trends: the
    verdict starts with the flag and its reason (one definition of saturation, the
    simulator's; the trends only explain it, or warn of a point that is not flagged)."""
    c = sweep.config
    warmup = int(c.get("warmup", 0))
    measure = int(c["cycles"]) - warmup if int(c.get("cycles", 0) or 0) > 0 else int(c["measure"])
    st = steadiness(point.timeseries, warmup, measure, sweep.network.nodes,
                    float(point.attrs["offered_load"]))
    if not int(point.attrs.get("saturated", 0)):
        return st
    flag = f"flagged saturated ({point.attrs.get('saturation_reason', '')})"
    rest = st.verdict.split(": ", 1)[1] if not st.steady and ": " in st.verdict else ""
    if st.windows < 5 or st.steady:
        rest = ""
    st.steady = False
    st.verdict = "not steady: " + flag + ("; " + rest if rest else "")
    return st
