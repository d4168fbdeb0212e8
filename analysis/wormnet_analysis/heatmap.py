"""Channel heatmaps: every directed channel drawn on the network's layout (layouts.py) and
coloured by a value, the busiest channels numbered, the bisection cut dashed, failed channels
(a network with faults: docs/faults.md) drawn black and failed nodes crossed out; and the
partition map (nodes coloured by the rank that simulated them, the edge cut in black).

The values come from a result file or a routing-table file: channels.channel_values.
"""

from __future__ import annotations

import dataclasses
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.colors import Normalize  # noqa: E402

from .channels import CONGESTION, channel_values, default_point  # noqa: E402
from .scales import choose_scale  # noqa: E402
from .layouts import Layout, layout  # noqa: E402
from .tables import RoutingTable  # noqa: E402

#: Width of a drawn lane, in link lengths (lanes are 2 LANE = 0.22 apart); stubs of
#: channels that leave the plane are drawn thinner (STUB_WIDTH of it).
LANE_WIDTH = 0.14
CUT_COLOR = "#1f4fd0"
STUB_WIDTH = 0.6
#: Small networks are not blown up beyond this (inches per link length).
MAX_INCHES_PER_LINK = 0.8
CMAP = "YlOrRd"
#: Failed channels and nodes: outside the colour map (whose darkest is a dark red).
FAILED_COLOR = "black"


@dataclasses.dataclass
class Heatmap:
    """A drawn heatmap: what was drawn where, for checking and annotating."""

    layout: Layout
    values: np.ndarray  #: (C,) value of every channel
    collection: LineCollection  #: one line per layout segment, coloured by its channel
    norm: Normalize
    cmap: matplotlib.colors.Colormap
    busiest: list  #: channel ids of the numbered channels, busiest first
    figure: matplotlib.figure.Figure
    ax: matplotlib.axes.Axes
    failed: list = dataclasses.field(default_factory=list)  #: channel ids drawn as failed
    scale: str = "absolute"  #: the colour scale drawn: "absolute" or "relative" (scales.py)
    handles: list = dataclasses.field(default_factory=list)  #: the legend's (cut, faults)
    quantity: str = ""  #: what the values are (channels.QUANTITIES), when known

    def color_of(self, channel: int) -> tuple:
        """The RGBA colour channel `channel` is drawn in (FAILED_COLOR when it failed)."""
        if channel in self.failed:
            return matplotlib.colors.to_rgba(FAILED_COLOR)
        return self.cmap(self.norm(self.values[channel]))


def figure_for(lay: Layout, width: float = 9.0, colorbar: bool = True, max_height: float = 13.0):
    """A figure whose axes have the drawing's aspect ratio (so that lanes can be sized in
    link lengths), and the points per link length."""
    x0, y0, x1, y1 = lay.extent()
    right = 1.5 if colorbar else 0.25
    aw = min(width - 0.25 - right, MAX_INCHES_PER_LINK * (x1 - x0))
    ah = aw * (y1 - y0) / (x1 - x0)
    if ah > max_height:
        aw, ah = aw * max_height / ah, max_height
    top, bottom = 0.55, 0.45
    fig = plt.figure(figsize=(aw + 0.25 + right, ah + top + bottom))
    fw, fh = fig.get_size_inches()
    ax = fig.add_axes([0.25 / fw, bottom / fh, aw / fw, ah / fh])
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return fig, ax, aw * 72.0 / (x1 - x0)


def _panel_titles(ax, lay: Layout, fontsize: float) -> None:
    if len(lay.panels) < 2:
        return
    for p in lay.panels:
        x0, _, x1, y1 = p.box
        ax.text((x0 + x1) / 2, y1 + 0.8, p.title, ha="center", va="bottom", fontsize=fontsize)


def _draw_cut(ax, lay: Layout, lw: float):
    """The bisection cut's lines, dashed (None when the drawing has none)."""
    if len(lay.cut_lines) == 0:
        return None
    cut = lay.network.bisection()
    return ax.add_collection(LineCollection(
        lay.cut_lines, colors=CUT_COLOR, linewidths=lw, linestyles=(0, (4, 2.5)), zorder=4,
        label=f"bisection cut {cut.description}: {cut.channels_each_way} channels each way"))


