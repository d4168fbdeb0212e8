"""Drawings of a network on its own layout: where each node sits and where each directed
channel is drawn, in drawing units of one link length.

- H_t (`honeycomb`): "hex" puts node (x, y, z) at x e_x + y e_y + z e_z with three unit
  vectors 120 degrees apart, so every link is a unit segment and the hexagons are regular;
  "brick" is the brick wall: one coordinate vertical, the difference of the other two
  horizontal.
- honeycomb tori (`honeycomb-torus`: HT_T, and the rectangular and rhombic ones): "hex" as
  for H_t, on the node set the file stores (H_T's nodes for HT_T, the brick rows for the
  others); a wrap-around channel (its two nodes are not neighbours on the drawing) is a stub
  at its source in the direction of its port.
- tori and meshes: a grid of two dimensions ("the plane"); every further dimension makes
  slices, one panel per combination of its coordinates. Wrap-around channels and channels
  leaving the plane are short stubs at their source.

Each directed channel is drawn once: a link's two channels run side by side in lanes (the
right-hand lane of their direction). The layout also places the bisection cut of the
network (Network.bisection) as straight lines that cross exactly the cut's channels.
Dispatch is on the file's topology kind (LAYOUTS); a kind without a layout is a clear
LayoutError, and adding one means adding an entry there.

>>> from wormnet_analysis.network import from_spec
>>> lay = layout(from_spec("honeycomb:2"))
>>> lay.style, len(lay.segments), len(lay.cut_lines)
('hex', 60, 1)
>>> layout(from_spec("torus:8x8x2")).panel_titles()
['Z=0', 'Z=1']
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import math

import numpy as np

from .network import DIM_NAMES, Network

#: Lane offset of a channel from its link's centre line (link lengths).
LANE = 0.11
#: Length left free at each end of a lane (room for the node marker).
GAP = 0.2
#: Length of a stub: wrap-around channels reach past the grid's border line (at 0.5).
WRAP_STUB = 0.62
#: Length of a stub of a channel that leaves the plane (stays inside the cell).
OUT_STUB = 0.46
#: Directions of the stubs of the dimensions outside the plane, degrees (+ side; - is +180).
OUT_ANGLES = (45.0, 135.0, 22.5, 112.5, 67.5, 157.5)


class LayoutError(ValueError):
    """The network cannot be drawn as asked (unknown kind, unknown style, bad plane)."""


@dataclasses.dataclass
class Panel:
    title: str
    box: tuple  #: (xmin, ymin, xmax, ymax) of the panel's nodes


@dataclasses.dataclass
class Layout:
    """Positions and drawn pieces of one network."""

    network: Network
    style: str  #: "hex", "brick" or "grid"
    pos: np.ndarray  #: (N, 2) node positions; NaN for nodes not drawn (slices left out)
    segments: np.ndarray  #: (S, 2, 2) drawn pieces of channels, start and end points
    segment_channel: np.ndarray  #: (S,) channel id of each piece
    cut_lines: np.ndarray  #: (L, 2, 2) the bisection cut, as straight lines
    panels: list  #: Panel per slice (one for H_t and 2-D networks)
    notes: list = dataclasses.field(default_factory=list)  #: what the drawing leaves out
    #: (S,) bool: pieces that are stubs of channels leaving the plane (drawn thinner)
    segment_out_of_plane: np.ndarray | None = None

    def __post_init__(self):
        if self.segment_out_of_plane is None:
            self.segment_out_of_plane = np.zeros(len(self.segment_channel), dtype=bool)

    @property
    def drawn(self) -> np.ndarray:
        """(N,) bool: nodes on the drawing."""
        return ~np.isnan(self.pos[:, 0])

    def panel_titles(self) -> list:
        return [p.title for p in self.panels]

    def extent(self, margin: float = 0.8) -> tuple:
        """(xmin, ymin, xmax, ymax) of everything drawn, with a margin."""
        pts = [self.pos[self.drawn]]
        if len(self.segments):
            pts.append(self.segments.reshape(-1, 2))
        if len(self.cut_lines):
            pts.append(self.cut_lines.reshape(-1, 2))
        p = np.concatenate(pts)
        lo, hi = p.min(axis=0) - margin, p.max(axis=0) + margin
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def _lane(pu: np.ndarray, pv: np.ndarray) -> np.ndarray:
    """The lanes of channels u -> v ((S, 2) arrays of end positions, or one pair): parallel
    to the link, LANE to the right of its direction, GAP short of each node."""
    d = pv - pu
    d = d / np.hypot(d[..., 0], d[..., 1])[..., None]
    n = np.stack([d[..., 1], -d[..., 0]], axis=-1)
    return np.stack([pu + GAP * d + LANE * n, pv - GAP * d + LANE * n], axis=-2)


def _stub(pu: np.ndarray, direction: np.ndarray, length: float, lane: float) -> np.ndarray:
    """Stubs from nodes pu ((S, 2)) along unit `direction`s, `lane` to their right."""
    n = np.stack([direction[..., 1], -direction[..., 0]], axis=-1)
    return np.stack([pu + GAP * direction + lane * n, pu + length * direction + lane * n],
                    axis=-2)


def _neighbour_segments(net: Network, pos: np.ndarray) -> tuple:
    """Lanes of every channel (both ends drawn)."""
    return (_lane(pos[net.channel_source], pos[net.channel_dest]),
            np.arange(net.channels))


def _separating_line(pos: np.ndarray, side_a: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """The straight line perpendicular to `normal` halfway between the nodes of side A and
    those of side B (which must lie on either side of it), long enough to cross the whole
    drawing."""
    normal = normal / np.hypot(normal[0], normal[1])
    p = pos @ normal
    a_max, b_min = p[side_a].max(), p[~side_a].min()
    if not a_max < b_min:
        raise LayoutError("the bisection cut is not a straight line on this drawing")
    mid = (a_max + b_min) / 2
    t = np.array([-normal[1], normal[0]])
    along = pos @ t
    lo, hi = along.min() - 0.7, along.max() + 0.7
    return np.array([mid * normal + lo * t, mid * normal + hi * t])


#: Unit vectors of x, y and z in the hex drawing: 120 degrees apart, x pointing up.
HEX_AXES = np.array([[0.0, 1.0], [-math.sqrt(3) / 2, -0.5], [math.sqrt(3) / 2, -0.5]])


def _honeycomb_hex(net: Network) -> Layout:
    pos = net.coords.astype(float) @ HEX_AXES
    segs, chans = _neighbour_segments(net, pos)
    cut = net.bisection()
    line = _separating_line(pos, net.coords[:, cut.coordinate] <= cut.split,
                            HEX_AXES[cut.coordinate])
    box = (*pos.min(axis=0), *pos.max(axis=0))
    return Layout(net, "hex", pos, segs, chans, np.array([line]),
                  [Panel(net.spec, box)])


def _honeycomb_torus_hex(net: Network) -> Layout:
    pos = net.coords.astype(float) @ HEX_AXES
    src, dst, port = net.channel_source, net.channel_dest, net.channel_port
    # A link of the drawing joins nodes one unit apart; every other channel wraps around.
    step = np.where((port % 2 == 0)[:, None], HEX_AXES[port // 2], -HEX_AXES[port // 2])
    near = np.all(np.isclose(pos[dst] - pos[src], step), axis=1)
    segs = np.empty((net.channels, 2, 2))
    segs[near] = _lane(pos[src[near]], pos[dst[near]])
    segs[~near] = _stub(pos[src[~near]], step[~near], WRAP_STUB, LANE)
    cut = net.bisection()
    line = _separating_line(pos, net.coords[:, cut.coordinate] <= cut.split,
                            HEX_AXES[cut.coordinate])
    box = (*pos.min(axis=0), *pos.max(axis=0))
    notes = [f"{int((~near).sum())} wrap-around channels are stubs at their source; the "
             "bisection cut also crosses wrap-around links"]
    return Layout(net, "hex", pos, segs, np.arange(net.channels), np.array([line]),
                  [Panel(net.spec, box)], notes)


def _honeycomb_brick(net: Network, *, vertical: int | None = None) -> Layout:
    cut = net.bisection()
    v = cut.coordinate if vertical is None else vertical
    if v not in (0, 1, 2):
        raise LayoutError(f"brick layout: vertical coordinate {v} is not 0 (x), 1 (y) or 2 (z)")
    j, k = [i for i in range(3) if i != v]
    c = net.coords.astype(float)
    pos = np.stack([c[:, j] - c[:, k], c[:, v]], axis=1)
    segs, chans = _neighbour_segments(net, pos)
    lines = []
    if cut.coordinate == v:
        lines.append(_separating_line(pos, net.coords[:, v] <= cut.split, np.array([0.0, 1.0])))
    box = (*pos.min(axis=0), *pos.max(axis=0))
    return Layout(net, "brick", pos, segs, chans,
                  np.array(lines).reshape(-1, 2, 2), [Panel(net.spec, box)])


def _grid(net: Network, *, plane=None, slices=None, max_panels: int = 64) -> Layout:
    sizes = net.sizes
    dims = len(sizes)
    cut = net.bisection()
    if plane is None:
        plane = (0,) if dims == 1 else (0, 1 if cut.coordinate < 2 or dims < 3 else cut.coordinate)
    plane = tuple(int(p) for p in plane)
    if len(plane) != min(2, dims) or len(set(plane)) != len(plane) or \
            any(not 0 <= p < dims for p in plane):
        raise LayoutError(f"plane {plane}: give {min(2, dims)} different dimensions of "
                          f"0..{dims - 1} for {net.spec}")
    out = [d for d in range(dims) if d not in plane]
    slices = dict(slices or {})
    for d, val in slices.items():
        if d not in out or not 0 <= val < sizes[d]:
            raise LayoutError(f"slice {DIM_NAMES[d] if d < 6 else d}={val}: not a coordinate "
                              f"outside the plane of {net.spec}")
    ranges = [[slices[d]] if d in slices else range(sizes[d]) for d in out]
    combos = [tuple(reversed(c)) for c in itertools.product(*reversed(ranges))]
    if len(combos) > max_panels:
        raise LayoutError(f"{net.spec}: {len(combos)} slices (more than {max_panels}); pick "
                          "some with slices={dim: value} (--slice K=0)")
    ka = sizes[plane[0]]
    kb = sizes[plane[1]] if len(plane) > 1 else 1
    margin = 0.9
    width, height = ka - 1 + 2 * margin, kb - 1 + 2 * margin + 0.6
    ncols = max(1, math.ceil(math.sqrt(len(combos))))
    origin = {}
    panels = []
    for i, combo in enumerate(combos):
        ox, oy = (i % ncols) * (width + 0.5), -(i // ncols) * (height + 0.5)
        origin[combo] = (ox, oy)
        title = ", ".join(f"{DIM_NAMES[d]}={v}" for d, v in zip(out, combo)) or net.spec
        panels.append(Panel(title, (ox, oy, ox + ka - 1, oy + kb - 1)))

    # Panel of every node: its coordinates outside the plane in mixed radix (first fastest).
    co = net.coords
    drawn = np.ones(net.nodes, dtype=bool)
    panel = np.zeros(net.nodes, dtype=np.int64)
    radix = 1
    for d, r in zip(out, ranges):
        if d in slices:
            drawn &= co[:, d] == slices[d]
        else:
            panel += co[:, d] * radix
            radix *= len(r)
    corner = np.array([origin[c] for c in combos], dtype=float)
    pos = np.full((net.nodes, 2), np.nan)
    y = co[:, plane[1]] if len(plane) > 1 else np.zeros(net.nodes)
    pos[drawn] = corner[panel[drawn]] + np.stack([co[drawn, plane[0]], y[drawn]], axis=1)

    # Every channel from a drawn node: a lane to a grid neighbour, else a stub at its source
    # (wrap-around: across the grid's border; out of the plane: at its dimension's angle).
    src, dst, port = net.channel_source, net.channel_dest, net.channel_port
    dim, sign = port // 2, np.where(port & 1, -1.0, 1.0)
    direction = np.zeros((net.channels, 2))
    axis_dir = {plane[0]: (1.0, 0.0)}
    if len(plane) > 1:
        axis_dir[plane[1]] = (0.0, 1.0)
    for j, d in enumerate(out):
        a = math.radians(OUT_ANGLES[j])
        axis_dir.setdefault(d, (math.cos(a), math.sin(a)))
    for d, vec in axis_dir.items():
        direction[dim == d] = vec
    direction *= sign[:, None]
    in_plane = np.isin(dim, plane)
    step = np.abs(co[dst, dim] - co[src, dim])
    lane = in_plane & (step == 1)
    wrap = in_plane & ~lane
    segs = np.empty((net.channels, 2, 2))
    segs[lane] = _lane(pos[src[lane]], pos[dst[lane]])
    segs[wrap] = _stub(pos[src[wrap]], direction[wrap], WRAP_STUB, LANE)
    segs[~in_plane] = _stub(pos[src[~in_plane]], direction[~in_plane], OUT_STUB, 0.0)
    keep = drawn[src]
    axis_dir = {d: v for d, v in axis_dir.items() if d in plane}

    lines = []
    notes = []
    if cut.coordinate in axis_dir:
        horizontal = cut.coordinate == plane[0]
        k = sizes[cut.coordinate]
        offsets = [cut.split + 0.5]
        if net.is_ring(cut.coordinate):
            offsets += [-0.5, k - 0.5]  # the wrap-around links are cut at the border
        for ox, oy in origin.values():
            for off in offsets:
                if horizontal:
                    lines.append([(ox + off, oy - 0.7), (ox + off, oy + kb - 1 + 0.7)])
                else:
                    lines.append([(ox - 0.7, oy + off), (ox + ka - 1 + 0.7, oy + off)])
    else:
        notes.append(f"the bisection cut ({cut.description}) runs between slices")
    if out:
        names = ", ".join(f"{DIM_NAMES[d]}\u00b1" for d in out)
        notes.append(f"channels {names} are stubs at their source")
    return Layout(net, "grid", pos, segs[keep], np.nonzero(keep)[0],
                  np.array(lines, dtype=float).reshape(-1, 2, 2), panels, notes, ~in_plane[keep])


#: Layout styles per topology kind; the first is the default. A new topology kind gets an
#: entry here (a function Network -> Layout).
LAYOUTS = {
    "honeycomb": {"hex": _honeycomb_hex, "brick": _honeycomb_brick},
    "honeycomb-torus": {"hex": _honeycomb_torus_hex},
    "torus": {"grid": _grid},
    "mesh": {"grid": _grid},
}


def styles(kind: str) -> list:
    """The layout styles of a topology kind (LayoutError for a kind without a layout)."""
    if kind not in LAYOUTS:
        raise LayoutError(
            f"no layout for topology kind {kind!r}: these readers draw "
            f"{', '.join(sorted(LAYOUTS))} (add one to wormnet_analysis/layouts.py LAYOUTS)"
        )
    return list(LAYOUTS[kind])


def layout(net: Network, style: str | None = None, **options) -> Layout:
    """The drawing of `net`: style None for the kind's default. Options: plane=(i, j) and
    slices={dim: value} (tori, meshes), max_panels, vertical=i (brick)."""
    known = styles(net.kind)
    style = style or known[0]
    if style not in known:
        raise LayoutError(f"layout {style!r} does not draw a {net.kind}: use one of "
                          f"{', '.join(known)}")
    draw = LAYOUTS[net.kind][style]
    takes = [p for p in inspect.signature(draw).parameters if p != "net"]
    extra = sorted(set(options) - set(takes))
    if extra:
        what = {"plane": "--plane", "slices": "--slice"}
        raise LayoutError(f"the {style} layout of a {net.kind} has no "
                          f"{', '.join(what.get(x, x) for x in extra)} (it takes "
                          f"{', '.join(takes) or 'no options'})")
    return draw(net, **options)

