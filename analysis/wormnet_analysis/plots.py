"""Plots of result files on matplotlib axes: latency against accepted traffic, latency
histograms, the time series of a point's windows; and compact PNG output."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .results import NORMALIZATIONS, Point, Sweep  # noqa: E402


def x_values(sweep: Sweep, norm: str) -> np.ndarray:
    """Accepted traffic of every point: flits/node/cycle ("absolute") or in percent of the
    routing's (N-1)/pi ("saturation"), of the bisection bound ("bisection"), or of the
    simulated pattern's ideal ("pattern": its own when the file has one, else (N-1)/pi)."""
    if norm == "pattern":
        rate, _ = sweep.ideal_rate()
        acc = np.asarray(sweep.summary["accepted"], dtype=float)
        return 100.0 * acc / rate if rate > 0 else np.full(len(acc), np.nan)
    column, _ = NORMALIZATIONS[norm]
    x = np.asarray(sweep.summary[column], dtype=float)
    return x if norm == "absolute" else 100.0 * x


def latency_curves(ax, sweeps, norm: str = "absolute", cycles: bool = False,
                   ymax: float | None = None, title: str = "") -> None:
    """Mean latency against accepted traffic, one curve per sweep; saturated points hollow."""
    for k, s in enumerate(sweeps):
        x = x_values(s, norm)
        y = np.asarray(s.summary["latency_mean"], dtype=float)
        if not cycles:
            y = y / s.flit_rate
        sat = np.asarray(s.summary["saturated"]) != 0
        color = f"C{k % 10}"
        ax.plot(x, y, "-", color=color, label=s.label)
        ax.plot(x[~sat], y[~sat], "o", color=color, ms=4)
        ax.plot(x[sat], y[sat], "o", color=color, ms=5, mfc="none")
    ax.set_xlabel(NORMALIZATIONS[norm][1])
    ax.set_ylabel("mean latency (cycles)" if cycles else "mean latency (\u00b5s)")
    if ymax is not None:
        ax.set_ylim(0, ymax)
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlim(left=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title(title or "latency vs accepted traffic (hollow: saturated)", fontsize=10)


def latency_histograms(ax, points, which: str = "total", bins: int = 48) -> None:
    """The latency distribution of each point (labelled packets, creation to tail ejection
    for "total"), re-binned on a logarithmic latency axis: fraction of packets per bin."""
    lows = [p.histogram["bucket_lower"][p.histogram[which] > 0] for p in points
            if which in p.histogram and p.histogram[which].sum() > 0]
    if not lows:
        ax.text(0.5, 0.5, "no delivered labelled packets", ha="center", transform=ax.transAxes)
        return
    lo = max(1.0, min(float(v.min()) for v in lows))
    hi = max(float(v.max()) for v in lows) + 1.0
    edges = np.geomspace(lo, hi * 1.05, bins + 1)
    cmap = plt.get_cmap("viridis")
    for k, p in enumerate(points):
        h = p.histogram.get(which)
        if h is None or h.sum() == 0:
            continue
        counts, _ = np.histogram(p.histogram["bucket_lower"], bins=edges, weights=h)
        color = cmap(k / max(1, len(points) - 1))
        ax.stairs(counts / h.sum(), edges, color=color, lw=1.3,
                  label=f"point {p.index}: offered {p.attrs['offered_load']:.3g}")
    ax.set_xscale("log")
    ax.set_xlabel(f"{which} latency (cycles, log scale)")
    ax.set_ylabel("fraction of labelled packets")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)


def timeseries(ax, point: Point, warmup: int, measure: int, nodes: int,
               verdict: str = "") -> None:
    """Offered and accepted traffic of every statistics window (left axis) and flits in the
    network and waiting at the sources (right axis) against time; warm-up and drain
    shaded."""
    ts = point.timeseries
    end = np.asarray(ts["cycle_end"], dtype=float)
    mid = end - np.asarray(ts["cycles"], dtype=float) / 2
    ax.axvspan(0, warmup, color="#e8e8e8", lw=0, label="warm-up")
    if len(end) and end[-1] > warmup + measure:
        ax.axvspan(warmup + measure, end[-1], color="#dfe9f5", lw=0, label="drain")
    ax.plot(mid, ts["offered"], color="C1", lw=1, label="offered")
    ax.plot(mid, ts["accepted"], color="C0", lw=1.4, label="accepted")
    ax.set_ylabel("flits/node/cycle", fontsize=8)
    ax.set_xlabel("cycle", fontsize=8)
    ax.set_ylim(bottom=0)
    ax.set_xlim(0, end[-1] if len(end) else 1)
    ax.tick_params(labelsize=7)
    ax2 = ax.twinx()
    ax2.plot(mid, np.asarray(ts["flits_in_network"]) / nodes, color="C2", lw=1, ls="--",
             label="in network")
    ax2.plot(mid, np.asarray(ts["flits_at_sources"]) / nodes, color="C3", lw=1, ls=":",
             label="at sources")
    ax2.set_ylabel("flits per node", fontsize=8)
    ax2.set_ylim(bottom=0)
    ax2.tick_params(labelsize=7)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=6, loc="upper left", ncol=3)
    ax.set_title(f"point {point.index}, offered {point.attrs['offered_load']:.4g}: {verdict}",
                 fontsize=8)


def png_bytes(fig, dpi: int = 100, colors: int | None = None, tight: bool = True) -> bytes:
    """The figure as PNG bytes; with `colors`, quantized to that many palette colours (a
    third of the size: for figures committed under docs/img)."""
    buf = io.BytesIO()
    fig.savefig(buf, dpi=dpi, format="png", bbox_inches="tight" if tight else None)
    if colors is None:
        return buf.getvalue()
    from PIL import Image  # Pillow: a dependency of matplotlib

    buf.seek(0)
    out = io.BytesIO()
    with Image.open(buf) as im:
        im.convert("RGB").quantize(colors=colors).save(out, format="png", optimize=True)
    return out.getvalue()


def save_png(fig, path: str, dpi: int = 100, colors: int | None = None) -> None:
    with open(path, "wb") as f:
        f.write(png_bytes(fig, dpi, colors))