def draw(lay: Layout, values: np.ndarray, *, label: str = "", title: str = "", top: int = 5,
         vmax: float | None = None, cut: bool = True, width: float = 9.0,
         cmap: str | None = None, vmin: float | None = None, scale: str = "auto",
         reference: float | None = None) -> Heatmap:
    """Draws `values` (one per channel id) on the layout; numbers the `top` busiest channels
    (ties: lower channel id first); dashes the bisection cut. The network's failed channels
    are drawn black (left out of the colour scale and of the busiest), its failed nodes
    crossed out, both named in the legend. The colour scale (scales.choose_scale: `scale`
    auto, absolute or relative, `vmin`, `vmax`, `reference`) is taken over every working
    channel of the network, so that a slice is drawn on the whole network's scale."""
    fig, ax, ppu = figure_for(lay, width)
    fw, fh = fig.get_size_inches()
    cax = fig.add_axes([1 - 1.25 / fw, 0.45 / fh + 0.1 * (1 - 1.0 / fh), 0.18 / fw,
                        0.8 * (1 - 1.0 / fh)])
    h = paint(fig, ax, cax, ppu, lay, values, label=label, top=top, vmax=vmax, cut=cut,
              cmap=cmap, vmin=vmin, scale=scale, reference=reference)
    _panel_titles(ax, lay, 9)
    if title:
        fig.suptitle(title, fontsize=10, y=1 - 0.12 / fh, va="top")
    if h.handles:
        ax.legend(handles=h.handles, loc="lower left", fontsize=7, frameon=False,
                  bbox_to_anchor=(0, -0.45 / (fh - 1.0)), ncol=min(3, len(h.handles)))
    if lay.notes:
        fig.text(1 - 0.05 / fw, 0.08 / fh, "; ".join(lay.notes), ha="right", va="bottom",
                 fontsize=7, color="#555555")
    return h


