"""Where packets wait (`wormnet run --congestion totals`; docs/simulator.md, "Congestion
statistics"): a point's /points/NNN/congestion group as a pandas DataFrame, one row per
(channel, VC); and with `--congestion series` the channel view over time,
/points/NNN/channel_series, one row per statistics window and a column per channel."""
import numpy as np

from ._h5 import open_h5


def congestion_frame(path: str, index: int = 0):
    """One row per channel and VC of point `index` of the results file `path`: channel, vc,
    source, dest (nodes), vc_wait, credit_wait, switch_wait (cycles of the measurement
    window), occupancy (mean flits buffered), flits (that crossed the channel on that VC) and
    escape (True on an escape VC of `duato`). KeyError when the run did not count them."""
    import pandas as pd

    with open_h5(path) as f:
        name = f"points/{index:03d}/congestion"
        if name not in f:
            raise KeyError(f"{path}: point {index} has no congestion counts "
                           "(run with --congestion totals)")
        g = f[name]
        channels, vcs = g["vc_wait"].shape
        escape_vcs = int(g.attrs["escape_vcs"])
        channel = np.repeat(np.arange(channels), vcs)
        vc = np.tile(np.arange(vcs), channels)
        frame = pd.DataFrame({
            "channel": channel,
            "vc": vc,
            "source": f["topology/channel_source"][()][channel],
            "dest": f["topology/channel_dest"][()][channel],
            "vc_wait": g["vc_wait"][()].ravel(),
            "credit_wait": g["credit_wait"][()].ravel(),
            "switch_wait": g["switch_wait"][()].ravel(),
            "occupancy": g["occupancy"][()].ravel(),
            "flits": g["vc_flits"][()].ravel(),
            "escape": (escape_vcs >> vc) & 1 == 1,
        })
    return frame


def channel_series_frame(path: str, index: int = 0, quantity: str = "flits"):
    """The channel view over time of point `index` of the results file `path`
    (/points/NNN/channel_series, `--congestion series`): one row per statistics window of the
    whole run (warm-up, measurement, drain), indexed by `cycle_end` (the first cycle after the
    window), one column per channel id; `quantity` "flits" (that crossed the channel in the
    window), "utilization" (those flits / the window's cycles) or "blocked" (the cycles the
    channel's input VCs waited for a VC, a credit or the switch, summed over its VCs, in the
    window's part inside the measurement window: 0 outside it). KeyError when the run did
    not record it."""
    import pandas as pd

    if quantity not in ("flits", "utilization", "blocked"):
        raise ValueError(f"quantity {quantity!r}: flits, utilization or blocked")
    with open_h5(path) as f:
        name = f"points/{index:03d}/channel_series"
        if name not in f:
            raise KeyError(f"{path}: point {index} has no channel series "
                           "(run with --congestion series)")
        if quantity == "blocked" and "blocked" not in f[name]:
            raise KeyError(f"{path}: point {index} has no blocked-time series "
                           "(rerun with --congestion series)")
        flits = f[name]["blocked" if quantity == "blocked" else "flits"][()]
        ends = f[name]["cycle_end"][()]
    values = flits.T.astype(float if quantity == "utilization" else np.int64)
    if quantity == "utilization":
        cycles = np.diff(ends, prepend=0).astype(float)
        values = values / cycles[:, None]
    frame = pd.DataFrame(values, index=pd.Index(ends, name="cycle_end"))
    frame.columns.name = "channel"
    return frame