def paint(fig, ax, cax, ppu: float, lay: Layout, values: np.ndarray, *, label: str = "",
          top: int = 5, vmax: float | None = None, cut: bool = True, cmap: str | None = None,
          vmin: float | None = None, scale: str = "auto",
          reference: float | None = None) -> Heatmap:
    """The heatmap itself (draw's lanes, nodes, numbered busiest channels, failed channels
    and nodes, cut) on the axes `ax` of `fig` (`ppu` points per link length), its colour bar
    in `cax`; the legend's handles in the result's `handles`. draw and panels call it."""
    values = np.asarray(values, dtype=float)
    if values.shape != (lay.network.channels,):
        raise ValueError(f"{len(values)} values for {lay.network.channels} channels")
    lw = max(0.6, LANE_WIDTH * ppu)
    net = lay.network
    failed_set = set(int(c) for c in net.failed_channels)
    segment_failed = np.isin(lay.segment_channel, net.failed_channels)
    # Failed lanes are "bad" values of the colour map: drawn in FAILED_COLOR.
    drawn_values = np.where(segment_failed, np.nan, values[lay.segment_channel])
    working = np.ones(net.channels, dtype=bool)
    working[np.asarray(net.failed_channels, dtype=np.int64)] = False
    chosen = choose_scale(values[working], scale, vmin, vmax, reference)
    norm = chosen.norm
    colormap = plt.get_cmap(cmap or chosen.cmap).with_extremes(bad=FAILED_COLOR)

    order = np.argsort(-values, kind="stable")
    on_drawing = set(int(c) for c in lay.segment_channel)
    busiest = [int(c) for c in order if int(c) in on_drawing and int(c) not in failed_set][:top]
    if busiest:
        halo = np.isin(lay.segment_channel, busiest)
        widths = np.where(lay.segment_out_of_plane[halo], lw * STUB_WIDTH, lw) * 2.0
        ax.add_collection(LineCollection(lay.segments[halo], colors="black",
                                         linewidths=widths, zorder=2))
    widths = np.where(lay.segment_out_of_plane, lw * STUB_WIDTH, lw)
    coll = LineCollection(lay.segments, array=drawn_values, cmap=colormap, norm=norm,
                          linewidths=widths, capstyle="butt", zorder=3)
    ax.add_collection(coll)
    if segment_failed.any():
        # Hatched: a dotted white line along each failed lane (black alone could pass for the
        # halo of a busy channel).
        ax.add_collection(LineCollection(lay.segments[segment_failed], colors="white",
                                         linewidths=widths[segment_failed] * 0.35,
                                         linestyles=(0, (1, 2)), zorder=3.5))
    drawn = lay.drawn
    ax.scatter(lay.pos[drawn, 0], lay.pos[drawn, 1], s=(0.2 * ppu) ** 2, c="#d9d9d9",
               edgecolors="#707070", linewidths=max(0.3, 0.02 * ppu), zorder=5)
    fault_handles = []
    if net.faulty:
        dead = np.zeros(net.nodes, dtype=bool)
        dead[net.failed_nodes] = True
        dead &= drawn
        ax.scatter(lay.pos[dead, 0], lay.pos[dead, 1], s=(0.3 * ppu) ** 2, c=FAILED_COLOR,
                   marker="x", linewidths=max(0.8, 0.05 * ppu), zorder=6)
        links = len(net.failed_links)
        fault_handles = [
            plt.Line2D([], [], color=FAILED_COLOR, lw=2,
                       label=f"failed channel ({links} failed link{'s' if links != 1 else ''}"
                             f", {len(net.failed_channels)} channels)"),
            plt.Line2D([], [], ls="none", marker="x", color=FAILED_COLOR,
                       label=f"failed node ({len(net.failed_nodes)})")]
    for rank, c in enumerate(busiest, 1):
        seg = lay.segments[lay.segment_channel == c][0]
        mid = seg.mean(axis=0)
        d = seg[1] - seg[0]
        n = np.array([d[1], -d[0]]) / max(np.hypot(*d), 1e-9)
        x, y = mid + 0.22 * n
        ax.text(x, y, str(rank), ha="center", va="center",
                fontsize=min(10.0, max(5.0, 0.2 * ppu)), fontweight="bold", zorder=6,
                bbox=dict(boxstyle="circle,pad=0.15", fc="white", ec="black", lw=0.5))
    cut_lines = _draw_cut(ax, lay, max(1.0, 0.06 * ppu)) if cut else None
    bar = fig.colorbar(coll, cax=cax, extend=_extend(values[working], norm))
    bar.set_label(label + (f"\n{chosen.text}" if chosen.text else ""), fontsize=8)
    bar.ax.tick_params(labelsize=7)
    handles = ([cut_lines] if cut_lines is not None else []) + fault_handles
    return Heatmap(lay, values, coll, norm, colormap, busiest, fig, ax, sorted(failed_set),
                   chosen.kind, handles)


def _extend(values: np.ndarray, norm: Normalize) -> str:
    """The colour bar's arrows: which ends the values pass (a --vmin or --vmax inside them)."""
    below = bool(len(values)) and float(np.nanmin(values)) < norm.vmin
    above = bool(len(values)) and float(np.nanmax(values)) > norm.vmax
    return {(False, False): "neither", (True, False): "min", (False, True): "max",
            (True, True): "both"}[(below, above)]


def draw_partition(lay: Layout, owner: np.ndarray, *, title: str = "",
                   width: float = 7.0) -> tuple:
    """Nodes coloured by the rank that simulated them; channels between two ranks (the edge
    cut) black, the others light grey. Returns (figure, number of cut links drawn)."""
    net = lay.network
    fig, ax, ppu = figure_for(lay, width, colorbar=False)
    lw = max(0.6, LANE_WIDTH * ppu)
    between = owner[net.channel_source] != owner[net.channel_dest]
    crossing = between[lay.segment_channel]
    colors = np.where(crossing[:, None], np.array([[0.0, 0.0, 0.0, 1.0]]),
                      np.array([[0.8, 0.8, 0.8, 1.0]]))
    ax.add_collection(LineCollection(lay.segments, colors=colors, linewidths=lw,
                                     capstyle="butt", zorder=3))
    ranks = int(owner.max()) + 1
    cmap = plt.get_cmap("tab10" if ranks <= 10 else "tab20")
    drawn = lay.drawn
    ax.scatter(lay.pos[drawn, 0], lay.pos[drawn, 1], s=(0.32 * ppu) ** 2,
               c=[cmap(int(r) % cmap.N) for r in owner[drawn]], edgecolors="#404040",
               linewidths=0.3, zorder=5)
    _panel_titles(ax, lay, 9)
    handles = [plt.Line2D([], [], ls="none", marker="o", color=cmap(r % cmap.N),
                          label=f"rank {r}: {int(np.sum(owner == r))} routers")
               for r in range(min(ranks, 12))]
    handles.append(plt.Line2D([], [], color="black", lw=2,
                              label=f"edge cut: {int(between.sum()) // 2} links"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.02), ncol=3,
              fontsize=7, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig, int(between.sum()) // 2


def _share_ends(quantity: str, vmin, vmax) -> tuple:
    """The escape share is a fraction: drawn from 0 to 1 unless asked otherwise, so that
    pictures of several loads compare."""
    if quantity == "escape-share":
        return (0.0 if vmin is None else vmin), (1.0 if vmax is None else vmax)
    return vmin, vmax


def _point_title(source, point: int | None) -> str:
    p = source.point(default_point(source) if point is None else point)
    return (f"point {p.index}: offered {p.attrs['offered_load']:.4g}, accepted "
            f"{p.attrs['accepted']:.4g} flits/node/cycle")


def congestion_quantities(source, point: int | None = None) -> list:
    """The congestion quantities a point has (channels.CONGESTION; escape-share only under a
    routing with escape VCs); ResultFileError (one line) when it has no counts."""
    from .channels import congestion_values

    p = source.point(default_point(source) if point is None else point)
    congestion_values(source, "blocked", p)  # the error of a run without counts
    return [q for q in CONGESTION if q != "escape-share" or "escape_flits" in p.congestion]


def panels(source, cells, point: int | None = None, style: str | None = None,
           top: int = 3, ncols: int = 3, panel_width: float = 4.6, title: str | None = None,
           **layout_options) -> tuple:
    """Small multiples: one heatmap panel per cell of `cells`, each a quantity of
    channel_values (drawn at `point`) or a (quantity, point) pair, each panel with its own
    colour bar, drawn by paint on one figure; the panels share the layout, and the panels of
    one quantity share its colour scale (absolute: 0 to the largest value over them, the
    escape share too), so that several load points compare. Returns (figure, [Heatmap per
    cell], in the order of `cells`, each with its quantity)."""
    cells = [(c, point) if isinstance(c, str) else (c[0], c[1]) for c in cells]
    values = [channel_values(source, q, p) for q, p in cells]
    working = _working(source)
    several = len({p for _, p in cells}) > 1
    entries = []
    for (q, p), (v, label) in zip(cells, values):
        text = f"{q} (max {v[working].max():.4g})"
        if several:
            pt = source.point(default_point(source) if p is None else p)
            text = f"{q}, offered {pt.attrs['offered_load']:.4g} (max {v[working].max():.4g})"
        entries.append((q, v, label, text))
    if title is None:
        title = f"{source.network.spec}, {source.routing.get('name', '?')}"
        if not several:
            title += f", {_point_title(source, cells[0][1])}"
        title += ": where packets wait"
    return _small_multiples(source, entries, title, style, top, ncols, panel_width,
                            **layout_options)


def _working(source) -> np.ndarray:
    """(C,) bool: the channels of the working network (failed ones are drawn black)."""
    working = np.ones(source.network.channels, dtype=bool)
    working[np.asarray(source.network.failed_channels, dtype=np.int64)] = False
    return working


def _small_multiples(source, entries, title: str, style, top: int, ncols: int,
                     panel_width: float, **layout_options) -> tuple:
    """The figure of panels and series_panels: `entries` are (quantity, values (C,), colour
    bar text, panel title); the panels of one quantity share a colour scale from 0."""
    working = _working(source)
    tops = {}
    for q, v, _, _ in entries:
        tops[q] = max(tops.get(q, 0.0), float(v[working].max()) if working.any() else 0.0)
    lay = layout(source.network, style, **layout_options)
    x0, y0, x1, y1 = lay.extent()
    right, pad, head = 1.5, 0.15, 0.45  # inches: colour bar, left margin, panel title
    aw = min(panel_width - right - pad, MAX_INCHES_PER_LINK * (x1 - x0))
    ah = aw * (y1 - y0) / (x1 - x0)
    cw, ch = aw + right + pad, ah + head + 0.15
    ncols = max(1, min(ncols, len(entries)))
    nrows = -(-len(entries) // ncols)
    top_band, bottom_band = 0.6, (0.45 if lay.notes or lay.cut_lines is not None else 0.2)
    fw, fh = ncols * cw, nrows * ch + top_band + bottom_band
    fig = plt.figure(figsize=(fw, fh))
    ppu = aw * 72.0 / (x1 - x0)
    drawn = []
    for k, (q, v, label, text) in enumerate(entries):
        r, c = divmod(k, ncols)
        left = c * cw + pad
        bottom = fh - top_band - (r + 1) * ch + 0.15
        ax = fig.add_axes([left / fw, bottom / fh, aw / fw, ah / fh])
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_aspect("equal")
        ax.set_axis_off()
        cax = fig.add_axes([(left + aw + 0.2) / fw, (bottom + 0.1 * ah) / fh, 0.14 / fw,
                            0.8 * ah / fh])
        vmin, vmax = 0.0, (tops[q] if tops[q] > 0 else None)
        h = paint(fig, ax, cax, ppu, lay, v, label=textwrap.fill(label, 34), top=top,
                  vmin=vmin, vmax=vmax, scale="absolute")
        ax.set_title(text, fontsize=9)
        h.quantity = q
        drawn.append(h)
    fig.suptitle(title, fontsize=10, y=1 - 0.12 / fh, va="top")
    if drawn and drawn[0].handles:
        fig.legend(handles=drawn[0].handles, loc="lower left", fontsize=7, frameon=False,
                   bbox_to_anchor=(0.01, 0.0))
    if lay.notes:
        fig.text(1 - 0.05 / fw, 0.08 / fh, "; ".join(lay.notes), ha="right", va="bottom",
                 fontsize=7, color="#555555")
    return fig, drawn


def series_windows_drawn(cycle_end, count: int = 6) -> list:
    """`count` windows (indices) spread evenly over a run of len(cycle_end) windows, the
    first and the last included (all of them when there are no more)."""
    n = len(cycle_end)
    if n <= count:
        return list(range(n))
    return sorted({int(round(k * (n - 1) / (count - 1))) for k in range(count)})


def series_panels(source, windows=None, point: int | None = None, quantity: str = "utilization",
                  count: int = 6, style: str | None = None, top: int = 3, ncols: int = 3,
                  panel_width: float = 4.6, title: str | None = None, **layout_options) -> tuple:
    """The channel view over time (`--congestion series`): a panel per statistics window of
    `windows` (indices into the point's windows; None: `count` of them spread over the run,
    series_windows_drawn), each channel coloured by the flits it carried in that window
    (`quantity` "flits"), those per cycle ("utilization") or the cycles its input VCs waited
    in the window's part inside the measurement window ("blocked"), one colour scale over the
    panels, each titled with its cycles and where they lie (warm-up, measurement, drain).
    Returns (figure, [Heatmap per window], each with .window its index);
    ResultFileError (one line) when the point has no series."""
    from .channels import series_blocked, series_windows, window_phase

    if quantity not in ("flits", "utilization", "blocked"):
        raise ValueError(f"quantity {quantity!r}: flits, utilization or blocked")
    p = source.point(default_point(source) if point is None else point)
    flits, ends = series_windows(source, p)
    if quantity == "blocked":
        flits = series_blocked(source, p)
    if windows is None:
        windows = series_windows_drawn(ends, count)
    for w in windows:
        if not 0 <= w < len(ends):
            raise ValueError(f"window {w}: point {p.index} has {len(ends)} statistics windows "
                             f"(0..{len(ends) - 1})")
    label = {"flits": "flits through the channel in the window",
             "utilization": "channel utilization (flits/cycle in the window)",
             "blocked": "blocked cycles in the window (VC + credit + switch waits, summed "
                        "over the VCs)"}[quantity]
    entries = []
    for w in windows:
        start = int(ends[w - 1]) if w > 0 else 0
        end = int(ends[w])
        v = flits[:, w].astype(float)
        if quantity == "utilization":
            v = v / float(end - start)
        working = _working(source)
        text = (f"cycles {start}\u2013{end} ({window_phase(source, start, end)}), "
                f"max {v[working].max():.4g}")
        entries.append((quantity, v, label, text))
    if title is None:
        title = (f"{source.network.spec}, {source.routing.get('name', '?')}, "
                 f"{_point_title(source, p.index)}: the channels over time")
    fig, drawn = _small_multiples(source, entries, title, style, top, ncols, panel_width,
                                  **layout_options)
    for h, w in zip(drawn, windows):
        h.window = w
    return fig, drawn


def congestion_panels(source, point: int | None = None, quantities=None, **options) -> tuple:
    """The small multiples of where packets wait at a load point: a panel per congestion
    quantity the point has (congestion_quantities), or those of `quantities`. Returns
    (figure, [Heatmap per quantity]); ResultFileError without --congestion totals."""
    if quantities is None:
        quantities = congestion_quantities(source, point)
    return panels(source, list(quantities), point, **options)


def heatmap_of(source, quantity: str | None = None, point: int | None = None,
               style: str | None = None, top: int = 5, width: float = 9.0,
               scale: str = "auto", vmin: float | None = None, vmax: float | None = None,
               **layout_options) -> Heatmap:
    """The heatmap of a Sweep or RoutingTable in one call (see channel_values, layout, and
    draw for the scale); quantity None: "utilization" for a Sweep, "load" for a RoutingTable.
    The title gives the whole network's maximum, and the drawn slices' when they have less."""
    if quantity is None:
        quantity = "load" if isinstance(source, RoutingTable) else "utilization"
    values, label = channel_values(source, quantity, point)
    vmin, vmax = _share_ends(quantity, vmin, vmax)
    lay = layout(source.network, style, **layout_options)
    if isinstance(source, RoutingTable):
        what = f"{source.network.spec}, {source.algorithm} routing table"
    else:
        what = f"{source.network.spec}, {source.routing.get('name', '?')}"
        if quantity not in ("load", "pattern-load"):
            what += f", {_point_title(source, point)}"
    if source.network.faulty:
        what += (f", failed: {len(source.network.failed_links)} links, "
                 f"{len(source.network.failed_nodes)} nodes")
    working = np.ones(len(values), dtype=bool)
    working[np.asarray(source.network.failed_channels, dtype=np.int64)] = False
    top_all = float(values[working].max()) if working.any() else 0.0
    title = f"{what} \u2014 max {top_all:.4g}"
    drawn = np.unique(lay.segment_channel)
    drawn = drawn[working[drawn]]
    if len(drawn) < working.sum() and len(drawn):
        top_drawn = float(values[drawn].max())
        if top_drawn < top_all:
            title += f" (whole network; {top_drawn:.4g} in the slices drawn)"
    h = draw(lay, values, label=label, title=title, top=top, width=width, scale=scale,
             vmin=vmin, vmax=vmax)
    h.quantity = quantity
    return h
